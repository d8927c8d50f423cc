"""Merging a catalog with a new template catalog, as GNU ``msgmerge --previous`` does.

``i18n update`` keeps a translator's work through an English edit:

- a message of the template the catalog holds (by msgid and msgctxt) keeps its
  translation and flags;
- one the catalog holds only as obsolete (``#~``), because its English was edited and
  then set back, is revived with its translation; so is one whose English is the old
  msgid (``#| msgid``) of a fuzzy guess, the English set back after an update had made
  that guess from it: the guess's translation, no longer fuzzy (msgmerge leaves it a
  fuzzy guess, for a translation made for this very English);
- one it holds neither way gets, from the closest translated message (current or
  obsolete, of any msgctxt) whose msgid is similar enough (:data:`SIMILAR`, as
  msgmerge's fuzzy threshold), that message's translation marked fuzzy, with the old
  msgid kept as ``#| msgid`` for the translator to compare (where it differs); a fuzzy
  translation is not shown (the English is, marked) until a translator confirms it;
- the catalog's other translated messages become obsolete, but those whose
  translation now stands in a fuzzy entry; an untranslated one is dropped (msgmerge
  keeps nothing of either).

Babel's own ``Catalog.update`` does the first and the fourth, but revives no obsolete
message; the candidates are found here and Babel merges exact keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message
from babel.messages.pofile import denormalize
from babel.messages.pofile import normalize

SIMILAR = 0.6
"""How alike two msgids must be for a fuzzy match (difflib's ratio, 0 to 1): GNU
gettext's ``FUZZY_THRESHOLD``, over the same measure (twice the matching characters over
both lengths)."""


def _key(message: Message) -> Any:
    """The key Babel files ``message`` under: its msgid (the singular of a plural
    message), or (msgid, msgctxt) with a context."""
    msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    return (msgid, message.context) if message.context is not None else msgid


def _text(message: Message) -> str:
    """A message's msgid; the singular of a plural message."""
    return str(message.id[0] if isinstance(message.id, (list, tuple)) else message.id)


def _translated(message: Message) -> bool:
    """Whether any form of ``message``'s translation is written."""
    strings = message.string if isinstance(message.string, (list, tuple)) \
        else (message.string,)
    return any(strings)


def _closest(message: Message, candidates: Iterable[Message]) -> Message | None:
    """The translated candidate whose msgid is most like ``message``'s, at least
    :data:`SIMILAR`; the first of equals in ``candidates``' order."""
    text = _text(message)
    matcher = SequenceMatcher(None, b=text, autojunk=False)
    best: Message | None = None
    best_ratio = SIMILAR
    for candidate in candidates:
        if not _translated(candidate):
            continue
        matcher.set_seq1(_text(candidate))
        if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
            continue
        ratio = matcher.ratio()
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = candidate, ratio
    return best


def _strings_as(message: Message, source: Message, forms: int) -> str | tuple[str, ...]:
    """``source``'s translation as a guess for ``message``, as msgmerge makes it: a
    singular translation for a plural message in each of the ``forms`` plural forms, a
    plural one for a singular message its first form."""
    plural = isinstance(message.id, (list, tuple))
    strings = source.string
    if isinstance(strings, (list, tuple)):
        return tuple(strings) if plural else str(strings[0] if strings else "")
    return (str(strings),) * forms if plural else str(strings)


def _without_previous(comments: Iterable[str]) -> list[str]:
    """A message's translator comments but its previous msgid's lines (``#| msgid …``,
    which Babel reads as comments starting with ``|``)."""
    return [c for c in comments if not c.startswith("|")]


_PREVIOUS_FIELD = re.compile(r'(msgctxt|msgid_plural|msgid)\s+(".*)')


