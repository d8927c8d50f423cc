"""The card checker's words (:mod:`generator.commands.checker`): what its form and its
problems say to a reader, in the locale of a :class:`~generator.i18n.explain.Words`
(extracted into the built-in catalogs with the rows' words)."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.cards import parse_cards
from generator.engine.codes import InputReason
from generator.errors import InputError
from generator.i18n.explain import Words

YOUR_CARDS = "Your cards"
"""The answer's title (a case title, translated as one is: :func:`your_cards`)."""


def your_cards(w: Words) -> str:
    """The answer's title and its table's caption: :data:`YOUR_CARDS` translated."""
    return w.text("Your cards")


def card_problem(code: str, w: Words) -> str:
    """What is wrong with a typed card code, in ``w``'s locale; ``""`` for a card."""
    if any(mark in code for mark in ",;"):
        return w.text("%(code)s is not a card: write the cards with spaces between them, "
                      "such as %(example)s.", code=code, example="QH KH AH")
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


def one_card(field: str, w: Words) -> str:
    """A field of one card (``field``: its label) given several."""
    return w.text("%(field)s: enter one card only.", field=field)


def missing_cards(w: Words) -> str:
    """A field of the form without cards."""
    return w.text("Enter the cards of every field to check them.")


def refused(problem: str, w: Words) -> str:
    """Inputs the kind refuses for a reason without a code; ``problem``: the loader's
    words (English, as ``explain`` says them)."""
    return w.text("These cards cannot be checked: %(problem)s", problem=problem)


def _too_many_copies(w: Words, p: Mapping[str, str]) -> str:
    card, game = parse_card(p["card"]).label, w.code("game", p["game"])
    if p["most"] == "1":
        return w.text("%(card)s is used %(count)s times, but %(game)s is played with one "
                      "deck, which holds each card once.", card=card, count=p["count"],
                      game=game)
    return w.plural("%(card)s is used %(count)s times, but %(game)s is played with at most "
                    "%(num)s deck, which holds each card at most %(num)s time.",
                    "%(card)s is used %(count)s times, but %(game)s is played with at most "
                    "%(num)s decks, which hold each card at most %(num)s times.",
                    int(p["most"]), card=card, count=p["count"], game=game)


def _no_jokers(w: Words, p: Mapping[str, str]) -> str:
    return w.text("%(game)s is played without jokers.", game=w.code("game", p["game"]))


def _too_many_jokers(w: Words, p: Mapping[str, str]) -> str:
    return w.plural("%(game)s is played with at most %(num)s joker (here: %(count)s).",
                    "%(game)s is played with at most %(num)s jokers (here: %(count)s).",
                    int(p["most"]), count=p["count"], game=w.code("game", p["game"]))


def _not_a_hand_size(w: Words, p: Mapping[str, str]) -> str:
    return w.text("A best opening is sought in a hand as dealt or after drawing: "
                  "%(dealt)s or %(drawn)s cards (here: %(count)s).", dealt=p["dealt"],
                  drawn=p["drawn"], count=p["count"])


def _table_meld_invalid(w: Words, p: Mapping[str, str]) -> str:
    cards = " ".join(card.label for card in parse_cards(p["cards"]))
    return w.text("The meld on the table (%(cards)s) is not valid. %(reason)s", cards=cards,
                  reason=w.code("reason", p["reason"]))


def _joker_for_joker(w: Words, p: Mapping[str, str]) -> str:
    return w.text("The card put in the joker's place has to be a natural card, not a "
                  "joker.")


REFUSALS: dict[str, Callable[[Words, Mapping[str, str]], str]] = {
    InputReason.TOO_MANY_COPIES: _too_many_copies,
    InputReason.NO_JOKERS: _no_jokers,
    InputReason.TOO_MANY_JOKERS: _too_many_jokers,
    InputReason.NOT_A_HAND_SIZE: _not_a_hand_size,
    InputReason.TABLE_MELD_INVALID: _table_meld_invalid,
    InputReason.JOKER_FOR_JOKER: _joker_for_joker,
}
"""The reader's words of each :class:`~generator.engine.codes.InputReason`, from the
error's ``params``."""


def refusals(errors: Sequence[InputError], w: Words) -> str:
    """Why the kind refuses the reader's inputs, in ``w``'s locale: the sentence of the
    first error of each code, in the order found (a second card used too often is said
    once the first is mended); ``""`` when one of ``errors`` has no code (then only
    :func:`refused` with the loader's English words can say it)."""
    if not errors or any(e.code not in REFUSALS for e in errors):
        return ""
    first = {e.code: e for e in reversed(errors)}
    return " ".join(REFUSALS[e.code](w, dict(e.params)) for e in errors
                    if first[e.code] is e)


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
