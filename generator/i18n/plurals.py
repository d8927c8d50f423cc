"""Plural rules: a locale's gettext rule (from Babel's CLDR data), and how a catalog's
own ``Plural-Forms`` expression is compared with it."""

from __future__ import annotations

import gettext
from functools import lru_cache

from babel.messages.plurals import get_plural

from generator.i18n.header import LocaleForms

FORM_HINTS = {
    "cs": "[0] 1, [1] 2-4, [2] other",
    "sk": "[0] 1, [1] 2-4, [2] other",
    "pl": "[0] 1, [1] 2-4 and 22-24…, [2] other",
    "et": "[0] 1, [1] other",
    "de": "[0] 1, [1] other",
    "hu": "[0] 1, [1] other",
}
"""The counts each plural form of a locale is for, in gettext's order, as an error about
a wrong number of forms shows them (other locales: "see Plural-Forms")."""


class PluralRule:
    """A gettext plural rule compiled from a ``Plural-Forms`` header (e.g. cs: 3 forms).

    Calling it with a count returns the index of the plural form to use.
    """

    def __init__(self, expression: str, nplurals: int) -> None:
        self.nplurals = nplurals
        self.expression = expression
        self._fn = gettext.c2py(expression)

    def __call__(self, n: int) -> int:
        return int(self._fn(n))


def plural_rule(locale: str) -> PluralRule:
    """The gettext plural rule Babel gives for ``locale`` (CLDR-derived; cs/sk: 3 forms)."""
    info = get_plural(locale)
    return PluralRule(info.plural_expr, info.num_plurals)


@lru_cache(maxsize=64)
def locale_forms(locale: str) -> LocaleForms:
    """What ``locale``'s ``Plural-Forms`` must say (:class:`LocaleForms`)."""
    rule = plural_rule(locale)
    return LocaleForms(locale, rule.nplurals, rule.expression,
                       lambda expression: _plural_differs(expression, rule))


PLURAL_CHECKED = (*range(1000), *(10**k + d for k in range(3, 10) for d in range(-2, 25)))
"""The counts at which a catalog's own plural expression is compared with the locale's:
0-999 (every rule of CLDR's gettext forms repeats within ``n % 100`` from 100 on) and
a few around each power of ten up to 10⁹ (a rule that singles out a large count)."""


@lru_cache(maxsize=64)
def single_count_forms(locale: str) -> frozenset[int]:
    """The indexes of ``locale``'s plural forms that its rule (:func:`plural_rule`) uses
    for one count alone among :data:`PLURAL_CHECKED` (cs: form 0, for 1): such a form
    names its count by itself, so its translation may leave the number out ("Jedna
    hruška"), as GNU ``msgfmt -c`` allows."""
    rule = plural_rule(locale)
    counts: dict[int, int] = {}
    for n in PLURAL_CHECKED:
        form = rule(n)
        counts[form] = counts.get(form, 0) + 1
    return frozenset(form for form, seen in counts.items() if seen == 1)


def _plural_differs(expression: str, rule: PluralRule) -> str | None:
    """Why a catalog's plural expression is not the locale's ``rule`` (translators'
    tools number the forms by it: msgstr[1] written for "2-4" is shown for the counts
    the locale's rule gives form 1), or ``None`` when it picks the same form for every
    count of :data:`PLURAL_CHECKED` (written alike or not)."""
    if " ".join(expression.split()) == " ".join(rule.expression.split()):
        return None
    try:
        theirs = PluralRule(expression, rule.nplurals)
    except (ValueError, SyntaxError, RecursionError):  # gettext.c2py's refusals
        return "which gettext cannot read"
    for n in PLURAL_CHECKED:
        try:
            form = theirs(n)
        except ArithmeticError:  # n/0, n%0
            return f"which gettext cannot work out for {n}"
        if form != rule(n):
            return f"which gives msgstr[{form}] for {n} where the locale uses msgstr[{rule(n)}]"
    return None