def read_previous(catalog: Catalog) -> Catalog:
    """``catalog`` (as Babel read it) with each message's ``#|`` lines, which Babel
    keeps as comments starting with ``|``, read into its ``previous_id`` (msgid, and
    msgid_plural where given) and taken out of its comments; returned."""
    for message in catalog:
        lines = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if not message.id or not lines:
            continue
        fields: dict[str, list[str]] = {}
        field = ""
        for line in lines:
            found = _PREVIOUS_FIELD.match(line)
            if found:
                field = found.group(1)
                fields[field] = [found.group(2)]
            elif field and line.startswith('"'):
                fields[field].append(line)
        previous = [denormalize("\n".join(fields[f])) for f in ("msgid", "msgid_plural")
                    if f in fields]
        message.previous_id = previous
        message.user_comments = _without_previous(message.user_comments)
    return catalog


def with_previous_lines(data: bytes, catalog: Catalog) -> bytes:
    """The catalog ``catalog`` written as ``data`` (Babel's ``write_po`` without its
    previous msgids, in catalog order, no wrapping) with each message's ``#| msgid``
    (and ``#| msgid_plural``) lines put before its msgctxt or msgid, as GNU gettext
    writes them: quoted and continued as the msgid is (Babel's own ``include_previous``
    wraps them as prose at 76 characters, which breaks the quoted text)."""
    text = data.decode("utf-8")
    out: list[str] = []
    at = 0
    for message in catalog:
        if not message.id or not message.previous_id:
            continue
        first = ((f"msgctxt {normalize(message.context, width=0)}\n"
                  if message.context is not None else "")
                 + f"msgid {normalize(_text(message), width=0)}\n")
        found = text.find(f"\n{first}", at)
        if found < 0:  # (not written as expected: left without its previous msgid)
            continue
        lines = [f"#| msgid {normalize(message.previous_id[0], prefix='#| ', width=0)}"]
        if len(message.previous_id) > 1:
            lines.append("#| msgid_plural "
                         f"{normalize(message.previous_id[1], prefix='#| ', width=0)}")
        out.append(text[at:found + 1])
        out.append("".join(f"{line}\n" for line in lines))
        at = found + 1
    out.append(text[at:])
    return "".join(out).encode("utf-8")


@dataclass(frozen=True)
class _Guess:
    """A template message the catalog does not hold, and the translated message whose
    translation it is given.

    Attributes:
        message: the template's message.
        source: the catalog's message (current or obsolete) the translation comes from.
        restored: whether ``message``'s English is the old msgid (``#| msgid``) of the
            fuzzy guess ``source``: the English set back to the text that translation was
            made for, which it fits again (not fuzzy).
    """

    message: Message
    source: Message
    restored: bool


def merge(catalog: Catalog, template: Catalog) -> Catalog:
    """Merge ``template`` into ``catalog`` (changed in place, and returned), as GNU
    ``msgmerge --previous`` does (see the module's docstring), in named steps: revive
    the obsolete messages whose English is back and find a guess for each other new
    message; add the guesses; take the old msgid off every confirmed translation;
    let Babel merge the exact keys, keeping the fuzzy guesses' old msgids; settle the
    guesses (their sources no longer obsolete, their old msgids set); drop the
    untranslated obsolete messages.

    Args:
        catalog: a locale's catalog as read (its obsolete messages included).
        template: the template catalog (``messages.pot``).

    Returns:
        ``catalog``, its messages those of ``template`` in its order, each translated as
        above; what ``template`` no longer holds obsolete.
    """
    obsolete = dict(catalog.obsolete)
    guesses = _revive_and_guess(catalog, template, obsolete)
    _add_guesses(catalog, guesses)
    _forget_confirmed_previous(catalog)
    catalog.obsolete.clear()
    catalog.obsolete.update(obsolete)
    _update_keeping_previous(catalog, template)
    _settle_guesses(catalog, guesses)
    _drop_untranslated_obsolete(catalog)
    return catalog


