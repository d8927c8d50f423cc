"""Catalogs: plural forms, fallback to English, placeholder checks, extraction."""

from __future__ import annotations

import configparser
import os
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from jinja2 import Environment
from markupsafe import escape

from generator.cli import main
from generator.commands.i18n import catalog_bytes
from generator.commands.i18n import extract_builtin
from generator.i18n.catalog import load_translator
from generator.i18n.plurals import plural_rule
from generator.i18n.templates import TEMPLATE_OPTIONS
from generator.layout import BUILTIN_POT
from generator.layout import TEMPLATE_SUFFIXES
from generator.render.environment import install_gettext
from tests.conftest import REPO
from tests.conftest import run_cli


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("sk", {1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 13: 2, 21: 2, 22: 2, 0: 2}),
        ("cs", {1: 0, 3: 1, 5: 2, 22: 2}),
        ("et", {1: 0, 2: 1, 5: 1}),
    ],
)
def test_gettext_plural_index(locale: str, expected: dict[int, int]) -> None:
    rule = plural_rule(locale)
    assert {n: rule(n) for n in expected} == expected


PAGE = """---
order: 1
summary: A tiny page.
---

# Tiny

Each player is dealt {rami.hand_size} cards.

Plain paragraph.

```cases
tiny-run
```
"""

CASES = """cases:
  - id: tiny-run
    kind: meld
    game: rami51
    cards: QH KH AH
    title: Queen, king and ace
    expect:
      verdict: valid
      points: 31
"""

PO_HEADER = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"

"""


def _tiny(tmp_path: Path, po_body: str) -> Path:
    project = tmp_path / "tiny"
    (project / "content" / "examples").mkdir(parents=True)
    (project / "content" / "tiny.md").write_text(PAGE, encoding="utf-8")
    (project / "content" / "examples" / "tiny.yaml").write_text(CASES, encoding="utf-8")
    po = project / "locales" / "sk" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO_HEADER + po_body, encoding="utf-8")
    return project


PLURAL_OK = """msgid "Each player is dealt {rami.hand_size} cards."
msgid_plural "Each player is dealt {rami.hand_size} cards."
msgstr[0] "Každý hráč dostane {rami.hand_size} kartu."
msgstr[1] "Každý hráč dostane {rami.hand_size} karty."
msgstr[2] "Každý hráč dostane {rami.hand_size} kariet."

