"""The one Jinja environment of a project's templates (:func:`make_environment`): the
project's ``templates/`` over the theme's, file by file, each template parsed and compiled
once per process, and a locale's gettext callables installed in it
(:func:`install_words`)."""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Callable
from collections.abc import MutableMapping
from functools import cache
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any

from jinja2 import BaseLoader
from jinja2 import Environment
from jinja2 import StrictUndefined
from jinja2 import Template
from jinja2 import TemplateNotFound
from jinja2 import TemplateSyntaxError
from jinja2 import nodes
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from jinja2.runtime import Macro
from markupsafe import Markup
from markupsafe import escape

from generator.i18n.explain import Words
from generator.i18n.templates import TEMPLATE_WHITESPACE
from generator.layout import Layout
from generator.layout import NotAnInput


class TemplateLoader(BaseLoader):
    """Jinja's ``FileSystemLoader`` of two folders, the project's ``templates/`` first,
    then the theme's (as MkDocs' ``custom_dir``), every template read through
    :meth:`Layout.read` (a FIFO, a folder or a link out of the project is not loaded,
    and not replaced by the theme's file either: it is an error to report)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def get_source(self, environment: Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        rel = self.layout.template_label(template)
        if rel is None:
            raise TemplateNotFound(template)
        try:
            data = self.layout.read(rel)
        except NotAnInput as exc:
            raise TemplateNotFound(template, exc.error.format()) from exc
        path = self.layout.path(rel)
        mtime = os.path.getmtime(path)

        def uptodate() -> bool:  # also: no override added or removed since
            try:
                return os.path.getmtime(path) == mtime \
                    and self.layout.template_label(template) == rel
            except OSError:
                return False

        return data.decode("utf-8"), str(path), uptodate

    def list_templates(self) -> list[str]:
        return list(self.layout.templates([]))

    def load(self, environment: Environment, name: str,
             globals: MutableMapping[str, Any] | None = None) -> Template:
        """Jinja's ``BaseLoader.load``, compiling the syntax tree :func:`template_errors`
        parsed (:func:`parsed_template`), so that each template is parsed once, not twice."""
        source, filename, uptodate = self.get_source(environment, name)
        return environment.template_class.from_code(
            environment, compiled_template(name, source, filename), globals or {}, uptodate)


def make_environment(project: Path | Layout) -> Environment:
    """The one Jinja environment of a project's templates, its ``templates/`` over the
    theme's, file by file (made once per process for each of the last
    :data:`ENVIRONMENTS` projects, shared by every locale and inherited by forked
    workers): autoescape (HTML and XML alike: ``page.html``, ``sitemap.xml``),
    i18n (newstyle gettext), strict undefined. Templates are read through the project's
    layout (a project's: only regular files inside the project; the theme's: from the
    package) and compiled on first use, each text once per process, whichever
    environment loads it (:func:`compiled_template`)."""
    return _environment(Layout.of(project))


_OPTIONS: dict[str, Any] = {
    "autoescape": True,
    "extensions": ["jinja2.ext.i18n"],
    "undefined": StrictUndefined,
    "optimized": False,
    **TEMPLATE_WHITESPACE,
}
"""The options of every environment :func:`make_environment` makes: the same for each,
so that a template's syntax tree and code serve them all (:func:`compiled_template`).
Jinja's optimizer is off: it folds constant expressions into the syntax tree it
compiles, in place, and that tree is the one the template checks and the messages the
templates use are read from (:func:`parsed_template`), which must not depend on what
this process compiled before (the site's bytes are the same either way)."""


_CARD_CODE = re.compile(r"(?<![\w♥♦♣♠→])(?:JK→)?(?:(?:10|[2-9JQKA])[♥♦♣♠]|JK)(?![\w♥♦♣♠→])")
"""A card written as its code in a sentence of the engine's (``J♥``, ``10♠``, ``JK``, a
joker and the card it stands for ``JK→8♥``: :mod:`generator.engine.cards`)."""


def card_codes(text: str) -> Markup:
    """``text`` escaped, each card code in it (:data:`_CARD_CODE`) wrapped in a
    ``<span class="card-code" data-pagefind-ignore>``: the search index leaves the codes
    out (a one-letter rank would match any word that starts with it) and keeps the words
    around them. The filter ``card_codes`` of every environment.

    Args:
        text: a sentence (plain text, not yet escaped).

    Returns:
        The sentence as HTML.
    """
    return Markup(mark_card_codes(str(escape(text))))


def mark_card_codes(html: str) -> str:
    """``html`` (text already escaped, no tags) with each card code in it
    (:data:`_CARD_CODE`) wrapped as :func:`card_codes` wraps it."""
    return _CARD_CODE.sub(
        lambda m: f'<span class="card-code" data-pagefind-ignore>{m[0]}</span>', html)


try:  # markupsafe 3: its escaping of text, giving str (no Markup made)
    from markupsafe import _escape_inner as _escaped_text  # type: ignore[attr-defined]
except ImportError:  # markupsafe 2: the same replacements, as its pure-Python module makes them
    def _escaped_text(s: str, /) -> str:
        return (s.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
                .replace("'", "&#39;").replace('"', "&#34;"))

_as_markup = str.__new__
"""Makes a :class:`Markup` of a str without ``Markup.__new__``, whose look for an
``__html__`` method raises and catches an AttributeError on every str."""


def template_escape(value: Any, /) -> Markup:
    """What ``{{ value }}`` writes in an autoescaped template: markupsafe's ``escape``,
    the same result, faster for the two values templates write most: text (escaped by
    markupsafe's own function, made :class:`Markup` directly) and Markup (safe already:
    itself, where ``escape`` makes a copy). Anything else goes to ``escape``. A call
    takes about 0.18 µs for text where ``escape`` takes 0.46, and 0.08 µs for Markup
    where it takes 0.53.

    Args:
        value: any value a template writes.

    Returns:
        ``value`` as HTML: ``escape(value)``, equal and of type :class:`Markup`.
    """
    if type(value) is str:
        return _as_markup(Markup, _escaped_text(value))
    if type(value) is Markup:
        return value
    return escape(value)


class SiteTemplate(Template):
    """Jinja's template, its code calling :func:`template_escape` where Jinja's calls
    ``escape`` (the name its compiled module imports, looked up in the module's
    namespace at each call)."""

    @classmethod
    def from_code(cls, environment: Environment, code: CodeType,
                  globals: MutableMapping[str, Any],
                  uptodate: Callable[[], bool] | None = None) -> Template:
        """A template of ``code`` (:meth:`jinja2.Template.from_code`)."""
        template = super().from_code(environment, code, globals, uptodate)
        template.root_render_func.__globals__["escape"] = template_escape
        return template


_DICT_NAMES = frozenset(dir(dict))
"""The attributes of a dict (``items``, ``get``, ...): what ``x.name`` finds on a dict
before its key ``name``."""


def _macro_parts_known() -> bool:
    """Whether Jinja's :class:`~jinja2.runtime.Macro` keeps what
    :meth:`SiteContext.call` reads to call one straight away (its function, its count of
    arguments, its default escaping, its environment): Jinja 3.1's do. Another version's
    macros are called through :meth:`Macro.__call__` alone."""
    probe = Macro(Environment(), lambda: "", "probe", [], False, False, False, True)
    return all(hasattr(probe, name) for name in (
        "_func", "_argument_count", "_default_autoescape", "_environment", "caller",
        "catch_kwargs", "catch_varargs"))


_MACRO_PARTS = _macro_parts_known()


class SiteContext(Context):
    """Jinja's template context, calling a macro straight away: a macro takes no
    context, environment or evaluation context as its first argument, so Jinja's search
    for one (:meth:`jinja2.runtime.Context.call`) finds none; a case row calls twenty
    macros and more. A macro given exactly its arguments, by position, that takes no
    ``caller``, ``varargs`` or ``kwargs``, runs its function directly: what
    :meth:`Macro.__call__` would hand it (every argument given, none to fill in or
    check), and its text made :class:`Markup` as ``Macro._invoke`` makes it (without
    ``Markup.__new__``'s look for an ``__html__`` method, which raises and catches an
    AttributeError on every str). At 700 pages, 600,000 calls."""

    def call(__self, __obj: Callable[..., Any], *args: Any,  # Jinja's names: a keyword
             **kwargs: Any) -> Any:  # argument may be named "self" or "obj"
        """Call ``__obj`` with the arguments (:meth:`jinja2.runtime.Context.call`)."""
        if type(__obj) is not Macro:
            gettext, ngettext = __self.environment.gettext_calls  # type: ignore[attr-defined]
            if __obj is not gettext and __obj is not ngettext:  # (by identity: an
                return super().call(__obj, *args, **kwargs)  # undefined fails "==")
            args = (__self.eval_ctx, *args)  # (they take the evaluation context)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            if (_MACRO_PARTS and not kwargs and type(__obj) is Macro
                    and len(args) == __obj._argument_count
                    and not (__obj.caller or __obj.catch_kwargs or __obj.catch_varargs
                             or __obj._environment.is_async)):
                text = __obj._func(*args)
                return _as_markup(Markup, text) if __obj._default_autoescape else text
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception")


