"""Inputs that could break the build: each ends in a clear error or a correct site."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

import generator.output as output
from generator.output import SiteWriter
from generator.output import write_site
from tests.conftest import EXTENDED
from tests.conftest import run_cli
from tests.test_i18n import PO_HEADER
from tests.test_i18n import _tiny

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the build's errors and output need."""


def _build(project: Path, *extra: str) -> tuple[int, str]:
    result = run_cli("build", "--project", str(project), *extra)
    out = result.stdout + result.stderr
    assert "Traceback" not in out
    return result.returncode, out


def _append(page: Path, text: str) -> int:
    """Append ``text`` to a page; return the line number of its first line."""
    old = page.read_text("utf-8")
    page.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


def test_a_symlinked_output_is_refused_and_its_target_kept(project: Path,
                                                          tmp_path: Path) -> None:
    target = tmp_path / "www"
    write_site(target, {"index.html": b"old"})
    (project / "site").symlink_to(target)
    code, out = _build(project)
    assert code == 2
    assert "is a symbolic link; expected a real folder" in out
    assert (target / "index.html").read_bytes() == b"old"


def test_old_site_that_cannot_be_removed_only_warns(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old"})
    real_retire = output.retire

    def refuse(old: Path, *args: Any) -> list[str]:
        if ".old-" in old.name:
            raise PermissionError(13, "Permission denied", str(old))
        return real_retire(old, *args)

    monkeypatch.setattr(output, "retire", refuse)
    writer = SiteWriter(out)
    writer.write({"index.html": b"new"})
    writer.commit()
    assert (out / "index.html").read_bytes() == b"new"
    assert writer.warnings and "could not remove the previous site" in writer.warnings[0]
    monkeypatch.setattr(output, "retire", real_retire)
    write_site(out, {"index.html": b"newer"})  # the next build clears what was left
    assert not list(tmp_path.glob(".site.old-*"))


@pytest.mark.parametrize("inside", ["content/site", "templates/static/site", "."])
def test_output_overlapping_the_project_is_refused(project: Path, inside: str) -> None:
    code, out = _build(project, "--out", str(project / inside))
    assert code == 2
    assert "expected a folder" in out
    assert not list(project.rglob(".*.lock"))


def test_files_for_the_site_root(project: Path) -> None:
    (project / "templates" / "root").mkdir(parents=True)
    (project / "templates" / "root" / "CNAME").write_text("rules.example.org\n", "utf-8")
    code, out = _build(project)
    assert code == 0, out
    assert (project / "site" / "CNAME").read_text("utf-8") == "rules.example.org\n"
    code, out = _build(project)  # ours now: the next build replaces it
    assert code == 0, out


def test_reference_links_render_and_are_checked(project: Path) -> None:
    page = project / "content" / "rules.md"
    line = _append(page, "\nSee [the first meld][fm] and [runs][].\n\n"
                         "[fm]: ../first-meld/\n[runs]: #runs\n")
    code, out = _build(project)
    assert code == 0, out
    soup = BeautifulSoup((project / "site/en/rules/index.html").read_text("utf-8"),
                         "html.parser")
    hrefs = {a.get_text(): a["href"] for a in soup.find_all("a")}
    assert hrefs["the first meld"] == "../first-meld/index.html"
    assert hrefs["runs"] == "#runs"
    page.write_text(page.read_text("utf-8").replace("[runs]: #runs", "[runs]: #no-runs"),
                    encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{line + 4}: link '#no-runs'" in out


def test_link_titles_do_not_hide_targets(project: Path) -> None:
    line = _append(project / "content" / "rules.md",
                   "\n[a](../rules/#nope 'single title') [b](../nope/ (paren title))\n")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{line + 1}: link '../rules/#nope'" in out
    assert f"content/rules.md:{line + 1}: link '../nope/' names no page" in out


def test_unclosed_and_inline_containers(project: Path) -> None:
    page = project / "content" / "rules.md"
    line = _append(page, "\nText\n::: tip\nMore.\n")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{line + 2}:1: unknown block '::: tip'" in out
    page.write_text(page.read_text("utf-8").replace("Text\n::: tip\nMore.\n",
                                                    "::: app-choice\nNever closed.\n"),
                    encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{line + 1}:1: '::: app-choice' is never closed" in out


def test_empty_table_cell_is_no_message(project: Path) -> None:
    _append(project / "content" / "rules.md", "\n| a | b |\n|---|---|\n| c |  |\n")
    result = run_cli("i18n", "extract", "--project", str(project))
    assert result.returncode == 0, result.stdout
    assert 'msgid ""\nmsgstr ""\n\n#' not in (project / "locales/messages.pot").read_text(
        "utf-8").split("\n\n", 1)[1]
    code, out = _build(project)
    assert code == 0, out


def test_a_bom_does_not_hide_the_front_matter(project: Path) -> None:
    page = project / "content" / "first-meld.md"
    page.write_bytes(b"\xef\xbb\xbf" + page.read_bytes())
    code, out = _build(project)
    assert code == 0, out
    html = (project / "site/en/first-meld/index.html").read_text("utf-8")
    assert "order:" not in html
    nav = BeautifulSoup(html, "html.parser").select(".site-nav a")
    assert [a.get_text() for a in nav][1] == "The first meld"  # order 2 kept


def test_control_characters_in_a_page_are_input_errors_at_their_place(project: Path) -> None:
    """An ESC or BEL in a page (here in its ``# title``) is an input error at its line
    and column: it would be published raw into ``<title>`` and ``<h1>``, where a
    browser shows nothing or garbage for it. Tab and form feed stay text."""
    page = project / "content" / "rules.md"
    text = page.read_text("utf-8")
    title = text.index("# ") + 2
    page.write_text(text[:title] + "\x1b[31m" + text[title:] + "\nA\tbell\x07 and\x0c feed\n",
                    encoding="utf-8")
    line = text.count("\n", 0, title) + 1
    last = text.count("\n") + 2
    code, out = _build(project)
    assert code == 2, out
    said = [row for row in out.splitlines() if "control character" in row]
    assert said == [
        f"content/rules.md:{line}:{title - text.rfind(chr(10), 0, title)}: control "
        "character U+001B; expected printable text (remove it)",
        f"content/rules.md:{last}:7: control character U+0007; expected printable text "
        "(remove it)"]
    assert not (project / "site").exists()


def test_a_control_character_in_a_page_with_cr_line_ends_is_at_its_line(
        project: Path) -> None:
    """A page whose lines end in CR alone has its control character reported at its
    line and column counting CR as a line end, as markdown-it and the page's other
    errors do (not at line 1, column 59, as counting LF alone would)."""
    (project / "content" / "zz.md").write_bytes(
        b"---\rorder: 9\rsummary: A test page.\r---\r\r# Test page\r\rSome \x1btext.\r")
    code, out = _build(project)
    assert code == 2
    assert "content/zz.md:8:6: control character U+001B; expected printable text " \
        "(remove it)" in out


def test_a_form_feed_in_a_page_survives_extract_and_update(project: Path) -> None:
    """A form feed, which a page may hold, goes into the catalogs raw with ``i18n
    extract`` and ``update`` (as gettext writes it), and the catalog reader splits
    lines at LF, as Babel and gettext do: splitting as ``str.splitlines`` does would
    call every such catalog "bad .po syntax" (its later lines numbered one off)."""
    (project / "content" / "zz.md").write_text(
        "---\norder: 9\nsummary: A test page.\n---\n\n# Test page\n\nSome\ftext.\n",
        encoding="utf-8")
    for command in (("check",), ("i18n", "extract"), ("i18n", "update"), ("check",)):
        result = run_cli(*command, "--project", str(project))
        assert result.returncode == 0, (command, result.stdout + result.stderr)
    po = (project / "locales" / "cs" / "LC_MESSAGES" / "messages.po").read_text("utf-8")
    assert 'msgid ""\n"Some\f"\n"text."\n' in po  # Babel wraps it there, raw


def test_a_heading_may_not_take_a_template_id(project: Path) -> None:
    _append(project / "content" / "rules.md", "\n## Content\n")
    code, out = _build(project)
    assert code == 2
    assert "a heading's id 'content' is the page template's own" in out


def test_editor_files_ignored_misplaced_pages_reported(project: Path) -> None:
    shutil.copy(project / "content" / "rules.md", project / "content" / ".#rules.md")
    code, out = _build(project)
    assert code == 0, out
    (project / "content" / "sub").mkdir()
    shutil.copy(project / "content" / "rules.md", project / "content" / "sub" / "x.md")
    shutil.copy(project / "content" / "rules.md", project / "content" / "y.markdown")
    code, out = _build(project)
    assert code == 2
    assert "content/sub/x.md:1: not read as a page" in out
    assert "content/y.markdown:1: not read as a page" in out


def _po(tmp_path: Path, body: str, header: str = PO_HEADER) -> tuple[int, str]:
    project = _tiny(tmp_path, "")
    po = project / "locales" / "sk" / "LC_MESSAGES" / "messages.po"
    po.write_text(header + body, encoding="utf-8")
    return _build(project)


def test_lone_percent_in_template_text(tmp_path: Path) -> None:
    body = '#: templates/base.html:13\nmsgid "Skip to content"\nmsgstr "Preskočiť 5 % sady"\n'
    code, out = _po(tmp_path, body)
    assert code == 2
    line = (PO_HEADER + body).splitlines().index('msgstr "Preskočiť 5 % sady"') + 1
    assert f"messages.po:{line}: a lone '%' in a message that is %-formatted" in out


def test_a_control_character_in_a_translation_is_an_input_error(tmp_path: Path) -> None:
    """A control character written into a catalog's msgstr is an error at the msgstr's
    line, as in pages and YAML strings: it would reach the pages as it is."""
    body = '#: templates/base.html:13\nmsgid "Skip to content"\nmsgstr "\x1b[31mPreskočiť"\n'
    code, out = _po(tmp_path, body)
    assert code == 2
    line = (PO_HEADER + body).splitlines().index('msgstr "\x1b[31mPreskočiť"') + 1
    assert (f"locales/sk/LC_MESSAGES/messages.po:{line}: control character U+001B in the "
            "translation; expected printable text (remove it)") in out


def test_header_charset_and_plural_forms(tmp_path: Path) -> None:
    header = PO_HEADER.replace("charset=utf-8", "charset=iso-8859-2").replace(
        "nplurals=3", "nplurals=4")
    code, out = _po(tmp_path, "", header)
    assert code == 2
    assert "the header says charset=iso-8859-2; expected charset=UTF-8" in out
    assert "Plural-Forms says nplurals=4; expected nplurals=3" in out


def test_duplicate_message_and_misplaced_plural(tmp_path: Path) -> None:
    body = ('msgid "Plain paragraph."\nmsgstr "A."\n\nmsgid "Plain paragraph."\n'
            'msgstr "B."\n\nmsgid "Tiny"\nmsgstr[0] "Drobná"\n')
    code, out = _po(tmp_path, body)
    assert code == 2
    assert "given twice (first at line" in out
    assert "msgstr[N] for a message without msgid_plural" in out


def test_previous_msgid_lines_are_accepted(tmp_path: Path) -> None:
    body = '#~| msgid "Old"\n#~ msgid "Gone"\n#~ msgstr "Preč"\n'
    code, out = _po(tmp_path, body)
    assert code == 0, out


def test_strict_names_the_untranslated_messages(tmp_path: Path) -> None:
    body = '#, fuzzy\nmsgid "Plain paragraph."\nmsgstr "Obyčajný odsek."\n'
    project = _tiny(tmp_path, body)
    code, out = _build(project, "--strict")
    assert code == 1
    line = (PO_HEADER + body).splitlines().index('msgid "Plain paragraph."') + 1
    assert f"locales/sk/LC_MESSAGES/messages.po:{line}: fuzzy translation of " \
        "'Plain paragraph.' (--strict)" in out
    assert re.search(r"messages\.po:1: missing translation of '.+' \(--strict\)", out)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write read-only files")
def test_update_refuses_a_read_only_catalog(tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    po = project / "locales" / "sk" / "LC_MESSAGES" / "messages.po"
    po.chmod(0o444)
    result = run_cli("i18n", "update", "--project", str(project))
    assert result.returncode == 2
    assert not (project / "locales" / "messages.pot").exists()


LARGE_ASSET = (512 if os.environ.get("RULES_EXTENDED") == "1" else 128) << 20
"""The size of the asset :func:`test_a_large_static_asset_is_copied_in_pieces` publishes:
128 MB by default, 512 MB in the extended round."""


BUILD_AND_PEAK = """
import sys
from generator.cli import main
code = main(["build", "--no-cache", "--project", sys.argv[1]])
with open("/proc/self/status", encoding="ascii") as f:
    peak = [line.split()[1] for line in f if line.startswith("VmHWM:")]
print(code, *peak)
"""
"""A build in a new process, then its exit code and its peak resident memory in KB
(Linux's ``VmHWM``, the process's own since it started: ``wait4``'s ``ru_maxrss`` counts
the forking parent's memory too, the test process's)."""


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="in the extended round only (RULES_EXTENDED=1): "
                    "a build copying a file of 512 MB")
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux's /proc only")
def test_a_large_static_asset_is_copied_in_pieces(init_project: Path) -> None:
    """A file of ``templates/static/`` (a large image or font) is published whole, copied
    in pieces: the build's peak memory stays below the asset's size, about 45 MB on a
    new project (it was read whole: a 2 GB asset took 2.1 GB, and a larger one ended in
    MemoryError)."""
    import subprocess
    import sys

    static = init_project / "templates" / "static"
    static.mkdir(parents=True)
    with (static / "big.bin").open("wb") as f:  # sparse: nothing written to the disk
        f.truncate(LARGE_ASSET)
        f.seek(LARGE_ASSET - 4)
        f.write(b"end\n")
    result = subprocess.run([sys.executable, "-c", BUILD_AND_PEAK, str(init_project)],
                            capture_output=True, text=True, timeout=300, check=False)
    code, peak = result.stdout.split()
    assert code == "0", result.stderr
    published = init_project / "site" / "static" / "big.bin"
    assert published.stat().st_size == LARGE_ASSET
    with published.open("rb") as f:
        f.seek(LARGE_ASSET - 4)
        assert f.read() == b"end\n"
    assert int(peak) * 1024 < LARGE_ASSET, f"peak memory {peak} KB"
