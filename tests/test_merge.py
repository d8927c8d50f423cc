"""``i18n update`` merges a catalog with its new template as GNU ``msgmerge --previous``
does: each scenario below is merged by both (Debian's ``gettext``), and the two results
are the same message for message: translation, fuzzy flag, previous msgid, and which
messages are obsolete."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from generator.commands.i18n import catalog_bytes
from generator.i18n.merge import merge
from generator.i18n.merge import read_previous
from tests.conftest import run_cli

HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: cs\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);\\n"

'''

SCENARIOS = {
    # "Jokers in melds" edited, then set back: the translation returns
    "edited-then-reverted": (
        '#~ msgid "Jokers in melds"\n#~ msgstr "Žolíci v kombinacích"\n\n'
        'msgid "Jokers inside melds"\nmsgstr ""\n',
        'msgid "Jokers in melds"\nmsgstr ""\n'),
    "punctuation-changed": (
        'msgid "The joker is allowed in the second run."\n'
        'msgstr "Žolík je povolen ve druhé postupce."\n',
        'msgid "The joker is allowed in the second run"\nmsgstr ""\n'),
    "reworded-beyond-recognition": (
        'msgid "Three kings"\nmsgstr "Tři králové"\n',
        'msgid "A completely different sentence about aces"\nmsgstr ""\n'),
    "removed": (
        'msgid "Gone"\nmsgstr "Pryč"\n\nmsgid "Stays"\nmsgstr "Zůstává"\n',
        'msgid "Stays"\nmsgstr ""\n'),
    "obsolete-as-a-near-source": (
        '#~ msgid "Three kings of three suits"\n#~ msgstr "Tři králové tří barev"\n',
        'msgid "Three kings of four suits"\nmsgstr ""\n'),
    "one-source-two-guesses": (
        'msgid "Alpha beta gamma"\nmsgstr "Alfa beta gama"\n',
        'msgid "Alpha beta delta"\nmsgstr ""\n\n'
        'msgid "Alpha beta gamma epsilon"\nmsgstr ""\n'),
    "untranslated-is-no-source": (
        'msgid "Queen, king and ace"\nmsgstr ""\n',
        'msgid "Queen, king and ace of hearts"\nmsgstr ""\n'),
    "plural-edited": (
        'msgid "Each player gets {n} cards."\nmsgid_plural "Each player gets {n} cards."\n'
        'msgstr[0] "Každý dostane {n} kartu."\nmsgstr[1] "Každý dostane {n} karty."\n'
        'msgstr[2] "Každý dostane {n} karet."\n',
        'msgid "Each player is dealt {n} cards."\n'
        'msgid_plural "Each player is dealt {n} cards."\n'
        'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n'),
    "another-context": (
        'msgctxt "card"\nmsgid "queen of hearts"\nmsgstr "srdcová dáma"\n',
        'msgctxt "card, object of a verb"\nmsgid "queen of hearts"\nmsgstr ""\n\n'
        'msgctxt "card"\nmsgid "queen of hearts"\nmsgstr ""\n'),
    "singular-source-for-a-plural": (
        'msgid "%(num)s input errors here"\nmsgstr "%(num)s chyb zde"\n',
        'msgid "%(num)s input error"\nmsgid_plural "%(num)s input errors"\n'
        'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n'),
    "plural-source-for-a-singular": (
        'msgid "One card per player"\nmsgid_plural "Cards per player"\n'
        'msgstr[0] "Jedna karta"\nmsgstr[1] "Karty"\nmsgstr[2] "Karet"\n',
        'msgid "One card per player!"\nmsgstr ""\n'),
    "a-guess-beside-a-message-of-its-context": (
        'msgctxt "game"\nmsgid "Rami 40"\nmsgstr "Rami 40"\n',
        'msgctxt "game"\nmsgid "Rami 40"\nmsgstr ""\n\n'
        'msgctxt "game"\nmsgid "Rami 60"\nmsgstr ""\n'),
    "fuzzy-stays-fuzzy": (
        '#, fuzzy\nmsgid "Melds"\nmsgstr "Kombinace"\n',
        'msgid "Melds"\nmsgstr ""\n'),
}


def _state(data: bytes) -> tuple[dict[object, tuple[object, bool, object]],
                                   dict[object, object]]:
    """A catalog's messages as (translation, fuzzy, previous msgid) by key, and its
    obsolete messages' translations by key."""
    catalog = read_previous(read_po(io.BytesIO(data), locale="cs"))

    def key(m: object) -> object:
        msgid = m.id[0] if isinstance(m.id, (list, tuple)) else m.id  # type: ignore[attr-defined]
        return (m.context, msgid)  # type: ignore[attr-defined]

    current = {key(m): (m.string, m.fuzzy, tuple(m.previous_id) or None)
               for m in catalog if m.id}
    gone = {key(m): m.string for m in catalog.obsolete.values()}
    return current, gone


def _ours(old: str, pot: str) -> bytes:
    catalog = read_po(io.BytesIO((HEADER + old).encode()), locale="cs")
    template = read_po(io.BytesIO((HEADER + pot).encode()))
    return catalog_bytes(merge(catalog, template))


MSGMERGE = shutil.which("msgmerge")