msgctxt "card"
msgid "queen of hearts"
msgstr "srdcová kráľovná"
"""


def test_plural_form_and_fallback_marker(tmp_path: Path) -> None:
    project = _tiny(tmp_path, PLURAL_OK)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    html = (project / "site" / "sk" / "tiny" / "index.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    assert "Každý hráč dostane 13\xa0kariet." in soup.get_text()
    # Not translated: shown in English, marked, lang="en".
    marked = [el for el in soup.select(".untranslated") if "Plain paragraph." in el.get_text()]
    assert marked and marked[0]["lang"] == "en"
    names = [c["aria-label"] for c in soup.select("#tiny-run .card")]
    assert names[0] == "srdcová kráľovná"  # the site's catalog overrides the built-in one
    assert names[1] == "srdcový kráľ"  # the built-in catalog
    assert "sk:" in result.stderr and "shown in English" in result.stderr


def test_strict_fails_on_untranslated(tmp_path: Path) -> None:
    project = _tiny(tmp_path, PLURAL_OK)
    result = run_cli("build", "--project", str(project), "--strict")
    assert result.returncode == 1
    assert not (project / "site").exists()


def test_fuzzy_falls_back(tmp_path: Path) -> None:
    body = '#, fuzzy\nmsgid "Plain paragraph."\nmsgstr "Obyčajný odsek."\n'
    project = _tiny(tmp_path, body)
    translator, errors = load_translator(
        project / "locales/sk/LC_MESSAGES/messages.po", "x.po", "sk")
    assert errors == []
    assert translator.gettext("Plain paragraph.") == ("Plain paragraph.", False)


CS_RULE = "(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2)"
PL_RULE = "(n == 1 ? 0 : n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14) ? 1 : 2)"


@pytest.mark.parametrize(("locale", "plural", "error"), [
    ("sk", "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", None),  # written otherwise, the same rule
    ("pl", PL_RULE.replace(" ", ""), None),
    ("sk", "(n != 1)", "which gives msgstr[1] for 0 where the locale uses msgstr[2]"),
    ("sk", "(n == 1 ? 0 : 2)", "which gives msgstr[2] for 2 where the locale uses msgstr[1]"),
    ("pl", CS_RULE, "which gives msgstr[2] for 22 where the locale uses msgstr[1]"),
    ("cs", PL_RULE, "which gives msgstr[1] for 22 where the locale uses msgstr[2]"),
    ("sk", "n*", "which gettext cannot read"),
    ("sk", "n/0", "which gettext cannot work out for 0"),
], ids=["sk-spelled-otherwise", "pl-spelled-otherwise", "two-forms", "form-1-unused",
        "cs-rule-for-pl", "pl-rule-for-cs", "unreadable", "division-by-zero"])
def test_a_catalogs_plural_rule_must_pick_the_locales_forms(
        tmp_path: Path, locale: str, plural: str, error: str | None) -> None:
    """A ``Plural-Forms`` header with the right number of forms but another rule (its
    ``plural=`` is read too): translators' tools number the forms by it, so a
    ``msgstr[1]`` written for the wrong counts would be shown for 2-4 (or 22-24 in
    Polish). The header's rule is compared with the locale's (Babel's, from CLDR) over
    counts 0-999; written otherwise but picking the same forms, it passes."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER.replace(CS_RULE, plural), encoding="utf-8")
    _translator, errors = load_translator(po, "x.po", locale)
    rule = plural_rule(locale)
    expected = [] if error is None else [  # at the Plural-Forms field's line
        f"x.po:4: Plural-Forms says plural={plural}, {error}; expected nplurals=3; "
        f"plural={rule.expression} for {locale} (gettext, from CLDR via Babel)"]
    assert [e.format() for e in errors] == expected


@pytest.mark.parametrize(("forms", "errors"), [
    ('"X-Note: plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2)\\n"\n'
     '"Plural-Forms: nplurals=3; plural=(n != 1);\\n"',
     ["x.po:4: 'plural=' outside the header's Plural-Forms field, where gettext's tools "
      "read it (the first 'plural=' of the header wherever it is); expected it only in "
      "Plural-Forms",
      "x.po:5: Plural-Forms says plural=(n != 1), which gives msgstr[1] for 0 where the "
      "locale uses msgstr[2]; {expected}"]),
    ('"Plural-Forms: nplurals=3;\\n"',
     ["x.po:4: the header's Plural-Forms has no rule (plural=); {expected}"]),
    ('"Plural-Forms: nplurals=3; plural=;\\n"',
     ["x.po:4: the header's Plural-Forms has no rule (plural=); {expected}"]),
    ('"Plural-Forms: nplurals=3; plural=(n == 1 || n == 1000 ? 0 : n >= 2 && n <= 4 ? 1 '
     ': 2);\\n"',
     ["x.po:4: Plural-Forms says plural=(n == 1 || n == 1000 ? 0 : n >= 2 && n <= 4 ? 1 : "
      "2), which gives msgstr[0] for 1000 where the locale uses msgstr[2]; {expected}"]),
], ids=["another-field-says-plural", "no-rule", "empty-rule", "odd-at-1000"])
def test_the_plural_rule_is_read_from_the_plural_forms_line(
        tmp_path: Path, forms: str, errors: list[str]) -> None:
    """The rule is the ``Plural-Forms`` field's (a ``plural=`` elsewhere, which gettext's
    tools would read first, is an error of its own), a header with no rule is an error,
    and the rule is compared with the locale's beyond 0-999."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER.replace(
        '"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"',
        forms), encoding="utf-8")
    _translator, found = load_translator(po, "x.po", "sk")
    expected = (f"expected nplurals=3; plural={plural_rule('sk').expression} for sk "
                "(gettext, from CLDR via Babel)")
    assert [e.format() for e in found] == [e.format(expected=expected) for e in errors]


@pytest.mark.parametrize(("msgstr", "said"), [
    ("Aspoň {rami51.threshold} bodů { rami51.threshold }.",
     "'{ rami51.threshold }' is not a placeholder (a name in braces, no spaces, conversion, "
     "format or index); expected {rami51.threshold}"),
    ("Aspoň {rami51.threshold:,} bodů {rami51.threshold}.",
     "'{rami51.threshold:,}' is not a placeholder (a name in braces, no spaces, conversion, "
     "format or index); expected {rami51.threshold}"),
    ("Aspoň {rami51.threshold} bodů }.", "a lone '}'; expected a placeholder"),
], ids=["spaces", "format", "lone-brace"])
def test_a_malformed_placeholder_in_a_translation_is_an_input_error(
        tmp_path: Path, msgstr: str, said: str) -> None:
    """A page's translation holds a placeholder the pages would not fill beside the
    source's: an input error at the msgstr (the pages would show it as written)."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER + 'msgid "At least {rami51.threshold} points."\n'
                  f'msgstr "{msgstr}"\n', encoding="utf-8")
    _translator, errors = load_translator(po, "x.po", "cs")
    assert [e.format() for e in errors] == [
        f"x.po:7: in the translation: {said}, or {{{{ and }}}} for a brace shown as it is"
        if "lone" not in said else
        f"x.po:7: in the translation: {said} such as {{rami51.threshold}}, or {{{{ and }}}} "
        "for a brace shown as it is"]