class SiteEnvironment(Environment):
    """Jinja's environment, with ``x.name`` on a plain dict (a view: a row, a card, a
    page) looked up as its key first when ``name`` is no attribute of a dict: the same
    value as Jinja's own lookup (the attribute, else the key), without raising and
    catching an AttributeError each time (four million lookups at 700 pages); and
    contexts of :class:`SiteContext` and templates of :class:`SiteTemplate`."""

    context_class = SiteContext
    template_class = SiteTemplate
    gettext_calls: tuple[Callable[..., Any] | None, Callable[..., Any] | None] = (None, None)
    """The locale's ``_``/``gettext`` and ``ngettext`` (:func:`install_gettext`), which a
    context calls with its evaluation context, as Jinja's own call would find they want
    it (``pass_eval_context``), without looking for that on every call (each message a
    template shows)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` in a template (:meth:`jinja2.Environment.getattr`)."""
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def _new_environment(**loader: Any) -> Environment:
    """An environment of :data:`_OPTIONS`, with newstyle gettext from the start: how
    ``{% trans %}`` compiles depends on it (``install_gettext`` sets it again for each
    locale, but a template compiled before that compiled old-style: a project's
    ``{% trans who=x %}…{{ who }}…{% endtrans %}`` failed with ``KeyError: 'who'``)."""
    env = SiteEnvironment(**loader, **_OPTIONS)
    env.filters["card_codes"] = card_codes
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    return env


