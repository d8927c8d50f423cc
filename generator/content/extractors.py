"""Babel extractors for the project's own sources, registered as entry points
(``babel.extractors``: ``rules_markdown``, ``rules_cases``), so that ``pybabel extract``
with ``babel.cfg`` and ``python -m generator i18n extract`` find the same messages.

A Babel extractor takes ``(fileobj, keywords, comment_tags, options)`` and yields
``(lineno, funcname, messages, comments)``; ``funcname`` names the keyword whose spec
Babel applies to ``messages`` (``gettext``: one msgid; ``ngettext``: singular and
plural; ``pgettext``: context and msgid).
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Iterator
from collections.abc import Mapping
from pathlib import Path
from typing import IO
from typing import Any

import yaml

from generator.cases.loader import MAX_CASE_FILE_BYTES
from generator.content.page_checks import MAX_PAGE_BYTES
from generator.content.pages import make_parser
from generator.content.pages import parse_page
from generator.content.rule_numbers import facts
from generator.yamlpos import is_number_text

Extracted = tuple[int, str, Any, list[str]]

TRANSLATED_FIELDS = ("title", "note", "because")
"""The case fields a page shows as text, translated through the catalogs."""


def extract_markdown(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Extracted]:
    """One message per Markdown block of a content page (title, summary, paragraphs,
    headings, list items, table cells), as Sphinx does. A block with ``{name}``
    placeholders is a plural message counted by its first placeholder."""
    name = getattr(fileobj, "name", "page.md")
    # a page over the limit is read no further than the limit: parse_page refuses it
    page, _errors = parse_page(Path(str(name)), str(name), make_parser(), facts(),
                               data=fileobj.read(MAX_PAGE_BYTES + 1))
    if page is None:
        return
    for message in page.messages:
        if message.params:
            yield message.line, "ngettext", (message.msgid, message.msgid), []
        else:
            yield message.line, "gettext", message.msgid, []


def extract_cases(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Extracted]:
    """The ``title``, ``note`` and ``because`` of every case in a case file (a file that
    is not YAML yields nothing: the build reports it)."""
    data = fileobj.read(MAX_CASE_FILE_BYTES + 1)
    if len(data) > MAX_CASE_FILE_BYTES:
        return  # the case loader reports the file
    try:
        root = yaml.compose(data.decode("utf-8"), Loader=yaml.SafeLoader)
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return  # the case loader reports the file
    if not isinstance(root, yaml.MappingNode):
        return
    for key, value in root.value:
        if key.value != "cases" or not isinstance(value, yaml.SequenceNode):
            continue
        for case in value.value:
            if not isinstance(case, yaml.MappingNode):
                continue
            for field, text in case.value:
                if field.value in TRANSLATED_FIELDS and isinstance(text, yaml.ScalarNode) \
                        and (text.tag.endswith(":str") or is_number_text(text)) and text.value:
                    yield text.start_mark.line + 1, "gettext", text.value, []