@pytest.mark.parametrize(("msgstr", "held"), [
    ("\u200b", "only U+200B"), ("\u2060\u200b \u200d", "only U+200B, U+200D, U+2060"),
    ("   ", "only white space"), ("\u3164", "only U+3164"),
])
def test_a_translation_that_shows_nothing_is_an_input_error(
        tmp_path: Path, msgstr: str, held: str) -> None:
    """A translation of invisible characters or white space would make a title, a link
    or a heading blank in its language: an input error at the msgstr."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER + f'msgid "Melds"\nmsgstr "{msgstr}"\n', encoding="utf-8")
    _translator, errors = load_translator(po, "x.po", "cs")
    assert [e.format() for e in errors] == [
        f"x.po:7: the translation shows nothing ({held}); expected the text in the "
        "catalog's language, or an empty msgstr (the English is shown)"]


def test_placeholder_mismatch_is_an_input_error(tmp_path: Path) -> None:
    body = PLURAL_OK.replace("{rami.hand_size} kariet", "{rami.handsize} kariet")
    project = _tiny(tmp_path, body)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 2
    line = (PO_HEADER + body).splitlines().index(
        'msgstr[2] "Každý hráč dostane {rami.handsize} kariet."') + 1
    assert result.stdout.startswith(f"locales/sk/LC_MESSAGES/messages.po:{line}: ")
    assert "placeholders ({rami.handsize}) differ from the source's; expected " \
        "{rami.hand_size}" in result.stdout


def test_conversion_of_a_placeholder_must_match(tmp_path: Path) -> None:
    body = 'msgid "%(num)s card"\nmsgid_plural "%(num)s cards"\nmsgstr[0] "%(num)d karta"\n' \
        'msgstr[1] "%(num)s karty"\nmsgstr[2] "%(num)s kariet"\n'
    project = _tiny(tmp_path, body)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 2
    assert "locales/sk/LC_MESSAGES/messages.po:8: translation's placeholders (%(num)d)" \
        in result.stdout


PEARS = 'msgid "One pear"\nmsgid_plural "%(num)s pears"\n'
"""A plural message whose English singular holds no placeholder and whose plural does."""
WHO = 'msgid "%(who)s has one pear"\nmsgid_plural "%(who)s has %(num)s pears"\n'
"""A plural message whose English forms both hold ``%(who)s``."""


def _forms(one: str, few: str, many: str) -> str:
    """A Czech translation's three forms (for 1; 2-4; 0, 5 and more)."""
    return f'msgstr[0] "{one}"\nmsgstr[1] "{few}"\nmsgstr[2] "{many}"\n'


@pytest.mark.parametrize(("body", "said"), [
    (PEARS + _forms("Jedna hruška", "%(num)s hrušky", "%(num)s hrušek"), []),
    (PEARS + _forms("%(num)s hruška", "%(num)s hrušky", "%(num)s hrušek"), []),
    (WHO + _forms("%(who)s má jednu hrušku", "%(who)s má %(num)s hrušky",
                  "%(who)s má %(num)s hrušek"), []),
    (WHO + _forms("Má jednu hrušku", "%(who)s má %(num)s hrušky",
                  "%(who)s má %(num)s hrušek"), []),
    (PEARS + _forms("Jedna hruška", "%(num)s hrušky", "Hrušky"),
     ["x.po:10: translation's placeholders (none) differ from the source's; expected "
      "%(num)s"]),
    (PEARS + _forms("Jedna hruška", "%(num)s hrušky", "%%(num)s hrušek"),
     ["x.po:10: translation's placeholders (none) differ from the source's; expected "
      "%(num)s"]),
    (PEARS + _forms("Jedna hruška", "%(count)s hrušky", "%(num)s hrušek"),
     ["x.po:9: translation's placeholders (%(count)s) differ from the source's; expected "
      "%(num)s"]),
    (PEARS + _forms("Jedna hruška", "%(num)d hrušky", "%(num)s hrušek"),
     ["x.po:9: translation's placeholders (%(num)d) differ from the source's; expected "
      "%(num)s"]),
    (WHO + _forms("%(who)s má jednu hrušku", "Má %(num)s hrušky",
                  "%(who)s má %(num)s hrušek"),
     ["x.po:9: translation's placeholders (%(num)s) differ from the source's; expected "
      "%(num)s, %(who)s"]),
    ('msgid "%(num)d plum"\nmsgid_plural "%(num)s plums"\n'
     + _forms("švestka", "švestky", "%(num)d švestek"),
     ["x.po:9: translation's placeholders (none) differ from the source's; expected "
      "%(num)s, and any of %(num)d (of either English form)",
      "x.po:10: translation's placeholders (%(num)d) differ from the source's; expected "
      "%(num)s, and any of %(num)d (of either English form)"]),
    (PEARS + _forms("Jedna hruška ze 100%", "%(num)s hrušky", "%(num)s hrušek"),
     ["x.po:8: a lone '%' in a message that is %-formatted (template or code text); "
      "expected %% for a percent sign"]),
], ids=["singular-without-number", "every-form-with-number", "both-placeholders-everywhere",
        "the-form-for-one-leaves-out-a-placeholder", "number-left-out-of-a-form-for-many",
        "an-escaped-percent-is-no-placeholder", "another-name", "another-conversion",
        "a-placeholder-of-both-forms-left-out-of-a-form-for-many",
        "english-forms-of-two-conversions", "a-lone-percent-in-the-singular"])