def _revive_and_guess(catalog: Catalog, template: Catalog, obsolete: dict[Any, Message]
                      ) -> list[_Guess]:
    """For each template message the catalog does not hold: its obsolete entry revived
    into ``catalog`` (and taken out of ``obsolete``) where it has one, else its guess
    (:func:`_guess`) where one is found.

    Returns:
        The guesses, in the template's order.
    """
    current = {_key(m): m for m in catalog if m.id}
    candidates = [*current.values(), *(m for k, m in obsolete.items() if k not in current)]
    made_for = _made_for(current.values())
    guesses: list[_Guess] = []
    for message in template:
        key = _key(message)
        if not message.id or key in current:
            continue
        if key in obsolete:  # English set back: the obsolete entry is the message again
            revived = obsolete.pop(key)
            catalog[revived.id] = revived
            current[key] = revived
            continue
        guess = _guess(message, made_for, candidates)
        if guess is not None:
            guesses.append(guess)
    return guesses


def _made_for(messages: Iterable[Message]) -> dict[tuple[str, str | None], Message]:
    """The translated fuzzy guesses among ``messages`` by their old msgid (``#| msgid``)
    and msgctxt: the English their translation was made for."""
    return {(str(m.previous_id[0]), m.context): m for m in messages
            if m.fuzzy and m.previous_id and _translated(m)}


def _guess(message: Message, made_for: dict[tuple[str, str | None], Message],
           candidates: Iterable[Message]) -> _Guess | None:
    """The translation for a new template ``message``: the fuzzy guess whose old msgid
    is its English (``made_for``: restored), else the closest translated candidate
    (:func:`_closest`), else ``None``."""
    source = made_for.get((_text(message), message.context))
    if source is not None:
        return _Guess(message, source, restored=True)
    source = _closest(message, candidates)
    return None if source is None else _Guess(message, source, restored=False)


def _add_guesses(catalog: Catalog, guesses: Iterable[_Guess]) -> None:
    """Add each guess to ``catalog`` under its template msgid (Babel's merge keeps it):
    its source's translation (:func:`_strings_as`), flags and comments, fuzzy unless
    restored."""
    for found in guesses:
        guess = found.message.clone()
        guess.string = _strings_as(found.message, found.source, catalog.num_plurals)
        guess.flags = set(found.source.flags) | {"fuzzy"}
        if found.restored:
            guess.flags.discard("fuzzy")
        guess.user_comments = list(found.source.user_comments)
        catalog[guess.id] = guess


def _forget_confirmed_previous(catalog: Catalog) -> None:
    """Take the old msgid off every message that is not fuzzy: an old ``#| msgid``
    stands only over a guess still fuzzy."""
    for message in catalog:
        if message.id and not message.fuzzy:
            message.previous_id = []


def _update_keeping_previous(catalog: Catalog, template: Catalog) -> None:
    """Babel's merge of ``template`` into ``catalog`` by exact keys, the old msgids of
    the fuzzy guesses (which Babel's merge drops) put back on those still fuzzy."""
    previous = {_key(m): list(m.previous_id) for m in catalog
                if m.id and m.fuzzy and m.previous_id}
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    for key, ids in previous.items():
        kept = catalog.get(key[0], key[1]) if isinstance(key, tuple) else catalog.get(key)
        if kept is not None and kept.fuzzy:
            kept.previous_id = ids


def _settle_guesses(catalog: Catalog, guesses: Iterable[_Guess]) -> None:
    """Each guess's source no longer obsolete (its translation stands in the guess now),
    and each guess not restored given its source's msgid as its old msgid (where they
    differ)."""
    for found in guesses:
        message, source = found.message, found.source
        catalog.obsolete.pop(_key(source), None)
        merged = catalog.get(message.id, message.context)
        if merged is not None and _key(source) != _key(message) and not found.restored:
            merged.previous_id = list(source.id) if isinstance(source.id, (list, tuple)) \
                else [source.id]


def _drop_untranslated_obsolete(catalog: Catalog) -> None:
    """Drop the obsolete messages without a translation: nothing to keep."""
    for key in [k for k, m in catalog.obsolete.items() if not _translated(m)]:
        del catalog.obsolete[key]