@pytest.mark.skipif(MSGMERGE is None and os.environ.get("RULES_MSGFMT_REQUIRED") != "1",
                    reason="msgmerge (Debian's gettext) is not installed")
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_merge_is_msgmerges(tmp_path: Path, name: str) -> None:
    assert MSGMERGE is not None, "msgmerge is required here (RULES_MSGFMT_REQUIRED=1)"
    old, pot = SCENARIOS[name]
    (tmp_path / "old.po").write_text(HEADER + old, encoding="utf-8")
    (tmp_path / "new.pot").write_text(HEADER + pot, encoding="utf-8")
    subprocess.run([MSGMERGE, "--previous", "-q", "-o", str(tmp_path / "gnu.po"),
                    str(tmp_path / "old.po"), str(tmp_path / "new.pot")],
                   check=True, timeout=60)
    assert _state(_ours(old, pot)) == _state((tmp_path / "gnu.po").read_bytes())


def test_the_reviews_revert_revives_the_translation() -> None:
    current, gone = _state(_ours(*SCENARIOS["edited-then-reverted"]))
    assert current == {(None, "Jokers in melds"): ("Žolíci v kombinacích", False, None)}
    assert gone == {}


def test_a_near_match_is_fuzzy_with_its_old_msgid() -> None:
    data = _ours(*SCENARIOS["punctuation-changed"]).decode("utf-8")
    assert ('#, fuzzy\n#| msgid "The joker is allowed in the second run."\n'
            'msgid "The joker is allowed in the second run"\n'
            'msgstr "Žolík je povolen ve druhé postupce."') in data


def test_a_guess_across_singular_and_plural_takes_the_forms_msgmerge_does() -> None:
    """A new plural message whose closest old one is singular gets the singular
    translation in each of its forms; a singular message whose closest old one is plural
    gets its first form (Babel refuses a plural message with one string)."""
    data = _ours(*SCENARIOS["singular-source-for-a-plural"]).decode("utf-8")
    assert ('#, fuzzy, python-format\n#| msgid "%(num)s input errors here"\n'
            'msgid "%(num)s input error"\nmsgid_plural "%(num)s input errors"\n'
            'msgstr[0] "%(num)s chyb zde"\nmsgstr[1] "%(num)s chyb zde"\n'
            'msgstr[2] "%(num)s chyb zde"\n') in data
    data = _ours(*SCENARIOS["plural-source-for-a-singular"]).decode("utf-8")
    assert ('#, fuzzy\n#| msgid "One card per player"\n#| msgid_plural "Cards per player"\n'
            'msgid "One card per player!"\nmsgstr "Jedna karta"\n') in data


def test_i18n_update_keeps_a_reverted_translation(init_project: Path) -> None:
    """An author's steps on a site: an English title edited and updated (the new title
    gets no guess: too far from the old one), then set back and updated again: the Czech
    title is the same as before, not empty. A near edit of a sentence is a fuzzy guess,
    and once set back its translation again, not fuzzy (its ``#| msgid`` is the English
    it was made for). ("Melds" is a built-in message too: the site's translation of it stays
    meanwhile, as a site's translation of a built-in message does.)"""
    page = init_project / "content" / "melds.md"
    po = init_project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"

    def catalog() -> Catalog:
        with po.open("rb") as fh:
            return read_po(fh, locale="cs")

    before = catalog().get("Melds")
    assert before is not None and before.string == "Kombinace"
    text = page.read_text("utf-8")
    page.write_text(text.replace("# Melds", "# Melds of cards").replace(
        "at least three cards.", "at least three cards!"), "utf-8")
    assert run_cli("i18n", "update", "--project", str(init_project)).returncode == 0
    edited = catalog()
    title = edited.get("Melds of cards")
    assert title is not None and not title.string and not title.fuzzy
    kept = edited.get("Melds")
    assert kept is not None and kept.string == "Kombinace"
    guess = next(m for m in edited if m.id and "at least three cards!" in str(m.id))
    assert guess.fuzzy and guess.string.startswith("Kombinace je postupka")
    old = next(line for line in po.read_text("utf-8").splitlines()
               if line.startswith("#| msgid "))
    assert old.startswith('#| msgid "A meld is') and old.endswith('three cards. A run is '
                                                                 'three or more cards of '
                                                                 'one suit in sequence; '
                                                                 'a set is three or four '
                                                                 'cards of one rank in '
                                                                 'different suits."')
    page.write_text(text, "utf-8")
    assert run_cli("i18n", "update", "--project", str(init_project)).returncode == 0
    after = catalog()
    reverted = after.get("Melds")
    assert reverted is not None and not reverted.fuzzy and reverted.string == "Kombinace"
    assert "Melds" not in after.obsolete and "Melds of cards" not in after.obsolete
    sentence = next(m for m in after if m.id and str(m.id).startswith("A meld is")
                    and "at least three cards." in str(m.id))
    assert (sentence.string, sentence.fuzzy, sentence.previous_id) == (
        guess.string, False, [])  # the near edit set back: its translation, confirmed


def test_previous_msgids_survive_another_update(init_project: Path) -> None:
    """A fuzzy guess's ``#| msgid`` (multi-line when its msgid holds a line break) is
    read back into the message and written again the same way gettext writes it, until
    a translator confirms the guess."""
    po = init_project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    page = init_project / "content" / "melds.md"
    page.write_text(page.read_text("utf-8").replace("at least three cards.",
                                                    "at least three cards!"), "utf-8")
    assert run_cli("i18n", "update", "--project", str(init_project)).returncode == 0
    first = po.read_text("utf-8")
    assert first.count("\n#| msgid ") == 1
    assert run_cli("i18n", "update", "--project", str(init_project)).returncode == 0
    assert po.read_text("utf-8") == first
    po.write_text(first.replace("#, fuzzy\n#| msgid", "#| msgid"), "utf-8")  # confirmed
    assert run_cli("i18n", "update", "--project", str(init_project)).returncode == 0
    assert "#| msgid" not in po.read_text("utf-8")