def test_a_plural_forms_placeholders_are_those_of_either_english_form(
        tmp_path: Path, body: str, said: list[str]) -> None:
    """Each form of a plural translation may hold the placeholders of either English
    form (gettext fills every form from the same values) and no other. A form the
    locale uses for many counts (cs: 2-4; 0, 5 and more) must hold the English
    plural's, the number among them; the form for one count alone may leave any out
    ("Jedna hruška"), as GNU ``msgfmt -c`` allows. ``%%(num)s`` is a percent sign and
    text, no placeholder."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER + body, encoding="utf-8")
    translator, errors = load_translator(po, "x.po", "cs")
    assert [e.format() for e in errors] == said
    if not said:
        singular, plural = re.findall(r'msgid(?:_plural)? "(.*)"', body)
        forms = [translator.ngettext(singular, plural, n)[0] % {"num": n, "who": "Eva"}
                 for n in (1, 3, 5)]
        assert [form.removeprefix("Eva má ").removeprefix("Má ") for form in forms] in (
            [f"{one} hruška" if one else "jednu hrušku", "3 hrušky", "5 hrušek"]
            for one in ("Jedna", "1", ""))


DEALT = ("Each player is dealt {cardverse.hand_size_two} cards, at most {run.max_cards} "
         "in a run.")
"""A page's plural message, counted by its first placeholder, with a second rule number."""


@pytest.mark.parametrize(("one", "said"), [
    ("Každý hráč dostane jednu kartu, nejvýše {run.max_cards} v postupce.", []),
    ("Každý hráč dostane {cardverse.hand_size_two} kartu, nejvýše {run.max_cards} v "
     "postupce.", []),
    ("Každý hráč dostane jednu kartu, nejvýše třináct v postupce.",
     ["x.po:9: translation's placeholders (none) differ from the source's; expected "
      "{run.max_cards}, and any of {cardverse.hand_size_two} (of either English form)"]),
], ids=["the-count-left-out", "the-count-kept", "a-rule-number-typed"])
def test_a_pages_form_for_one_count_may_leave_out_only_its_count(
        tmp_path: Path, one: str, said: list[str]) -> None:
    """In a page's text, a plural message is counted by its first placeholder: the form
    for one count alone may leave that one out ("jednu kartu"), but not another rule
    number, which a translation never types ("třináct" for ``{run.max_cards}``)."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER + f'#, python-brace-format\nmsgid "{DEALT}"\n'
                  f'msgid_plural "{DEALT}"\n'
                  + _forms(one, "Každý hráč dostane {cardverse.hand_size_two} karty, nejvýše "
                           "{run.max_cards} v postupce.",
                           "Každý hráč dostane {cardverse.hand_size_two} karet, nejvýše "
                           "{run.max_cards} v postupce."), encoding="utf-8")
    _translator, errors = load_translator(po, "x.po", "cs")
    assert [e.format() for e in errors] == said


NUM_PEARS = 'msgid "%(num)s pear"\nmsgid_plural "%(num)s pears"\n'
"""A plural message whose English forms both hold ``%(num)s``."""


@pytest.mark.parametrize(("body", "said"), [
    (NUM_PEARS + _forms("%(num)%%s hruška", "%(num)s hrušky", "%(num)s hrušek"),
     "x.po:8: a lone '%' in a message that is %-formatted (template or code text); "
     "expected %% for a percent sign"),
    (NUM_PEARS + _forms("%(num)s hrušky", "%(num)%%#s hrušky", "%(num)s hrušek"),
     "x.po:9: a lone '%' in a message that is %-formatted (template or code text); "
     "expected %% for a percent sign"),
    (NUM_PEARS + _forms("%(nu%%m)s hruška", "%(num)s hrušky", "%(num)s hrušek"),
     "x.po:8: translation's placeholders (%(nu%%m)s) differ from the source's; expected "
     "none, and any of %(num)s (of either English form)"),
    (NUM_PEARS + _forms("%(num)s hruška", "%(num)s hrušky", "%(num)s()%(r%%)s hrušek"),
     "x.po:10: translation's placeholders (%(num)s, %(r%%)s) differ from the source's; "
     "expected %(num)s"),
    ('msgid "Back to top"\nmsgstr "Zpět %(x%%y)s nahoru"\n',
     "x.po:7: translation's placeholders (%(x%%y)s) differ from the source's; expected "
     "none"),
], ids=["a-key-then-a-percent", "a-key-then-a-percent-and-a-flag", "a-percent-in-a-key",
        "a-second-key-holding-a-percent", "a-percent-in-a-key-of-a-plain-message"])
def test_a_percent_sign_is_read_as_formatting_reads_it(
        tmp_path: Path, body: str, said: str) -> None:
    """The check reads a translation's ``%`` signs left to right as Python's
    %-formatting does (``%%``, or a whole ``%(key)s``, else a lone ``%``): a ``%%``
    inside a key or after one no longer hides a directive that formatting refuses,
    which the build then failed on at the template's line."""
    po = tmp_path / "messages.po"
    po.write_text(PO_HEADER + body, encoding="utf-8")
    _translator, errors = load_translator(po, "x.po", "cs")
    assert [e.format() for e in errors] == [said]
    with pytest.raises((ValueError, KeyError)):  # what rendering the forms would meet
        for text in re.findall(r'msgstr(?:\[\d\])? "(.*)"', body):
            _ = text % {"num": 5}