ENVIRONMENTS = 4
"""The environments :func:`make_environment` keeps in a process, the last used: a build
or ``serve`` uses one project's. A process that builds many projects (the test run
builds 200) keeps only these: every one's templates would be 330,000 objects in a test
worker, whose garbage collections at the end would take seconds."""


@lru_cache(maxsize=ENVIRONMENTS)
def _environment(layout: Layout) -> Environment:
    return _new_environment(loader=TemplateLoader(layout))


@cache
def _compiler() -> Environment:
    """The environment that parses and compiles templates for every environment of
    :func:`make_environment` (the same options; neither step needs a loader, nor the
    globals a locale installs)."""
    return _new_environment()


TEMPLATES = ("page.html", "home.html", "404.html", "cases.html", "root.html")
"""The templates the site is rendered from (each may extend, include or import others)."""


@lru_cache(maxsize=256)
def parsed_template(name: str, source: str, filename: str) -> nodes.Template:
    """A template's syntax tree, parsed once per source text in a process (``serve``
    rebuilds check the same templates again and again, and a process that builds
    several projects, as the tests do, finds the theme's templates the same).

    Raises:
        TemplateSyntaxError: the source does not parse (not kept: raised every time),
            its expressions nested too deep for Jinja's parser among the reasons.
    """
    try:
        return _compiler().parse(source, name, filename)
    except RecursionError:
        raise _too_deep(name, filename) from None


@lru_cache(maxsize=256)
def compiled_template(name: str, source: str, filename: str) -> CodeType:
    """A template's code (Jinja's ``Environment.compile`` of :func:`parsed_template`'s tree),
    compiled once per source text in a process, for every environment that loads it
    (:meth:`TemplateLoader.load`): compiling is most of a template's loading, and a
    new environment (a build of another project) loads the same theme.

    Raises:
        TemplateSyntaxError: the source does not parse or compile (not kept).
    """
    tree = parsed_template(name, source, filename)
    try:
        return _compiler().compile(tree, name, filename)
    except (RecursionError, SyntaxError):  # (Python refuses the code Jinja made of it:
        # blocks nested deeper than it compiles, 21 {% for %} or about 100 {% if %})
        raise _too_deep(name, filename) from None


