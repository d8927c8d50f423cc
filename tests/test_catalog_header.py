"""A catalog's header (generator/i18n/header.py), read as strictly as GNU gettext's
``msgfmt --check``: a table of header variants, each run through our check and through
``msgfmt --check`` (Debian package ``gettext``), with the same verdict (refused or
accepted) unless the row names why ours differs; then what ``check``, ``build`` and
``i18n update`` do with headers that Babel reads otherwise than gettext's tools.

Without msgfmt the comparison is skipped, saying so; with ``RULES_MSGFMT_REQUIRED=1``
(as ``.ci/run`` sets, having installed ``gettext``) it fails instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.i18n.catalog import load_translator
from generator.i18n.plurals import plural_rule
from generator.i18n.pofile import check_catalog_syntax
from tests.conftest import SHIPPED_LOCALES
from tests.conftest import SITE_LOCALES
from tests.conftest import run_cli

MSGFMT = shutil.which("msgfmt")
REQUIRED = os.environ.get("RULES_MSGFMT_REQUIRED") == "1"

CS_FORMS = "Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);"
CT = "Content-Type: text/plain; charset=UTF-8"
FIELDS = ("Project-Id-Version: Rummy rules 1", "PO-Revision-Date: 2026-01-01 00:00+0000",
          "Last-Translator: Jana Nováková <jana@example.org>",
          "Language-Team: cs <LL@li.org>", "Language: cs", "MIME-Version: 1.0", CT,
          "Content-Transfer-Encoding: 8bit", CS_FORMS)
"""A complete Czech header, every field msgfmt --check-header asks for, none left at its
template value (msgfmt only warns about those)."""

SINGULAR = '\nmsgid "Card"\nmsgstr "Karta"\n'
PLURAL = ('\nmsgid "%(num)s card"\nmsgid_plural "%(num)s cards"\nmsgstr[0] "%(num)s karta"\n'
          'msgstr[1] "%(num)s karty"\nmsgstr[2] "%(num)s karet"\n')


def _quoted(line: str) -> str:
    return '"' + line.replace("\\", "\\\\").replace('"', '\\"') + '\\n"\n'


def catalog(fields: tuple[str, ...] | None, *, before: str = "", after: str = "",
            plural: bool = True) -> str:
    """A Czech catalog: ``before`` (comments), the header of ``fields`` (one a line;
    ``None``: no header entry), ``after`` (entries), a singular message and, with
    ``plural``, a plural one."""
    header = "" if fields is None else \
        'msgid ""\nmsgstr ""\n' + "".join(_quoted(f) for f in fields)
    return before + header + after + SINGULAR + (PLURAL if plural else "")


def replaced(old: str, *new: str) -> tuple[str, ...]:
    """:data:`FIELDS` with the field ``old`` replaced by the lines ``new`` (none: left
    out)."""
    at = FIELDS.index(old)
    return (*FIELDS[:at], *new, *FIELDS[at + 1:])


@dataclass(frozen=True)
class Row:
    """A header variant.

    Attributes:
        name: the test id.
        text: the whole catalog.
        said: for a header we refuse, the start of our first error (``LINE: message``
            start); ``None`` for one we accept.
        differs: ``None`` when msgfmt --check gives our verdict; else why ours is the
            other one (the test checks that msgfmt's is).
    """

    name: str
    text: str
    said: str | None
    differs: str | None = None


STRICTER_UTF8 = "we require UTF-8 (the file is read as UTF-8); msgfmt takes any charset iconv knows"
TWICE = ("a field given twice is read by gettext at its first, by Babel at its last: we "
         "refuse it, msgfmt reads the first")
SPELLING = ("Babel reads field names in any case and gettext by their exact names: we refuse "
            "another spelling, msgfmt does not look (it only warns of a missing field)")
LOCALE_RULE = ("we require the locale's CLDR plural rule (Babel's); msgfmt checks the rule "
               "only against the plural messages' number of forms")
BABEL_ONLY = ("Babel reads this header otherwise than gettext (its e-mail parser): we refuse "
              "it, msgfmt reads what gettext reads")

ROWS = [
    Row("complete", catalog(FIELDS), None),
    Row("fuzzy-header", catalog(FIELDS, before="#, fuzzy\n"), None),
    Row("charset-lower-case-value", catalog(replaced(CT, "Content-Type: text/plain; "
                                                     "charset=utf-8")), None),
    Row("plural-rule-written-otherwise", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"
    )), None),
    Row("no-content-type", catalog(replaced(CT), plural=False), None),
    # a charset or Plural-Forms that Babel reads otherwise than gettext's tools
    Row("charset-in-double-quotes", catalog(replaced(
        CT, 'Content-Type: text/plain; charset="ISO-8859-1"')),
        "9: the header's Content-Type says 'charset=\"ISO-8859-1\"': gettext's tools read "
        "the quotes", "msgfmt warns of a charset name that is not portable, and goes on"),
    Row("charset-upper-case", catalog(replaced(CT, "Content-Type: text/plain; "
                                               "CHARSET=ISO-8859-1")),
        "9: the header's Content-Type says 'CHARSET=ISO-8859-1': gettext's tools look for "
        "'charset=' exactly", "msgfmt warns that the charset is missing, and goes on"),
    Row("charset-with-spaces", catalog(replaced(CT, "Content-Type: text/plain; "
                                                "charset = ISO-8859-1")),
        "9: the header's Content-Type says 'charset = ISO-8859-1'",
        "msgfmt warns that the charset is missing, and goes on"),
    Row("charset-in-single-quotes", catalog(replaced(CT, "Content-Type: text/plain; "
                                                     "charset='latin1'")),
        "9: the header's Content-Type says \"charset='latin1'\": gettext's tools read the "
        "quotes", "msgfmt warns of a charset name that is not portable, and goes on"),
    Row("second-content-type", catalog(
        (*FIELDS, "Content-Type: text/plain; charset=ISO-8859-1")),
        "12: the header gives Content-Type twice (first at line 9", TWICE),
    Row("second-plural-forms", catalog((*FIELDS, "Plural-Forms: nplurals=100000; plural=0;")),
        "12: the header gives Plural-Forms twice (first at line 11", TWICE),
    Row("plural-forms-lower-case", catalog(replaced(
        CS_FORMS, "plural-forms: nplurals=100000; plural=0;")),
        "11: the header field plural-forms is spelled otherwise"),
    Row("plural-forms-lower-case-right-rule", catalog(replaced(
        CS_FORMS, CS_FORMS.replace("Plural-Forms", "plural-forms"))),
        "11: the header field plural-forms is spelled otherwise", SPELLING),
    Row("a-million-forms", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=1000000; plural=0;")),
        "11: Plural-Forms says nplurals=1000000; expected nplurals=3"),
    Row("a-million-forms-no-plural-message", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=1000000; plural=0;"), plural=False),
        "11: Plural-Forms says nplurals=1000000; expected nplurals=3", LOCALE_RULE),
    Row("nplurals-past-any-integer", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=99999999999999999999999999; plural=0;")),
        "11: Plural-Forms says nplurals=99999999999999999999999999"),
    Row("division-by-zero", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=3; plural=(n % 0);")),
        "11: Plural-Forms says plural=(n % 0), which gettext cannot work out for 0"),
    Row("power-operator", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=3; plural=(n ** 99999999);")),
        "11: Plural-Forms says plural=(n ** 99999999), which gettext cannot read"),
    Row("no-header", catalog(None, plural=False), None,
        "a catalog without a header entry is read as UTF-8 with the locale's plural rule; "
        "msgfmt --check requires a header"),
    # ours: the charset
    Row("latin-1", catalog(replaced(CT, "Content-Type: text/plain; charset=ISO-8859-1")),
        "9: the header says charset=ISO-8859-1; expected charset=UTF-8", STRICTER_UTF8),
    Row("utf8-without-hyphen", catalog(replaced(CT, "Content-Type: text/plain; "
                                                "charset=utf8")),
        "9: the header says charset=utf8; expected charset=UTF-8",
        "msgfmt warns that 'utf8' is not a portable name; we require UTF-8 spelled so"),
    Row("template-charset", catalog(replaced(CT, "Content-Type: text/plain; "
                                             "charset=CHARSET")),
        "9: the header says charset=CHARSET; expected charset=UTF-8",
        "msgfmt warns of the template's placeholder charset; Babel reads UTF-8 then, we "
        "want it said"),
    Row("charset-twice-in-content-type", catalog(replaced(
        CT, "Content-Type: text/plain; charset=UTF-8; charset=ISO-8859-1")),
        "9: the header's Content-Type names the charset twice",
        "msgfmt warns of the charset name 'UTF-8;', not portable; Babel reads the second"),
    Row("content-type-lower-case", catalog(replaced(
        CT, "content-type: text/plain; charset=UTF-8")),
        "9: the header field content-type is spelled otherwise", SPELLING),
    Row("no-charset", catalog(replaced(CT, "Content-Type: text/plain"), plural=False),
        "9: the header's Content-Type 'text/plain' names no charset",
        "msgfmt warns that the charset is missing; we want UTF-8 said"),
    Row("charset-in-another-field", catalog(("X-Note: charset=ISO-8859-1", *FIELDS)),
        "3: 'charset=' outside the header's Content-Type field",
        "gettext's tools read the first 'charset=' of the header (here ISO-8859-1 of an "
        "ASCII file, which msgfmt accepts), Babel Content-Type's: we refuse the doubt"),
    # ours: Plural-Forms
    Row("plural-rule-in-another-field", catalog(("X-Note: nplurals=2; plural=(n != 1)",
                                                 *FIELDS)),
        "3: 'nplurals=' outside the header's Plural-Forms field"),
    Row("spaces-around-equals", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals = 3; plural = (n == 1 ? 0 : n >= 2 && n <= 4 ? 1 "
        ": 2);")),
        "11: the header's Plural-Forms has no number of forms (nplurals=)"),
    Row("upper-case-keys", catalog(replaced(
        CS_FORMS, "Plural-Forms: NPLURALS=3; PLURAL=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : "
        "2);")),
        "11: the header's Plural-Forms has no number of forms (nplurals=)"),
    Row("no-rule", catalog(replaced(CS_FORMS, "Plural-Forms: nplurals=3;")),
        "11: the header's Plural-Forms has no rule (plural=)"),
    Row("no-rule-no-plural-message", catalog(replaced(CS_FORMS, "Plural-Forms: nplurals=3;"),
                                             plural=False),
        "11: the header's Plural-Forms has no rule (plural=)",
        "msgfmt needs the rule only for plural messages; we check the header whatever the "
        "messages"),
    Row("no-plural-forms", catalog(replaced(CS_FORMS)),
        "2: the catalog has plural messages (the first at line 15) and its header no "
        "Plural-Forms"),
    Row("no-header-but-plural-messages", catalog(None),
        "5: the catalog has plural messages (the first at line 5) and its header no "
        "Plural-Forms"),
    Row("two-forms", catalog(replaced(CS_FORMS, "Plural-Forms: nplurals=2; plural=(n != 1);")),
        "11: Plural-Forms says nplurals=2; expected nplurals=3"),
    Row("zero-forms", catalog(replaced(CS_FORMS, "Plural-Forms: nplurals=0; plural=0;")),
        "11: Plural-Forms says nplurals=0; expected nplurals=3"),
    Row("rule-past-the-forms", catalog(replaced(
        CS_FORMS, "Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : "
        "5);")),
        "11: Plural-Forms says plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 5), which gives "
        "msgstr[5] for 0"),
    Row("text-after-the-rule", catalog(replaced(CS_FORMS, CS_FORMS + " and more")),
        "11: the header's Plural-Forms 'nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 "
        ": 2...' holds more than gettext reads alike with Babel",
        "gettext reads the rule up to its ';' and ignores the rest; we accept only what "
        "both read alike"),
    # ours: the header's form
    Row("second-header-entry", catalog(FIELDS, after='\nmsgid ""\nmsgstr "Content-Type: '
                                       'text/plain; charset=ISO-8859-1\\n"\n'),
        "13: a second header entry"),
    Row("header-with-msgctxt", catalog(FIELDS, after='\nmsgctxt "x"\nmsgid ""\nmsgstr '
                                       '"Content-Type: text/plain; charset=ISO-8859-1\\n"\n'),
        "14: msgctxt on a message with an empty msgid, which Babel reads as the header",
        "Babel reads any empty msgid as the header, msgfmt only the one without msgctxt"),
    Row("folded-line", catalog(replaced(CT, "Content-Type: text/plain;", " charset=UTF-8")),
        "9: the header's Content-Type 'text/plain;' names no charset", BABEL_ONLY),
    Row("blank-line", catalog((*FIELDS[:3], "", *FIELDS[3:])),
        "6: a blank line inside the header (Babel reads no field after it)", BABEL_ONLY),
    Row("a-line-that-is-no-field", catalog((*FIELDS, "this is no field"))
        , "12: the header line 'this is no field' is not a field", BABEL_ONLY),
    Row("space-before-the-colon", catalog(replaced(
        CT, "Content-Type : text/plain; charset=UTF-8")),
        "9: the header line 'Content-Type : text/plain; charset=UTF-8' is not a field",
        BABEL_ONLY),
]


def ours(text: str, tmp_path: Path) -> list[str]:
    """Our check's errors for the Czech catalog ``text`` (``LINE: message``), the same
    from the build's reading (load_translator) and from i18n's (check_catalog_syntax)."""
    po = tmp_path / "messages.po"
    po.write_text(text, encoding="utf-8")
    _translator, errors = load_translator(po, "x.po", "cs")
    syntax = check_catalog_syntax(po, "x.po", locale="cs")
    assert [e.format() for e in syntax] == [e.format() for e in errors]
    return [e.format().removeprefix("x.po:") for e in errors]


def msgfmt_refuses(text: str, tmp_path: Path) -> tuple[bool, str]:
    """Whether ``msgfmt --check`` refuses the catalog (exits non-zero), and what it said."""
    if MSGFMT is None:
        why = ("msgfmt is not installed (apt-get install gettext; .ci/run does), so the "
               "header check is not compared with it")
        if REQUIRED:
            pytest.fail(f"RULES_MSGFMT_REQUIRED=1 but {why}")
        pytest.skip(why)
    po = tmp_path / "cs.po"
    po.write_text(text, encoding="utf-8")
    done = subprocess.run([MSGFMT, "--check", "-o", os.devnull, str(po)],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "LC_ALL": "C"})
    return done.returncode != 0, done.stderr


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_the_header_check_and_msgfmt_agree(row: Row, tmp_path: Path) -> None:
    """Each header variant: our errors (one at the row's line, starting as the row
    says), and msgfmt --check's verdict, the same as ours unless the row says why not."""
    errors = ours(row.text, tmp_path)
    if row.said is None:
        assert errors == []
    else:
        assert any(e.startswith(row.said) for e in errors), errors
    msgfmt, said = msgfmt_refuses(row.text, tmp_path)
    refused = row.said is not None
    if row.differs is None:
        assert msgfmt == refused, f"msgfmt --check {'refuses' if msgfmt else 'accepts'}: " \
            f"{said}"
    else:
        assert msgfmt != refused, f"the row says we differ from msgfmt ({row.differs}); " \
            f"both {'refuse' if refused else 'accept'}: {said}"


def test_the_table_holds_every_way_babel_reads_a_header_otherwise() -> None:
    """Quotes, another case and spaces around a charset, a second Content-Type or
    Plural-Forms, a lower-case field name, a million forms: each is a row, refused."""
    refused = {r.name for r in ROWS if r.said is not None}
    assert {"charset-in-double-quotes", "charset-upper-case", "charset-with-spaces",
            "charset-in-single-quotes", "second-content-type", "second-plural-forms",
            "plural-forms-lower-case", "a-million-forms"} <= refused


def test_the_repository_catalogs_pass_both(tmp_path: Path) -> None:
    """The site's and the built-in catalogs pass our check and msgfmt --check."""
    repo = Path(__file__).resolve().parent.parent
    found = sorted([*repo.glob("locales/*/LC_MESSAGES/messages.po"),
                    *repo.glob("generator/locales/*/LC_MESSAGES/messages.po")])
    assert len(found) == len(SITE_LOCALES) - 1 + len(SHIPPED_LOCALES)  # (not English)
    for po in found:
        locale = po.parent.parent.name
        _translator, errors = load_translator(po, po.name, locale)
        assert errors == [], po
        refused, said = msgfmt_refuses(po.read_text("utf-8"), tmp_path)
        assert not refused, (po, said)


# -- what the commands do with them ------------------------------------------------------

CASES = """cases:
  - id: pure-run
    kind: meld
    game: rami51
    cards: QH KH AH
    title: Queen, king and ace
    expect:
      verdict: valid
      points: 31
"""

PAGE = "# Melds\n\nA pure run.\n\n```cases\npure-run\n```\n"


def _project(tmp_path: Path, header: tuple[str, ...]) -> tuple[Path, Path]:
    """A project with one page, one case and a Czech catalog of ``header`` that
    translates the page's paragraph into Czech (non-ASCII text) and has a plural
    message; returns (project, catalog)."""
    root = tmp_path / "p"
    (root / "content" / "examples").mkdir(parents=True)
    (root / "content" / "melds.md").write_text(PAGE, encoding="utf-8")
    (root / "content" / "examples" / "melds.yaml").write_text(CASES, encoding="utf-8")
    (root / "site.yaml").write_text("languages: [en, cs]\n", encoding="utf-8")
    po = root / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(catalog(header, after='\nmsgid "A pure run."\nmsgstr "Čistá postupka."\n'),
                  encoding="utf-8")
    return root, po


@pytest.mark.parametrize(("header", "said"), [
    (replaced(CS_FORMS, "plural-forms: nplurals=100000; plural=0;"),
     "locales/cs/LC_MESSAGES/messages.po:11: the header field plural-forms is spelled "
     "otherwise than gettext's tools look it up; expected Plural-Forms"),
    ((*FIELDS, "Plural-Forms: nplurals=100000; plural=0;"),
     "locales/cs/LC_MESSAGES/messages.po:12: the header gives Plural-Forms twice (first at "
     "line 11; gettext reads the first, Babel the last); expected each field once"),
    (replaced(CS_FORMS, "Plural-Forms: nplurals=1000000; plural=0;"),
     "locales/cs/LC_MESSAGES/messages.po:11: Plural-Forms says nplurals=1000000; expected "
     f"nplurals=3; plural={plural_rule('cs').expression} for cs (gettext, from CLDR via "
     "Babel)"),
], ids=["lower-case", "twice", "a-million"])
def test_i18n_update_refuses_a_plural_forms_babel_reads_otherwise(
        tmp_path: Path, header: tuple[str, ...], said: str) -> None:
    """``plural-forms:`` in lower case, a second ``Plural-Forms`` or a million forms:
    ``check`` and ``i18n update`` refuse the catalog at the field's line, and update
    writes nothing (Babel would write a msgstr line per form of every plural message:
    a million of them each)."""
    root, po = _project(tmp_path, header)
    before = po.read_bytes()
    checked = run_cli("check", "--project", str(root))
    assert checked.returncode == 2
    assert said in checked.stdout.splitlines()
    updated = run_cli("i18n", "update", "--project", str(root))
    assert updated.returncode == 2, updated.stdout + updated.stderr
    assert said in updated.stdout.splitlines()
    assert po.read_bytes() == before


@pytest.mark.parametrize(("content_type", "said"), [
    ('Content-Type: text/plain; charset="ISO-8859-1"',
     "the header's Content-Type says 'charset=\"ISO-8859-1\"': gettext's tools read the "
     "quotes as part of the name; expected Content-Type: text/plain; charset=UTF-8"),
    ("Content-Type: text/plain; CHARSET=ISO-8859-1",
     "the header's Content-Type says 'CHARSET=ISO-8859-1': gettext's tools look for "
     "'charset=' exactly, up to a space; expected Content-Type: text/plain; charset=UTF-8"),
    ("Content-Type: text/plain; charset = ISO-8859-1",
     "the header's Content-Type says 'charset = ISO-8859-1': gettext's tools look for "
     "'charset=' exactly, up to a space; expected Content-Type: text/plain; charset=UTF-8"),
    ("Content-Type: text/plain; charset='latin1'",
     "the header's Content-Type says \"charset='latin1'\": gettext's tools read the quotes "
     "as part of the name; expected Content-Type: text/plain; charset=UTF-8"),
], ids=["double-quotes", "upper-case", "spaces", "single-quotes"])
def test_a_charset_babel_reads_otherwise_is_refused(
        tmp_path: Path, content_type: str, said: str) -> None:
    """A charset Babel reads as Latin-1 and gettext's tools do not read: ``check`` and
    ``build`` exit 2 at the Content-Type line (Babel would decode the Czech text as
    Latin-1, "ÄŒistÃ¡"), ``i18n update`` writes nothing (Babel would write the catalog
    back in Latin-1)."""
    root, po = _project(tmp_path, replaced(CT, content_type))
    before = po.read_bytes()
    line = f"locales/cs/LC_MESSAGES/messages.po:9: {said}"
    for command in (["check"], ["build"], ["i18n", "update"]):
        result = run_cli(*command, "--project", str(root))
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert line in result.stdout.splitlines(), (command, result.stdout)
    assert not (root / "site").exists()
    assert po.read_bytes() == before


def test_a_second_content_type_is_refused_by_every_command(tmp_path: Path) -> None:
    root, po = _project(tmp_path, (*FIELDS, "Content-Type: text/plain; charset=ISO-8859-1"))
    before = po.read_bytes()
    line = ("locales/cs/LC_MESSAGES/messages.po:12: the header gives Content-Type twice "
            "(first at line 9; gettext reads the first, Babel the last); expected each "
            "field once")
    for command in (["check"], ["build"], ["i18n", "update"]):
        result = run_cli(*command, "--project", str(root))
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert line in result.stdout.splitlines(), (command, result.stdout)
    assert po.read_bytes() == before


def test_the_good_header_builds_the_czech_page(tmp_path: Path) -> None:
    """The projects above, with the complete header: built, the Czech text as written."""
    root, _po = _project(tmp_path, FIELDS)
    result = run_cli("build", "--project", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Čistá postupka." in (root / "site" / "cs" / "melds" / "index.html").read_text(
        "utf-8")


def test_the_built_in_catalogs_are_read_by_the_same_check(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """A built-in catalog (generator/locales/) with a header Babel reads otherwise is an
    input error at its own label, as a site's catalog is."""
    import generator.i18n.catalog as catalog_module

    text = catalog(replaced(CT, "Content-Type: text/plain; CHARSET=ISO-8859-1"))
    monkeypatch.setattr(catalog_module, "builtin_bytes",
                        lambda locale: text.encode() if locale == "cs" else None)
    root, _po = _project(tmp_path, FIELDS)
    result = run_cli("check", "--project", str(root))
    assert result.returncode == 2
    assert ("generator/locales/cs/LC_MESSAGES/messages.po:9: the header's Content-Type says "
            "'CHARSET=ISO-8859-1'") in result.stdout