def test_translation_must_keep_link_targets(tmp_path: Path) -> None:
    page = PAGE.replace("Plain paragraph.", "See [the rules](#tiny-run).")
    body = 'msgid "See [the rules](#tiny-run)."\nmsgstr "Pozri [pravidlá](#inde)."\n'
    project = _tiny(tmp_path, body)
    (project / "content" / "tiny.md").write_text(page, encoding="utf-8")
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 2
    assert "translation's link targets (#inde) differ from the source's; expected " \
        "#tiny-run" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_wrong_number_of_plural_forms(tmp_path: Path) -> None:
    body = PLURAL_OK.replace('msgstr[2] "Každý hráč dostane {rami.hand_size} kariet."\n', "")
    project = _tiny(tmp_path, body)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 2
    assert "2 plural forms; expected 3 for sk" in result.stdout


def test_bad_po_syntax(tmp_path: Path) -> None:
    project = _tiny(tmp_path, 'msgid "Plain paragraph."\nmsgstr "unterminated\n')
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.startswith("locales/sk/LC_MESSAGES/messages.po:")
    assert "Traceback" not in result.stdout + result.stderr


def test_extract_collects_every_kind_of_message(tmp_path: Path) -> None:
    project = _tiny(tmp_path, PLURAL_OK)
    result = run_cli("i18n", "update", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    with (project / "locales" / "messages.pot").open("rb") as fh:
        pot = read_po(fh)
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in pot if m.id}
    assert ids == {(None, "Tiny"), (None, "A tiny page."),  # page title, summary
                   (None, "Each player is dealt {rami.hand_size} cards."),
                   (None, "Plain paragraph."),  # page blocks
                   (None, "Queen, king and ace")}  # case title
    # the theme's and the engine's messages are the built-in catalogs'
    builtin, errors = extract_builtin()
    assert errors == []
    shipped = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in builtin
               if m.id}
    assert ("card", "queen of hearts") in shipped  # card name
    assert ("reason", "The ace cannot be after the king and before the two at "
            "once.") in shipped
    assert (None, "Rule chosen by the app") in shipped  # renderer label
    assert (None, "Rummy rules") in shipped  # the default title
    assert (None, "Skip to content") in shipped  # template
    assert not ids & shipped
    plural = pot.get(("Each player is dealt {rami.hand_size} cards.",
                      "Each player is dealt {rami.hand_size} cards."))
    assert plural is not None
    # update kept the translations (the site's override of a built-in card name too)
    # and added the new messages, empty.
    with (project / "locales/sk/LC_MESSAGES/messages.po").open("rb") as fh:
        po = read_po(fh, locale="sk")
    msg = po.get("Each player is dealt {rami.hand_size} cards.")
    assert msg is not None and msg.string[2] == "Každý hráč dostane {rami.hand_size} kariet."
    assert po.get("Plain paragraph.") is not None
    override = po.get("queen of hearts", "card")
    assert override is not None and override.string == "srdcová kráľovná"
    assert "queen of hearts" not in str(list(po.obsolete))