def _too_deep(name: str, filename: str) -> TemplateSyntaxError:
    """The error of a template nested deeper than Jinja parses and compiles it (Python's
    recursion limit, or the nesting Python compiles): at its first line, as no line of
    the template is known."""
    return TemplateSyntaxError("nested too deep for Jinja (parentheses, calls, filters or "
                               "blocks within one another)", 1, name, filename)


class _Voice:
    """The words an environment's gettext callables say now (:func:`install_words`)."""

    def __init__(self, words: Words) -> None:
        self.words = words


_VOICES: weakref.WeakKeyDictionary[Environment, _Voice] = weakref.WeakKeyDictionary()
"""Each environment's voice, for as long as the environment lives."""


def install_words(env: Environment, w: Words) -> None:
    """Make ``env``'s gettext callables say this locale's words. They are installed once
    per environment and look the words up as they are called: a macro of a template
    imported without context (``{% import "x.html" as x %}``), whose module Jinja keeps
    from its first use with the globals of then, says the locale rendered now. Jinja's
    newstyle gettext marks what they return as safe HTML, so they return the translation
    escaped: a translation is text, never markup (a ``<script>`` in a catalog renders as
    text)."""
    voice = _VOICES.get(env)
    if voice is not None:
        voice.words = w
        return
    voice = _VOICES[env] = _Voice(w)

    def gettext(msgid: str) -> Markup:
        return template_escape(voice.words.text(msgid))

    def ngettext(singular: str, plural: str, n: int) -> Markup:
        return npgettext(None, singular, plural, n)

    def pgettext(context: str | None, msgid: str) -> Markup:
        return template_escape(voice.words.text(msgid, context))

    def npgettext(context: str | None, singular: str, plural: str, n: int) -> Markup:
        words = voice.words
        text, ok = words.translator.ngettext(singular, plural, n, context)
        return template_escape(words.as_shown(text, ok))

    install_gettext(env, gettext, ngettext, pgettext, npgettext)


def install_gettext(env: Environment, gettext: Callable[[str], str],
                    ngettext: Callable[[str, str, int], str],
                    pgettext: Callable[[str | None, str], str] | None = None,
                    npgettext: Callable[[str | None, str, str, int], str] | None = None
                    ) -> None:
    """Jinja's newstyle gettext (``jinja2.ext.i18n``, ``install_gettext_callables(...,
    newstyle=True)``) over ``gettext`` and ``ngettext``, with the same results: what
    they return marked safe where autoescaping is on, then ``%``-formatted with the
    call's keywords (``num`` too, for ``ngettext``). But ``_``, ``gettext`` and
    ``ngettext`` are each one call from a template, not Jinja's three (the alias ``_``
    that looks ``gettext`` up, its wrapper, the function), and ``_`` is ``gettext``
    itself, not looked up in the template's context: the templates call them some
    thirty times a page. The messages with a context (``pgettext``, ``npgettext``,
    ``{% trans "context" %}``), where given, are Jinja's own newstyle wrappers over
    ``pgettext`` and ``npgettext``."""

    @pass_eval_context
    def newstyle_gettext(eval_ctx: EvalContext, string: str, /, **variables: Any) -> str:
        rv = gettext(string)
        if eval_ctx.autoescape and type(rv) is not Markup:  # (Markup: safe already)
            rv = Markup(rv)
        # (without a '%', formatting with no keywords gives the text itself)
        return rv % variables if variables or "%" in rv else rv

    @pass_eval_context
    def newstyle_ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /,
                          **variables: Any) -> str:
        variables.setdefault("num", num)
        rv = ngettext(singular, plural, num)
        if eval_ctx.autoescape and type(rv) is not Markup:
            rv = Markup(rv)
        return rv % variables

    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True,  # (sets how {% trans %} compiles)
        pgettext=pgettext, npgettext=npgettext)
    env.globals.update(_=newstyle_gettext, gettext=newstyle_gettext,
                       ngettext=newstyle_ngettext)
    if isinstance(env, SiteEnvironment):
        env.gettext_calls = (newstyle_gettext, newstyle_ngettext)
