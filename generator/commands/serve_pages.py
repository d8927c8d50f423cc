"""The pages the preview serves besides the site's (docs/site.md, "serve"): the reload
script and its tag, added to every HTML response of the preview (never to a file), the page
shown while the first build runs, and the page shown in place of every page while a build
fails, its report's lines as entries (:func:`report_entries`).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from generator.commands.check import is_disagreement_line
from generator.commands.check import is_status_line
from generator.errors import EXIT_OK
from generator.render import preview as preview_page
from generator.render.preview import DISAGREEMENT
from generator.render.preview import ERROR
from generator.render.preview import INPUT
from generator.render.preview import STATUS
from generator.render.preview import WARNING
from generator.render.preview import Entry
from generator.render.preview import position_of

EVENTS = "/__serve__/events"
"""The Server-Sent Events stream: one ``data:`` message (JSON ``{"build", "session",
"ok"}``) on connecting and after every build that changed what is shown; with
``?page=PATH`` (the page's path), ``build`` is that page's version
(:meth:`Shown.version`), and a message is sent only when it changes."""
SCRIPT = "/__serve__/reload.js"
"""The reload script that every HTML response of the preview links (nothing else does)."""

RELOAD_JS = b"""\
// python -m generator serve: reload this page when the preview has built again.
(function () {
  "use strict";
  var me = document.currentScript;
  var shown = [me.getAttribute("data-session"), me.getAttribute("data-build")];
  var events = new EventSource("/__serve__/events?page=" +
                                encodeURIComponent(window.location.pathname));
  events.onmessage = function (message) {
    var now = JSON.parse(message.data);
    if (now.session !== shown[0] || String(now.build) !== shown[1]) {
      events.close();
      window.location.reload();
    }
  };
})();
"""


@dataclass(frozen=True)
class Shown:
    """What the preview shows, as of one build.

    Attributes:
        build: the build counter (1 for the first build), raised by each build that
            changed what is shown.
        errors: the failed build's lines (input errors, disagreements with their
            reasoning), shown in place of every page; ``None`` after a good build.
        exit_code: the build's exit status (0, 1 disagreement, 2 input error).
        site: whether a good site is kept (``False`` until the first good build).
        entries: the failed build's lines as the error page lists them
            (:func:`report_entries`), with the excerpts of the files; empty after a
            good build.
        pages: each HTML file of the site shown, by site path: the build that last
            changed it (:meth:`version`); empty while a build fails.
    """

    build: int
    errors: tuple[str, ...] | None
    exit_code: int
    site: bool
    entries: tuple[Entry, ...] = ()
    pages: Mapping[str, int] = field(default_factory=dict)

    def version(self, rel: str | None) -> int:
        """The version of the page at site path ``rel`` (``None``: a page of no file, such
        as a "page not found" page, or one not named): the build that last changed its
        file, or :attr:`build` for a page of no file of the site (every change may
        concern it). An open page reloads when its version is not the one it was
        served with."""
        return self.pages.get(rel, self.build) if rel is not None else self.build


def script_tag(shown: Shown, session: str, rel: str | None = None) -> bytes:
    """The reload script's tag for a response, as of ``shown``, of the page of site path
    ``rel`` (its version: :meth:`Shown.version`)."""
    return (f'<script src="{SCRIPT}" data-session="{session}" '
            f'data-build="{shown.version(rel)}"></script>').encode()


def inject(page: bytes, shown: Shown, session: str, rel: str | None = None) -> bytes:
    """``page`` (of site path ``rel``, where it is the site's file) with the reload
    script's tag before its last ``</body>`` (at the end when it has none). Only the
    preview's responses get it; files are never changed."""
    tag = script_tag(shown, session, rel)
    at = page.lower().rfind(b"</body>")
    return page + tag if at < 0 else page[:at] + tag + page[at:]


def waiting_page(session: str) -> bytes:
    """The page shown while the first build runs; it reloads when that is done."""
    text = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Building the site</title></head>
<body><p>The site is being built; this page reloads when it is ready.</p></body>
</html>
"""
    return inject(text.encode("utf-8"), Shown(0, None, EXIT_OK, False), session)


def error_page(shown: Shown, session: str, locale: str = "en") -> bytes:
    """The page shown in place of every page while the build fails
    (:func:`generator.render.preview.error_page`: its errors with their files' lines,
    the pending cases, known disagreements and warnings apart, in ``locale``'s words),
    and the reload script."""
    entries = shown.entries or report_entries(list(shown.errors or ()))
    text = preview_page.error_page(entries, locale=locale, kept=shown.site,
                                   exit_code=shown.exit_code)
    return inject(text.encode("utf-8"), shown, session)


def report_entries(lines: Sequence[str]) -> tuple[Entry, ...]:
    """A build's report lines as entries: each line that is not indented starts one,
    with the indented lines (the reasoning) after it; each of a kind
    (:mod:`generator.render.preview`): a pending case's or known disagreement's
    (``STATUS``), a warning or note (``WARNING``), a disagreement, an input error (a
    line with a position), any other line an error of the generator (``ERROR``).

    Args:
        lines: the report's lines, as the terminal prints them.

    Returns:
        The entries, in the lines' order (their lines, joined, are ``lines``).
    """
    groups: list[list[str]] = []
    for line in lines:
        if groups and line.startswith(" "):
            groups[-1].append(line)
        else:
            groups.append([line])
    entries = []
    for group in groups:
        head = group[0]
        position, message = position_of(head)
        if is_status_line(head):
            kind = STATUS
        elif head.startswith("note: ") or (position is not None
                                           and message.startswith("warning: ")):
            kind = WARNING
        elif is_disagreement_line(head):
            kind = DISAGREEMENT
        elif position is not None:
            kind = INPUT
        else:
            kind = ERROR
        entries.append(Entry(kind, tuple(group), position))
    return tuple(entries)