def test_a_changed_message_arrives_as_a_fuzzy_guess_shown_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As msgmerge does (README, "Update a language"): "Plain paragraphs." gets the
    translation of "Plain paragraph." marked fuzzy, the old msgid kept as ``#| msgid``;
    a fuzzy translation is not shown: the page shows the English, marked, until a
    translator confirms it, and --strict fails on it. A new message arrives empty."""
    body = 'msgid "Plain paragraph."\nmsgstr "Obyčajný odsek."\n'
    project = _tiny(tmp_path, body)
    page = project / "content" / "tiny.md"
    page.write_text(page.read_text("utf-8").replace("Plain paragraph.", "Plain paragraphs."),
                    encoding="utf-8")
    assert main(["i18n", "update", "--project", str(project)]) == 0
    assert "locales/sk/LC_MESSAGES/messages.po: updated, 1 fuzzy" in capsys.readouterr().err
    po_file = project / "locales/sk/LC_MESSAGES/messages.po"
    text = po_file.read_text("utf-8")
    assert ('#, fuzzy\n#| msgid "Plain paragraph."\nmsgid "Plain paragraphs."\n'
            'msgstr "Obyčajný odsek."\n') in text
    with po_file.open("rb") as fh:
        po = read_po(fh, locale="sk")
    assert [m.id for m in po if m.fuzzy and m.id] == ["Plain paragraphs."]
    new = po.get("Tiny")
    assert new is not None and new.string == "" and not new.fuzzy
    # the guess took the old translation's place: no obsolete copy of it is left
    assert "Plain paragraph." not in po.obsolete
    assert main(["build", "--project", str(project)]) == 0
    soup = BeautifulSoup((project / "site/sk/tiny/index.html").read_text("utf-8"),
                         "html.parser")
    marked = [el.get_text() for el in soup.select(".untranslated")]
    assert "Plain paragraphs." in marked
    assert main(["build", "--project", str(project), "--strict"]) == 1


def test_stats_count_per_locale_and_page(tmp_path: Path) -> None:
    body = PLURAL_OK + '\n#, fuzzy\nmsgid "Plain paragraph."\nmsgstr "Obyčajný odsek."\n'
    project = _tiny(tmp_path, body)
    result = run_cli("i18n", "stats", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in result.stdout.splitlines()[1:]}
    # The page "tiny": title, summary, two paragraphs (one plural, translated; one fuzzy).
    assert rows[("sk", "tiny")] == ["1", "1", "2"]
    assert rows[("sk", "case")] == ["files", "0", "0", "1"]


def test_a_fuzzy_guess_with_other_placeholders_is_not_an_error(tmp_path: Path) -> None:
    body = '#, fuzzy\n#| msgid "Old {rami.hand_size}"\nmsgid "Plain paragraph."\n' \
        'msgstr "Starý {rami.hand_size}"\n'
    project = _tiny(tmp_path, body)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout


def test_committed_template_catalog_is_up_to_date(project: Path) -> None:
    """An English change without `i18n update` fails CI here, not silently on the site."""
    committed = (project / "locales" / "messages.pot").read_bytes()
    result = run_cli("i18n", "extract", "--project", str(project))
    assert result.returncode == 0, result.stdout
    assert (project / "locales" / "messages.pot").read_bytes() == committed, (
        "locales/messages.pot is out of date: run `python -m generator i18n update` and "
        "translate the new messages")


def test_the_built_in_template_catalog_is_up_to_date() -> None:
    """A change of the theme's or the engine's English without ``i18n update --builtin``
    fails here: the package would ship catalogs that miss it."""
    catalog, errors = extract_builtin()
    assert errors == []
    assert catalog_bytes(catalog) == BUILTIN_POT.read_bytes(), (
        "generator/locales/messages.pot is out of date: run `python -m generator i18n "
        "update --builtin` and translate the new messages")


def test_the_codes_messages_are_located_by_file_alone(project: Path) -> None:
    """A message of the generator's Python code is located by its file, without a line
    (left from earlier stops: every edit of such a file moved the lines, so the
    template catalog was out of date and all seven catalogs changed with it). Pages,
    case files and templates keep their lines: a translator opens them."""
    pot = catalog_bytes(extract_builtin()[0]).decode("utf-8")
    places = [p for line in pot.splitlines() if line.startswith("#: ")
              for p in line[3:].split()]
    assert run_cli("i18n", "extract", "--project", str(project)).returncode == 0
    site = (project / "locales" / "messages.pot").read_text(encoding="utf-8")
    places += [p for line in site.splitlines() if line.startswith("#: ")
               for p in line[3:].split()]
    code = [p for p in places if p.endswith(".py") or ".py:" in p]
    assert code and all(p.endswith(".py") for p in code), code
    assert "generator/render/views.py" in code
    assert any(re.fullmatch(r"content/[a-z0-9-]+\.md:[0-9]+", p) for p in places)
    assert any(re.fullmatch(r"generator/theme/[a-z_/]+\.html:[0-9]+", p) for p in places)


@pytest.mark.parametrize("what", ["pot", "new-catalog", "locales-folder", "page", "fifo"])
def test_i18n_writes_nothing_through_a_link_out_of_the_project(
        tmp_path: Path, what: str) -> None:
    """A repository could ship ``locales/messages.pot`` as a link to any file
    (``~/.bashrc``): ``i18n extract`` refuses it rather than replace that file. A
    catalog ``update`` would make, or the ``locales/`` folder, leading out is refused
    the same way; nothing is written."""
    project = _tiny(tmp_path, "")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    locales = project / "locales"
    if what == "pot":
        (locales / "messages.pot").unlink(missing_ok=True)
        (locales / "messages.pot").symlink_to(victim)
        shown = "locales/messages.pot"
        why = "a symbolic link leading outside the project; expected a file inside"
    elif what == "new-catalog":
        (locales / "de" / "LC_MESSAGES").mkdir(parents=True)
        (locales / "de" / "LC_MESSAGES" / "messages.po").symlink_to(tmp_path / "made.po")
        shown = "locales/de/LC_MESSAGES/messages.po"
        why = "a symbolic link to nothing; expected a"
    elif what == "page":  # inside the project, but another input
        (locales / "messages.pot").unlink(missing_ok=True)
        (locales / "messages.pot").symlink_to("../content/tiny.md")
        shown = "locales/messages.pot"
        why = "a symbolic link leading to another input of the project; expected a file"
    elif what == "fifo":  # i18n would wait for a reader
        (locales / "messages.pot").unlink(missing_ok=True)
        os.mkfifo(locales / "messages.pot")
        shown = "locales/messages.pot"
        why = "not a regular file (a FIFO would hold i18n until read); expected a file"
    else:
        elsewhere = tmp_path / "elsewhere"
        shutil.move(locales, elsewhere)
        locales.symlink_to(elsewhere)
        shown = "locales/sk/LC_MESSAGES/messages.po"  # (found as the catalogs are read)
        why = "a symbolic link leading outside the project; expected a"
    before = sorted(p.name for p in tmp_path.rglob("*"))
    page = (project / "content" / "tiny.md").read_bytes()
    result = run_cli("i18n", "update", "--project", str(project))
    assert result.returncode == 2
    assert any(line.startswith(f"{shown}:1: {why}") for line in result.stdout.splitlines())
    assert result.stderr.splitlines()[-1] == "nothing written"
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert (project / "content" / "tiny.md").read_bytes() == page


GETTEXT_TEMPLATES = [
    '{{ _("Plain") }}',
    '{{ _("Rummy 100 %% sure") }}',
    '{{ _("Lone % sign") }}',
    '{{ _("%s") }}',
    '{{ _("<b>Bold</b> & %(x)s", x="<i>&") }}',
    '{{ gettext("Hello %(name)s", name=who) }}',
    '{{ ngettext("%(num)d card", "%(num)d cards", n) }}',
    '{{ ngettext("%(num)d card of %(x)s", "%(num)d cards of %(x)s", n, x=who) }}',
    '{% trans %}Hi {{ who }}{% endtrans %}',
    '{% trans count=n %}{{ count }} card{% pluralize %}{{ count }} cards{% endtrans %}',
    '{% autoescape false %}{{ _("<b>%(x)s</b>", x=who) }} {{ _("Plain") }}'
    '{% endautoescape %}',
    '{% set t = _("Plain") %}{{ t ~ "<" }}|{{ (_("Plain") ~ "<") | e }}',
]


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("source", GETTEXT_TEMPLATES)
def test_the_sites_gettext_renders_what_jinjas_newstyle_gettext_renders(
        source: str, autoescape: bool) -> None:
    """``render.environment.install_gettext`` makes ``_``, ``gettext`` and ``ngettext`` one call
    each (Jinja's newstyle gettext is three); what a template shows, or the error it
    raises, stays Jinja's: marked safe where autoescaping is on, %-formatted with the
    call's keywords, ``%%`` without them too."""
    def gettext(msgid: str) -> str:
        # the site's: the translation escaped; render_common's: the msgid as it is
        return str(escape(f"<{msgid}>")) if msgid.startswith("H") else msgid

    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def render(env: Environment) -> str:
        try:
            return env.from_string(source).render(who="<A&B>", n=3)
        except Exception as exc:  # the same error either way
            return f"{type(exc).__name__}: {exc}"

    jinjas = Environment(extensions=["jinja2.ext.i18n"], autoescape=autoescape)
    jinjas.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True)
    ours = Environment(extensions=["jinja2.ext.i18n"], autoescape=autoescape)
    install_gettext(ours, gettext, ngettext)
    assert render(ours) == render(jinjas)


