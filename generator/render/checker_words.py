"""The card checker's words (:mod:`generator.commands.checker`): what its form and its
problems say to a reader, in the locale of a :class:`~generator.i18n.explain.Words`
(extracted into the built-in catalogs with the rows' words)."""

from __future__ import annotations

from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.i18n.explain import Words

YOUR_CARDS = "Your cards"
"""The answer's title (a case title, translated as one is: :func:`your_cards`)."""


def your_cards(w: Words) -> str:
    """The answer's title and its table's caption: :data:`YOUR_CARDS` translated."""
    return w.text("Your cards")


def card_problem(code: str, w: Words) -> str:
    """What is wrong with a typed card code, in ``w``'s locale; ``""`` for a card."""
    try:
        parse_card(code)
    except CardCodeError as exc:
        if exc.part == "rank":
            return w.text("%(code)s is not a card: its rank is not one of 2 to 10, J, Q, "
                          "K or A.", code=code)
        if exc.part == "suit":
            return w.text("%(code)s is not a card: its suit is not one of S, H, D or C "
                          "(♠ ♥ ♦ ♣).", code=code)
        return w.text("%(code)s is not a card: a card is written as its rank and its "
                      "suit, such as %(example)s, and a joker as %(joker_code)s.", code=code,
                      example="QH", joker_code="JK")
    return ""


def missing_cards(w: Words) -> str:
    """A field of the form without cards."""
    return w.text("Enter the cards of every field to check them.")


def refused(problem: str, w: Words) -> str:
    """Inputs the kind refuses; ``problem``: the loader's words (English, as ``explain``
    says them)."""
    return w.text("These cards cannot be checked: %(problem)s", problem=problem)


def field_labels(w: Words) -> dict[str, str]:
    """The words of each input field a checker asks for, by field."""
    return {"cards": w.text("Cards"), "melds": w.text("Melds, one per line"),
            "meld": w.text("The meld on the table"),
            "card": w.text("The card put in the joker's place"),
            "opened": w.text("The player has opened")}


def suit_names(w: Words) -> dict[str, str]:
    """The suits' names, by code."""
    return {"S": w.text("Spades"), "H": w.text("Hearts"), "D": w.text("Diamonds"),
            "C": w.text("Clubs")}


def form_words(w: Words) -> dict[str, str]:
    """The words of the checker's form and buttons."""
    return {"game": w.text("Game"), "rules": w.text("Rules"),
            "copy": w.text("Copy as a case"), "copied": w.text("Copied."),
            "suit": w.text("Suit"), "clear": w.text("Clear"),
            "picker": w.text("Pick a card: a suit, then a card of it."),
            "codes": w.text("Or type the codes, such as %(example)s, and %(joker_code)s for a "
                            "joker.", example="QH KH AH", joker_code="JK"),
            "empty": w.text("Enter some cards to check them.")}