def test_messages_digest_changes_with_what_a_lookup_of_its_keys_gives() -> None:
    """The build cache uses a rendered part again only when the messages it looked up
    are held as before (it is keyed by the catalogs' messages it uses)."""
    from generator.i18n.catalog import Translator

    def held(**changes: str | tuple[str, ...] | None) -> str:
        messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {
            (None, "Runs"): "Postupky", ("card", "Runs"): "Postupky",
            (None, "%(n)s card"): ("%(n)s karta", "%(n)s karty", "%(n)s karet"),
            (None, "Sets"): "Skupiny"}
        for msgid, text in changes.items():
            key = (None, msgid.replace("_", " "))
            if text is None:
                messages.pop(key)
            else:
                messages[key] = text
        return Translator("cs", messages, plural_rule("cs")).messages_digest(
            {(None, "Runs"), (None, "%(n)s card"), ("card", "Sets")})

    same = held()
    assert held(Sets="Trojice") == same  # not looked up with that context
    assert held(Runs="Řady") != same
    assert held(Runs=None) != same  # made fuzzy or removed: shown in English
    assert held(**{"%(n)s_card": ("%(n)s karta", "%(n)s karty", "%(n)s karty")}) != same
    assert held(**{"%(n)s_card": ("%(n)s karta", "%(n)s karty")}) != same
    assert held(Runs="Postupky") == same


def test_babel_cfg_reads_the_templates_as_the_generator_does() -> None:
    """``pybabel extract -F babel.cfg`` reads the templates with the options ``i18n
    extract`` and the catalog check use (the whitespace options of rendering among them),
    so both find the same messages."""
    config = configparser.ConfigParser()
    config.read(REPO / "babel.cfg", encoding="utf-8")
    jinja = [name for name in config.sections() if name.startswith("jinja2:")]
    assert jinja == [f"jinja2: {folder}/**{suffix}" for folder in ("generator/theme", "templates")
                     for suffix in TEMPLATE_SUFFIXES]
    for name in jinja:
        assert dict(config[name]) == TEMPLATE_OPTIONS


def test_pybabel_and_i18n_extract_read_the_same_templates(init_project: Path) -> None:
    """``pybabel extract -F babel.cfg --ignore-dirs '.git .cache site'``, as the README
    writes it, reads a site's templates as ``i18n extract`` does: its ``.xml`` templates
    too, those in a folder whose name starts with ``_`` (which Babel leaves out unless
    told which folders to leave out), and not the files of ``templates/static/`` and
    ``templates/root/``, which are published as they are (babel.cfg mapped ``**.html``
    alone)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    templates = init_project / "templates"
    for rel, message in (("extra.xml", "From an XML template"),
                         ("part.html", "From an HTML template"),
                         ("_parts/under.html", "From a folder of parts"),
                         ("static/shown.html", "Published as it is"),
                         ("root/kept.html", "Published at the root as it is")):
        (templates / rel).parent.mkdir(parents=True, exist_ok=True)
        (templates / rel).write_text(f'<p>{{{{ _("{message}") }}}}</p>\n', encoding="utf-8")
    assert run_cli("i18n", "extract", cwd=init_project).returncode == 0
    with (init_project / "locales" / "messages.pot").open("rb") as fh:
        listed = {m.id for m in read_po(fh)
                  if any(where.startswith("templates/") for where, _line in m.locations)}
    with (REPO / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    ignored = (".git", ".cache", "site")  # the README's --ignore-dirs
    found = {message for path, _line, message, _comments, _context
             in extract_from_dir(str(init_project), method_map, options_map,
                                 directory_filter=lambda folder: os.path.basename(folder)
                                 not in ignored)
             if path.startswith("templates/")}
    assert listed == found == {"From an XML template", "From an HTML template",
                               "From a folder of parts"}


TRANS_TEMPLATE = (
    '<p>{{ _("Plain") }} {{ pgettext("menu", "Open") }}\n'
    '{{ ngettext("%(num)d card", "%(num)d cards", n) }}\n'
    '{{ npgettext("table", "%(num)d row", "%(num)d rows", n) }}\n'
    '  {% trans %}\n  Over several\n  lines\n  {% endtrans %}\n'
    '{% trans who=lang %}For {{ who }}{% endtrans %}\n'
    '{% trans count=n %}{{ count }} meld{% pluralize %}{{ count }} melds{% endtrans %}\n'
    '{%- if x %}{{ gettext("Inside a block") }}{% endif %}</p>\n')


def test_the_messages_read_from_renderings_parse_are_babels(tmp_path: Path) -> None:
    """The messages read from the syntax tree rendering parses (``check`` and ``build``
    take them from there) are those Babel's extractor reads with ``babel.cfg``'s options
    (``i18n extract``, ``pybabel extract``), for every template of the theme and for a
    site's template with each form of message."""
    from generator.i18n import templates
    from generator.render.environment import parsed_template

    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text(TRANS_TEMPLATE, encoding="utf-8")
    by_babel = templates.template_messages(tmp_path)
    by_tree = templates.template_messages(tmp_path, parse=parsed_template)
    assert by_tree == by_babel
    assert {(None, "  Over several\n  lines\n"), ("menu", "Open"), ("table", "%(num)d row"),
            (None, "%(count)s meld"), (None, "For %(who)s"),
            (None, "Inside a block")} <= by_tree
    assert len(by_tree) > 40  # the theme's own


def test_compiling_a_template_leaves_the_messages_read_from_its_tree(tmp_path: Path) -> None:
    """The messages a template uses are the same before and after it is compiled (a
    ``serve`` process compiles between two loads): compiling leaves its syntax tree as
    parsed (Jinja's optimizer, which folds constants into that tree in place, is off)."""
    from generator.i18n import templates
    from generator.render.environment import compiled_template
    from generator.render.environment import parsed_template

    source = '{{ _("Folded " ~ "message") }} {{ _("shout" | upper) }} {{ _("Plain") }}\n'
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text(source, encoding="utf-8")
    filename = str(tmp_path / "templates" / "page.html")
    before = templates.template_messages(tmp_path, parse=parsed_template)
    compiled_template("page.html", source, filename)
    templates._messages_parsed.cache_clear()
    assert templates.template_messages(tmp_path, parse=parsed_template) == before
    assert (None, "Plain") in before
    assert not {(None, "Folded message"), (None, "SHOUT")} & before
