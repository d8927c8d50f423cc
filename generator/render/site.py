"""Rendering the whole site: every page in every locale, with one Jinja environment.

Per locale the gettext callables are installed once, the case macros bound once, and
each case row and case table rendered once and reused on every page that shows it.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import MutableMapping
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from functools import cache
from functools import lru_cache
from functools import partial
from pathlib import Path
from pathlib import PurePosixPath
from types import CodeType
from typing import Any

from babel.core import Locale
from jinja2 import BaseLoader
from jinja2 import Environment
from jinja2 import StrictUndefined
from jinja2 import Template
from jinja2 import TemplateError
from jinja2 import TemplateNotFound
from jinja2 import TemplateSyntaxError
from jinja2 import UndefinedError
from jinja2 import nodes
from jinja2 import pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup
from markupsafe import escape

from generator.cache import BuildCache
from generator.config import ICON_TYPES
from generator.config import Config
from generator.config import static_url
from generator.content.pages import Fence
from generator.content.pages import SourcePage
from generator.content.rule_numbers import facts
from generator.digests import digest
from generator.errors import InputError
from generator.errors import quoted
from generator.i18n.catalog import Key
from generator.i18n.catalog import Lookups
from generator.i18n.catalog import Translator
from generator.i18n.catalog import language_tag
from generator.i18n.coverage import Coverage
from generator.i18n.explain import Words
from generator.kinds import REGISTRY
from generator.layout import NOT_FOUND
from generator.layout import ROOT_INDEX
from generator.layout import SITEMAP
from generator.layout import STATIC_OUT
from generator.layout import TEMPLATES as TEMPLATES_DIR
from generator.layout import THEME_LABEL
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import catalog
from generator.layout import home_output
from generator.layout import not_found_output
from generator.layout import page_output
from generator.layout import search_output
from generator.output import SiteWriter
from generator.render.errors import call_macro
from generator.render.fallbacks import mark_english
from generator.render.incremental import RenderKeys
from generator.render.markdown import LocalePage
from generator.render.markdown import PageRenderer
from generator.render.markdown import make_markdown
from generator.render.views import View
from generator.render.views import case_row
from generator.render.views import deck_table
from generator.render.views import presets_table
from generator.verify import CaseResult


def strict_lines(locale: str, coverage: Coverage) -> list[str]:
    """One line per message shown in English, at the line of the ``.po`` to fix (a fuzzy
    message's msgid, an empty msgstr, a plural message's empty ``msgstr[N]``), or at
    line 1 when the catalog lacks it (run ``i18n update``); the msgid cut at 60
    characters (:func:`generator.errors.quoted`)."""
    rel = catalog(locale)
    lines = [f"{rel}:{line or 1}: {what} of {quoted(msgid)} (--strict); expected it "
             "translated" for msgid, line, what in coverage.missing[:20]]
    if len(coverage.missing) > 20:
        lines.append(f"{rel}:1: and {len(coverage.missing) - 20} more untranslated or "
                     "fuzzy messages (--strict)")
    return lines


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
        parsed (:func:`_parsed`), so that each template is parsed once, not twice."""
        source, filename, uptodate = self.get_source(environment, name)
        return environment.template_class.from_code(
            environment, _compiled(name, source, filename), globals or {}, uptodate)


def make_environment(project: Path | Layout) -> Environment:
    """The one Jinja environment of a project's templates, its ``templates/`` over the
    theme's, file by file (made once per process for each of the last
    :data:`ENVIRONMENTS` projects, shared by every locale and inherited by forked
    workers): autoescape (HTML and XML alike: ``page.html``, ``sitemap.xml``),
    i18n (newstyle gettext), strict undefined. Templates are read through the project's
    layout (a project's: only regular files inside the project; the theme's: from the
    package) and compiled on first use, each text once per process, whichever
    environment loads it (:func:`_compiled`)."""
    return _environment(Layout.of(project))


_OPTIONS: dict[str, Any] = {
    "autoescape": True,
    "extensions": ["jinja2.ext.i18n"],
    "undefined": StrictUndefined,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
}
"""The options of every environment :func:`make_environment` makes: the same for each,
so that a template's syntax tree and code serve them all (:func:`_compiled`)."""


def _new_environment(**loader: Any) -> Environment:
    """An environment of :data:`_OPTIONS`, with newstyle gettext from the start: how
    ``{% trans %}`` compiles depends on it (``install_gettext`` sets it again for each
    locale, but a template compiled before that compiled old-style: a project's
    ``{% trans who=x %}…{{ who }}…{% endtrans %}`` failed with ``KeyError: 'who'``)."""
    env = Environment(**loader, **_OPTIONS)
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    return env


ENVIRONMENTS = 4
"""The environments :func:`make_environment` keeps in a process, the last used: a build
or ``serve`` uses one project's. A process that builds many projects (the test run
builds 200) no longer keeps every one's templates: the test workers held 330,000 objects
in them, and their garbage collections at the end took seconds."""


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


def template_errors(root: Path | Layout) -> list[InputError]:
    """Every input error of the templates the site uses that shows without rendering
    them (docs/site.md, ``check``): the project's overrides in ``templates/`` and the theme's
    other templates (:meth:`generator.layout.Layout.templates`). A template file that is
    not an input (a FIFO, a folder, a link out of the project), a template the site needs
    that is missing, a template that is not UTF-8, a Jinja syntax error, an ``extends``,
    ``include`` or ``import`` of a named template that does not exist. The files of
    ``templates/static/`` and ``templates/root/`` are published as they are, no
    templates. Each of the project's templates is compiled here too, in the shared
    environment (:func:`make_environment`), so rendering reuses it: compiling finds
    what parsing does not (an unknown filter or test, a block defined twice). The
    theme's are parsed here and compiled when first rendered (each compiles: the
    tests hold every one to it), so a ``check`` compiles none of them.

    Args:
        root: the project folder (its ``templates/``) or its layout.

    Returns:
        The errors, at the template's label and line (``templates/NAME:LINE`` for a
        project's template, ``generator/theme/NAME:LINE`` for the theme's; line 1 for a
        missing template); errors only rendering can meet (an undefined variable, a
        division by zero) are not among them.
    """
    layout = Layout.of(root)
    env = make_environment(layout)
    errors: list[InputError] = []
    used = layout.templates(errors)
    names = set(used)
    errors += [InputError(f"{TEMPLATES_DIR}/{name}", 1, None, "the template is missing; "
                          "expected the templates " + ", ".join(TEMPLATES) + " in templates/ "
                          "or in the theme")
               for name in TEMPLATES if layout.template_label(name) is None]
    trees: dict[str, nodes.Template] = {}
    imports: list[tuple[str, nodes.FromImport | nodes.Import]] = []  # (importing, import)
    for name, rel in used.items():
        try:
            data = layout.read(rel)
        except NotAnInput as exc:
            errors.append(exc.error)
            continue
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            errors.append(InputError(rel, data.count(b"\n", 0, exc.start) + 1, None,
                                     "the template is not valid UTF-8; expected UTF-8 text"))
            continue
        try:
            tree = trees[name] = _parsed(name, source, str(layout.path(rel)))
            if not rel.startswith(f"{THEME_LABEL}/"):
                env.get_template(name)  # (compiling finds what parsing does not)
        except TemplateSyntaxError as exc:
            problem = (exc.message or "").rstrip(".")
            errors.append(InputError(rel, exc.lineno or 1, None, f"template syntax error: "
                                     f"{problem}; expected a template Jinja can parse"))
            continue
        for node in _references(tree):
            if isinstance(node, (nodes.FromImport, nodes.Import)):
                imports.append((name, node))
            target = getattr(node, "template", None)
            if isinstance(target, nodes.Const) and isinstance(target.value, str) \
                    and target.value not in names \
                    and not getattr(node, "ignore_missing", False) \
                    and layout.template_label(target.value) is None:
                # (one that exists but is not a template file, e.g. a folder named
                # base.html, is reported at its own name by Layout.template_files)
                errors.append(InputError(rel, node.lineno, None, f"template "
                                         f"{target.value!r} not found; expected one of: "
                                         + ", ".join(sorted(names))))
    errors += _missing_imports(layout, used, trees, imports)
    errors += _import_cycles(used, trees)
    return errors


def _missing_imports(layout: Layout, used: dict[str, str], trees: dict[str, nodes.Template],
                     imports: list[tuple[str, nodes.FromImport | nodes.Import]]
                     ) -> list[InputError]:
    """Each macro the templates the site uses take from another template that it does not
    define: an override copied from an older theme lacks a macro a newer theme's
    template uses, which only the build met, at the using template. Two forms:
    ``{% from "NAME" import MACRO %}`` (Jinja: "does not export the requested name"),
    named at the import; ``{% import "NAME" as m %}`` then ``m.MACRO`` (Jinja: "has no
    attribute"), named where ``m.MACRO`` is used, unless the template asks first
    (``m.MACRO is defined``) or binds ``m`` otherwise too. A name the template sets as
    text (``{% set NAME %}…{% endset %}``) and the other calls is named where it is
    called (Jinja: "'Markup' object is not callable"). Each error names the template that
    lacks the macro and, for an override whose theme template has it, where to copy it
    from.

    Args:
        layout: the project's layout (to read the theme's own copy of an override).
        used: the templates the site uses (name → label, :meth:`Layout.templates`).
        trees: their syntax trees, by name (those that parse).
        imports: every ``from`` import and ``import … as`` found in them, with the
            importing template's name.
    """
    errors = []
    exports: dict[str, dict[str, bool]] = {}  # by template name: walked once
    facts: dict[str, _Uses] = {}  # by importing template name: walked once
    for name, node in imports:
        target = node.template
        if not (isinstance(target, nodes.Const) and isinstance(target.value, str)):
            continue
        source = trees.get(target.value)
        if source is None:
            continue  # not found (reported above), or not parsed
        if target.value not in exports:
            exports[target.value] = _exports(source, trees.get)
        found = exports[target.value]
        label = used[target.value]
        if name not in facts:
            facts[name] = _uses(trees[name])
        does = facts[name]
        if isinstance(node, nodes.FromImport):
            pairs = [item if isinstance(item, tuple) else (item, item) for item in node.names]
            uses = [(node.lineno, macro, f"imports {{}} from {target.value!r},")
                    for macro, alias in pairs if _used(does, alias)]
            calls = [(line, macro, f"calls {{}}, imported from {target.value!r},")
                     for macro, alias in pairs if not does.bound_elsewhere(alias)
                     for line in does.called.get(alias, [])]
        else:
            uses, calls = _module_uses(does, node.target, target.value)
        for line, macro, what in dict.fromkeys(uses):  # (one error a line and name)
            if macro not in found:
                errors.append(_lacking(layout, used[name], line, what.format(macro), label,
                                       target.value, macro, "does not define"))
        for line, macro, what in dict.fromkeys(calls):
            if found.get(macro) is False:
                errors.append(_lacking(layout, used[name], line, what.format(macro), label,
                                       target.value, macro, "sets as text ({% set %}…"
                                       "{% endset %}), not as a macro"))
    return errors


def _import_cycles(used: dict[str, str], trees: dict[str, nodes.Template]
                   ) -> list[InputError]:
    """Each template that imports, at its module's level, a template that leads back to
    it through such imports (itself too): Jinja runs a module's imports whenever it is
    imported, so the build fails with "maximum recursion depth exceeded". Named at the
    import that starts the circle, with the circle. (An import inside a macro runs only
    when the macro is called: not counted.)

    Args:
        used: the templates the site uses (name → label).
        trees: their syntax trees, by name (those that parse).
    """
    edges = {name: _module_imports(tree) for name, tree in trees.items()}
    errors = []
    for name in sorted(edges):
        for line, target in edges[name]:
            path = _path_back(edges, target, name)
            if path is not None:
                circle = " → ".join([name, *path])
                errors.append(InputError(used[name], line, None, f"imports {target!r}, "
                                         f"which leads back to it ({circle}); expected "
                                         "templates that do not import one another in a "
                                         "circle"))
                break
    return errors


def _module_imports(tree: nodes.Template) -> list[tuple[int, str]]:
    """The imports a template runs at its module's level (:func:`_module_level`), each
    (line, the named template)."""
    return [(node.lineno, node.template.value) for node, _ in _module_level(tree)
            if isinstance(node, (nodes.Import, nodes.FromImport))
            and isinstance(node.template, nodes.Const)
            and isinstance(node.template.value, str)]


def _module_level(tree: nodes.Template | None) -> Iterator[tuple[nodes.Node, bool]]:
    """The statements a template runs in its module's scope, in order: its top level and
    the branches of its top-level ``if``s (Jinja runs those in the module's scope), each
    with whether it sits in such a branch (it may not run); not what a macro, loop,
    block or ``with`` holds (their own scopes)."""
    todo: list[tuple[nodes.Node, bool]] = [(n, False) for n in tree.body] if tree else []
    while todo:
        node, branch = todo.pop(0)
        if isinstance(node, nodes.If):
            todo[:0] = [(n, True) for n in (*node.body, *node.elif_, *node.else_)]
        else:
            yield node, branch


def _path_back(edges: dict[str, list[tuple[int, str]]], start: str, goal: str
               ) -> list[str] | None:
    """The templates from ``start`` to ``goal`` along ``edges`` (breadth first), or
    ``None`` when there is no such path."""
    seen = {start}
    queue = [[start]]
    while queue:
        path = queue.pop(0)
        if path[-1] == goal:
            return path
        for _, nxt in edges.get(path[-1], []):
            if nxt not in seen:
                seen.add(nxt)
                queue.append([*path, nxt])
    return None


def _lacking(layout: Layout, where: str, line: int, what: str, label: str, target: str,
             macro: str, how: str) -> InputError:
    """The error of a template (``where``, at ``line``) that uses ``macro`` of ``target``
    (the template ``label``), which lacks it (``how``); for an override, whether the
    theme's own copy has the macro to copy."""
    advice = ""
    theme = f"{THEME_LABEL}/{target}"
    if label != theme and _exports(_theme_tree(layout, target)).get(macro):
        advice = f" (the theme's has it: copy it from {theme})"
    return InputError(where, line, None, f"{what} which {label} {how}{advice}; expected a "
                      "macro of that template")


_ASKING = frozenset({"defined", "undefined", "default", "d"})
"""The tests and filters that ask about a name without using it (``x is defined``,
``x | default(…)``): Jinja's undefined is no error there. (``x is callable`` is no such
question: an undefined is callable, and fails when called.)"""


@dataclass
class _Uses:
    """What a template does with names, gathered in one walk of its tree (:func:`_uses`):
    the checks of each import look here, not through the tree again."""

    loaded: set[str] = field(default_factory=set)
    """Names read (``{{ name }}``, ``name(…)``)."""
    rebound: set[str] = field(default_factory=set)
    """Names bound otherwise than by an import: ``set``, a loop's or a macro's argument."""
    imported: dict[str, int] = field(default_factory=dict)
    """How many imports bind each name."""
    asked: set[str] = field(default_factory=set)
    """Names asked about (:data:`_ASKING`)."""
    called: dict[str, list[int]] = field(default_factory=dict)
    """The lines where each name is called."""
    members: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    """By name: each ``name.NAME`` or ``name["NAME"]`` (line, NAME)."""
    members_asked: dict[str, set[str]] = field(default_factory=dict)
    """By name: the NAMEs of ``name.NAME`` asked about (:data:`_ASKING`)."""
    members_checked: dict[str, set[str]] = field(default_factory=dict)
    """By name: the NAMEs of ``name.NAME`` asked about or tested ``is callable``."""
    members_called: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    """By name: each ``name.NAME(…)`` (line, NAME)."""

    def bound_elsewhere(self, name: str) -> bool:
        """Whether the template binds ``name`` otherwise than by one import."""
        return name in self.rebound or self.imported.get(name, 0) > 1


@lru_cache(maxsize=256)
def _references(tree: nodes.Template) -> tuple[nodes.Node, ...]:
    """The ``extends``, ``include``, ``import`` and ``from`` nodes of ``tree``, in the
    tree's order, found once per tree in a process, as :func:`_uses` is (a tree is
    :func:`_parsed`'s, one per template text): checking the templates of another
    project with the same theme walks no tree again."""
    return tuple(tree.find_all((nodes.Extends, nodes.Include, nodes.Import,
                                nodes.FromImport)))


@lru_cache(maxsize=256)
def _uses(tree: nodes.Template) -> _Uses:
    """What ``tree`` does with names (:class:`_Uses`), in one walk, once per tree in a
    process (:func:`_references`); the result is shared: read it, never change it."""
    found = _Uses()
    for node in tree.find_all((nodes.Name, nodes.Import, nodes.FromImport, nodes.Test,
                               nodes.Filter, nodes.Getattr, nodes.Getitem, nodes.Call)):
        if isinstance(node, nodes.Name):
            if node.ctx == "load":
                found.loaded.add(node.name)
            elif node.ctx in ("store", "param"):
                found.rebound.add(node.name)
        elif isinstance(node, (nodes.Import, nodes.FromImport)):
            for name in _bound(node):
                found.imported[name] = found.imported.get(name, 0) + 1
        elif isinstance(node, (nodes.Test, nodes.Filter)):
            if node.name not in _ASKING and node.name != "callable":
                continue
            if isinstance(node.node, nodes.Name) and node.name in _ASKING:
                found.asked.add(node.node.name)
            member = _member(node.node) if node.node is not None else None
            if member is not None:
                found.members_checked.setdefault(member[0], set()).add(member[1])
                if node.name in _ASKING:
                    found.members_asked.setdefault(member[0], set()).add(member[1])
        elif isinstance(node, (nodes.Getattr, nodes.Getitem)):
            member = _member(node)
            if member is not None:
                found.members.setdefault(member[0], []).append((node.lineno, member[1]))
        elif isinstance(node, nodes.Call):
            if isinstance(node.node, nodes.Name):
                found.called.setdefault(node.node.name, []).append(node.lineno)
            member = _member(node.node)
            if member is not None:
                found.members_called.setdefault(member[0], []).append(
                    (node.lineno, member[1]))
    return found


def _module_uses(uses: _Uses, alias: str, target: str
                 ) -> tuple[list[tuple[int, str, str]], list[tuple[int, str, str]]]:
    """What a template takes of the module it imports as ``alias`` (``{% import target
    as alias %}``; ``uses``: what the template does, :func:`_uses`): each
    ``alias.NAME`` or ``alias["NAME"]`` (line, NAME, how it is said), those it calls
    apart. None where the template binds ``alias`` otherwise too (a ``set``, a loop, a
    macro's argument: which one a use means is the render's business), and none for a
    NAME it asks about (``alias.NAME is defined``, ``alias.NAME | default(…)``)
    anywhere; a call of a NAME tested ``is callable`` first is not counted either."""
    if uses.bound_elsewhere(alias):
        return [], []
    asked = uses.members_asked.get(alias, set())
    checked = uses.members_checked.get(alias, set())
    whence = f"of {target!r} (imported as {alias}),"
    return ([(line, name, f"uses {alias}.{{}} {whence}")
             for line, name in uses.members.get(alias, []) if name not in asked],
            [(line, name, f"calls {alias}.{{}} {whence}")
             for line, name in uses.members_called.get(alias, []) if name not in checked])


def _used(uses: _Uses, name: str) -> bool:
    """Whether a template (``uses``, :func:`_uses`) uses the name ``name`` and never asks
    about it (:data:`_ASKING`: a template that asks takes care of its uses, as with
    :func:`_module_uses`). A ``from`` import of a name the other template lacks gives
    Jinja's undefined, an error only where it is used. A name bound otherwise too is
    left to the render."""
    return (name in uses.loaded and name not in uses.asked
            and not uses.bound_elsewhere(name))


def _member(node: nodes.Node) -> tuple[str, str] | None:
    """(name, NAME) where ``node`` is ``name.NAME`` or ``name["NAME"]``, else ``None``."""
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name):
        return node.node.name, node.attr
    if isinstance(node, nodes.Getitem) and isinstance(node.node, nodes.Name) \
            and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
        return node.node.name, node.arg.value
    return None


def _bound(node: nodes.Import | nodes.FromImport) -> set[str]:
    """The names an import binds."""
    if isinstance(node, nodes.Import):
        return {node.target}
    return {item[1] if isinstance(item, tuple) else item for item in node.names}


_LITERALS = (nodes.Const, nodes.TemplateData, nodes.List, nodes.Tuple, nodes.Dict,
             nodes.Concat)
"""Values a ``{% set NAME = … %}`` gives that are never a macro: a string, a number, a
list, a dict, text joined with ``~``."""


def _exports(tree: nodes.Template | None,
             parent: Callable[[str], nodes.Template | None] | None = None,
             seen: frozenset[str] = frozenset()) -> dict[str, bool]:
    """What ``{% from %}`` can import of a template, each with whether it may be called:
    the macros and the names it sets at its top level, the last binding of a name the
    one kept (a ``{% set NAME %}…{% endset %}`` after a macro of that name leaves text),
    a binding inside an ``{% if %}`` only a possible one (Jinja runs those in the
    module's scope); not inside a macro, loop, block or ``with`` (their own scopes);
    those starting with ``_`` excepted (Jinja keeps them private). A name may be called
    when one of its possible bindings is a macro or a ``{% set NAME = … %}`` whose value
    may be a macro (a name, a call); ``{% set NAME %}…{% endset %}`` and ``{% set NAME =
    "text" %}`` (a number, a list, a dict too: :data:`_LITERALS`) are not. A template that
    extends another (``parent`` gives the other's tree by name) exports the other's too,
    which runs after it and so wins.
    """
    kinds: dict[str, set[bool]] = {}
    bases: list[str] = []
    for node, branch in _module_level(tree):
        if isinstance(node, nodes.Macro):
            bound = [(node.name, True)]
        elif isinstance(node, (nodes.Assign, nodes.AssignBlock)):
            value = not isinstance(node, nodes.AssignBlock) and not isinstance(
                node.node, _LITERALS)  # (a macro's name, a call: it may be one)
            bound = [(n.name, value) for n in (node.target, *node.target.find_all(nodes.Name))
                     if isinstance(n, nodes.Name)]
        elif isinstance(node, nodes.FromImport):  # Jinja exports what it imports so
            bound = [(name, True) for name in _bound(node)]
        else:
            if isinstance(node, nodes.Extends) and isinstance(node.template, nodes.Const):
                bases.append(str(node.template.value))
            continue
        for name, callable_ in bound:
            kinds[name] = (kinds.get(name, set()) if branch else set()) | {callable_}
    names = {n: True in k for n, k in kinds.items()}
    for base in bases:
        if parent is not None and base not in seen:
            names.update(_exports(parent(base), parent, seen | {base}))
    return {n: c for n, c in names.items() if not n.startswith("_")}


def _theme_tree(layout: Layout, name: str) -> nodes.Template | None:
    """The theme's own template ``name`` parsed, or ``None`` (none, or it does not
    parse)."""
    label = f"{THEME_LABEL}/{name}"
    try:
        return _parsed(name, layout.read(label).decode("utf-8"), str(layout.path(label)))
    except (NotAnInput, UnicodeDecodeError, TemplateSyntaxError):
        return None


@lru_cache(maxsize=256)
def _parsed(name: str, source: str, filename: str) -> nodes.Template:
    """A template's syntax tree, parsed once per source text in a process (``serve``
    rebuilds check the same templates again and again, and a process that builds
    several projects, as the tests do, finds the theme's templates the same).

    Raises:
        TemplateSyntaxError: the source does not parse (not kept: raised every time).
    """
    return _compiler().parse(source, name, filename)


@lru_cache(maxsize=256)
def _compiled(name: str, source: str, filename: str) -> CodeType:
    """A template's code (Jinja's ``Environment.compile`` of :func:`_parsed`'s tree),
    compiled once per source text in a process, for every environment that loads it
    (:meth:`TemplateLoader.load`): compiling is most of a template's loading, and a
    new environment (a build of another project) loads the same theme.

    Raises:
        TemplateSyntaxError: the source does not parse or compile (not kept).
    """
    return _compiler().compile(_parsed(name, source, filename), name, filename)


class LocaleRenderer:
    """Renders the generated blocks of one locale: case tables, deck and preset tables.

    Args:
        env: the shared environment, with this locale's gettext callables installed.
        words: this locale's words.
        results: the engine's result for every case, by id.
    """

    def __init__(self, env: Environment, words: Words,
                 results: Mapping[str, CaseResult], cache: BuildCache | None = None,
                 keys: RenderKeys | None = None,
                 hidden: AbstractSet[str] = frozenset()) -> None:
        self.cache = cache if keys is not None else None
        self.hidden = hidden
        """The ids of the cases whose rows the tables leave out (drafts)."""
        self.keys = keys
        self.words = words
        self.results = results
        self.env = env
        self._kinds: dict[str, Any] = {}
        env.globals["kind_module"] = self.kind_module
        self.macros: Any = env.get_template("cases.html").make_module()
        self.translator = words.translator
        self._views: dict[str, tuple[View, Lookups]] = {}
        self._rows: dict[tuple[str, bool, bool], tuple[View, Lookups]] = {}
        self._tables: dict[tuple[str, ...], tuple[str, Lookups, list[str]]] = {}
        self._generated: dict[tuple[str, str, str], tuple[str, Lookups]] = {}
        self.shown_in_english: set[str] = set()
        """Case titles and notes shown in English since it was last emptied (for the
        page's notice)."""
        self.table_slots: set[str] = set()
        """The cache slots of the tables of cases shown since this was last emptied (one
        page's body): kept with the body, so that the tables of a body taken from the
        cache stay in it (:meth:`BuildCache.keep_slots`)."""

    def kind_module(self, template: str) -> Any:
        """A kind's template (``kinds/<kind>.html``) as a module, made once per locale
        (``cases.html`` calls its macros): Jinja's ``import ... with context`` would make
        it again for every row. Made after this locale's gettext callables are
        installed, it is this locale's alone."""
        module = self._kinds.get(template)
        if module is None:
            module = self._kinds[template] = self.env.get_template(template).make_module()
        return module

    def view(self, case_id: str) -> View:
        """The view of a case's row without its HTML (:func:`case_row`), made once per
        locale (its lookups replayed each time it is asked for again): what a table
        decides its shape from before any row is rendered."""
        hit = self._views.get(case_id)
        if hit is None:
            with self.translator.record() as lookups:
                view = case_row(self.results[case_id], self.words)
            hit = self._views[case_id] = (view, lookups)
        else:
            self.translator.replay(hit[1])
        return hit[0]

    def row(self, case_id: str, *, context: bool = True, points: bool = True) -> View:
        """The view of a case's row with its HTML, rendered once per variant, and only
        for a variant a table shows (its lookups replayed each time it is shown again:
        :meth:`Translator.record`): ``context`` false leaves out the small print under
        the points (the table says it once), ``points`` false the points cell (no row of
        the table has points)."""
        key = (case_id, context, points)
        hit = self._rows.get(key)
        if hit is None:
            with self.translator.record() as lookups:
                plain = self.view(case_id)
                view = {**plain, "context_text": plain["context_text"] if context else "",
                        "points_column": points}
                view["html"] = call_macro(self.macros.case_row, view)
            hit = self._rows[key] = (view, lookups)
        else:
            self.translator.replay(hit[1])
        return hit[0]

    def fence(self, fence: Fence, caption: str = "") -> str:
        """The HTML of a generated block; ``caption``: the plain text of the heading it
        stands under (the table's caption, for screen readers). A table of cases shows
        the rows of those not :attr:`hidden`; with none, it is left out whole (``""``)."""
        if fence.info == "cases":
            ids = tuple(i for i in fence.case_ids if i not in self.hidden)
            if not ids:
                return ""
            key = (*ids, caption)
            self.table_slots.add(self._table_slot(ids, caption))
            hit = self._tables.get(key) or self._kept_table(ids, caption)
            if hit is None:
                with self.translator.record() as lookups:
                    plain = [self.view(i) for i in ids]
                    english = sorted({r[text] for r in plain for text in ("title", "note")
                                      if r[f"{text}_en"]})
                    html = self._cases_table(ids, plain, caption)
                hit = (html, lookups, english)
                self._keep_table(ids, caption, hit)
            else:
                self.translator.replay(hit[1])
            self._tables[key] = hit
            self.shown_in_english.update(hit[2])
            return hit[0]
        # A deck or presets table: made once per locale for its body and caption (its
        # words come from the rule sets and the locale alone), as a cases table is.
        made = self._generated.get((fence.info, fence.body, caption))
        if made is None:
            with self.translator.record() as lookups:
                if fence.info == "deck-table":
                    head, cells = deck_table(
                        fence.body.strip().removeprefix("game:").strip(), self.words)
                else:
                    head, cells = presets_table(self.words)
                html = str(call_macro(self.macros.table, head, cells, caption))
            made = self._generated[(fence.info, fence.body, caption)] = (html, lookups)
        else:
            self.translator.replay(made[1])
        return made[0]

    def _table_slot(self, ids: Sequence[str], caption: str) -> str:
        """The cache slot of a table of cases in this locale."""
        return f"table/{digest(self.translator.locale, caption, *ids)}"

    def _kept_table(self, ids: Sequence[str], caption: str
                    ) -> tuple[str, Lookups, list[str]] | None:
        """A cases table the build cache keeps for these inputs (its cases, its caption,
        the templates: :meth:`RenderKeys.table`) and the messages it looked up, as the
        locale's catalog holds them now (:meth:`Translator.messages_digest`): its HTML,
        its lookups and the titles and notes it shows in English; ``None`` without one."""
        if self.cache is None or self.keys is None:
            return None
        data = self.cache.load(self._table_slot(ids, caption),
                               self.keys.table(self.translator.locale, ids, caption),
                               shared=True)
        if data is None:
            return None
        try:
            lookups = Lookups.from_data(data["lookups"])
            if data["messages"] != self.translator.messages_digest(lookups.seen):
                return None  # a message it shows was changed
            return str(data["html"]), lookups, [str(m) for m in data["english"]]
        except (KeyError, TypeError, ValueError):
            return None

    def _keep_table(self, ids: Sequence[str], caption: str,
                    table: tuple[str, Lookups, list[str]]) -> None:
        if self.cache is not None and self.keys is not None:
            self.cache.store(self._table_slot(ids, caption),
                             self.keys.table(self.translator.locale, ids, caption),
                             {"html": table[0], "lookups": table[1].as_data(),
                              "english": table[2],
                              "messages": self.translator.messages_digest(table[1].seen)})

    def _cases_table(self, ids: Sequence[str], plain: list[View], caption: str) -> str:
        """A cases table: what its rows share said once above them (the most frequent
        context, the kinds' ``table_note``), each row's context only where it differs,
        no points column when no row has points."""
        contexts = Counter(r["context_text"] for r in plain if r["context_text"])
        common = max(contexts, key=lambda c: (contexts[c], -_first(plain, c))) \
            if contexts else ""
        has_points = any(r["points"] is not None for r in plain)
        rows = [self.row(i, context=r["context_text"] != common, points=has_points)
                for i, r in zip(ids, plain, strict=True)]
        notes = list(dict.fromkeys(r["table_note"] for r in plain if r.get("table_note")))
        kind, template = ((rows[0]["kind"], rows[0]["template"]) if rows
                          else (REGISTRY[0].name, REGISTRY[0].template))
        return str(call_macro(self.macros.cases_table, rows, kind, template, {
            "caption": caption, "context": common, "mixed": len(contexts) > 1,
            "notes": notes}))


class SiteNav:
    """The site navigation of one locale (``base.html``'s ``nav_html``): every page's
    item (``nav.html``'s ``nav_item``) rendered once, not once on every page that
    lists it (each page lists every page: that work grew with the square of the
    pages); a page's own item, marked as the current page, is rendered on that page.

    Args:
        macros: ``nav.html``, its module made now (after this locale's gettext
            callables are installed).
        nav: the items (``slug``, ``title``, ``title_html``, ``url``), in order.
        translator: the locale's messages: what the items looked up is replayed on
            every page that shows them (:meth:`Translator.record`).
    """

    def __init__(self, macros: Template, nav: list[dict[str, Any]],
                 translator: Translator) -> None:
        self.nav = nav
        self.translator = translator
        self._item = _exported(macros, "nav_item")
        self._items: list[str] | None = None
        self._lookups = Lookups(set(), set())

    def html(self, current: int | None = None) -> Markup:
        """The items, the one at index ``current`` marked as the page shown."""
        if self._items is None:  # on first use: home and 404 pages may come from the cache
            with self.translator.record() as self._lookups:
                self._items = [str(call_macro(self._item, item, False)) for item in self.nav]
        else:
            self.translator.replay(self._lookups)
        items = self._items
        if current is not None:
            items = [*items[:current], str(call_macro(self._item, self.nav[current], True)),
                     *items[current + 1:]]
        return Markup("".join(items))


def _exported(template: Template, name: str) -> Any:
    """The macro ``name`` of ``template``'s module, made now.

    Raises:
        UndefinedError: the template does not define it (an override copied from an
            older theme), at the template's file (:func:`generator.render.errors.template_error`).
    """
    macro = getattr(template.make_module(), name, None)
    if macro is None:
        error = UndefinedError(f"the template {template.name!r} does not export the "
                               f"requested name {name!r}")
        error.filename, error.lineno = template.filename, 1  # type: ignore[attr-defined]
        raise error
    return macro


def _first(rows: list[View], context: str) -> int:
    return next(i for i, r in enumerate(rows) if r["context_text"] == context)


def _install(env: Environment, w: Words) -> None:
    """Install this locale's gettext callables. Jinja's newstyle gettext marks what they
    return as safe HTML, so they return the translation escaped: a translation is text,
    never markup (a ``<script>`` in a catalog renders as text)."""

    def gettext(msgid: str) -> Markup:
        return escape(w.text(msgid))

    def ngettext(singular: str, plural: str, n: int) -> Markup:
        text, ok = w.translator.ngettext(singular, plural, n)
        return escape(w.as_shown(text, ok))

    install_gettext(env, gettext, ngettext)


def install_gettext(env: Environment, gettext: Callable[[str], str],
                    ngettext: Callable[[str, str, int], str]) -> None:
    """Jinja's newstyle gettext (``jinja2.ext.i18n``, ``install_gettext_callables(...,
    newstyle=True)``) over ``gettext`` and ``ngettext``, with the same results: what
    they return marked safe where autoescaping is on, then ``%``-formatted with the
    call's keywords (``num`` too, for ``ngettext``). But ``_``, ``gettext`` and
    ``ngettext`` are each one call from a template, not Jinja's three (the alias ``_``
    that looks ``gettext`` up, its wrapper, the function), and ``_`` is ``gettext``
    itself, not looked up in the template's context: the templates call them some
    thirty times a page."""

    @pass_eval_context
    def newstyle_gettext(eval_ctx: EvalContext, string: str, /, **variables: Any) -> str:
        rv = gettext(string)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        # (without a '%', formatting with no keywords gives the text itself)
        return rv % variables if variables or "%" in rv else rv

    @pass_eval_context
    def newstyle_ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /,
                          **variables: Any) -> str:
        variables.setdefault("num", num)
        rv = ngettext(singular, plural, num)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=True)  # (sets how {% trans %} compiles)
    env.globals.update(_=newstyle_gettext, gettext=newstyle_gettext,
                       ngettext=newstyle_ngettext)


DEFAULT_FAVICON = f"{STATIC_OUT}/favicon.svg"
"""The theme's icon, where ``site.yaml`` names no ``favicon``."""


@dataclass(frozen=True)
class SiteInput:
    """What rendering needs, loaded and verified once.

    Attributes:
        root: the project folder (its ``templates/``), or its layout with the output
            folder of the build (then the templates are read, and compiled, in the one
            environment the loading checked them in: :func:`make_environment`).
        pages: the pages to render, in navigation order (the published ones:
            :class:`generator.content.drafts.Publication`).
        locales: locale codes, the source first.
        translators: each locale's messages.
        results: the engine's result for every case, by id.
    """

    root: Path | Layout
    pages: Sequence[SourcePage]
    locales: Sequence[str]
    translators: Mapping[str, Translator]
    results: Mapping[str, CaseResult]
    config: Config = field(default_factory=Config)
    """The settings (``site.yaml``): the site's name, logo, footer, address, …"""
    cache: BuildCache | None = None
    """The build cache, if the build has one: pages whose inputs did not change are
    taken from it."""
    keys: RenderKeys | None = None
    """Each page's input digest, for the cache."""
    hidden: AbstractSet[str] = frozenset()
    """The ids of the cases whose rows the tables leave out (drafts:
    :class:`generator.content.drafts.Publication`)."""

    @property
    def site_url(self) -> str | None:
        """The published site's address (``site.yaml``'s ``site_url``), or ``None``."""
        return self.config.site_url

    def chrome(self, w: Words) -> dict[str, Any]:
        """What every template shows of the settings, in ``w``'s locale (the templates'
        ``site``): ``title`` and ``description`` (translated), ``logo`` and ``favicon``
        (paths below the site's root; the theme's card icon where no favicon is set)
        with ``favicon_type``, ``footer_text`` (translated, or ``None``) and
        ``footer_links`` (``text`` translated, ``url``)."""
        config = self.config
        favicon = static_url(config.favicon) if config.favicon else DEFAULT_FAVICON
        return {
            "title": w.text(config.title_msgid),
            "description": w.text(config.description_msgid),
            "logo": static_url(config.logo) if config.logo else None,
            "favicon": favicon,
            "favicon_type": ICON_TYPES[PurePosixPath(favicon).suffix.lower()],
            "footer_text": w.text(config.footer_text.msgid) if config.footer_text else None,
            "footer_links": [{"text": w.text(link.text.msgid), "url": link.url}
                             for link in config.footer_links],
        }

    def names(self) -> dict[str, str]:
        """Each locale's name in its own language ("čeština", "eesti")."""
        return {loc: _autonym(loc) for loc in self.locales}

    def alternates(self, slug: str, root: str) -> list[dict[str, str]]:
        """``hreflang`` alternates of a page (``slug`` ``""``: the locale home) in every
        locale, and ``x-default`` (the source language): absolute with ``site_url``,
        else relative to ``root``."""
        base = self.site_url or root
        path = f"{slug}/" if slug else ""
        tail = "" if self.site_url else "index.html"
        links = [{"code": language_tag(loc), "url": f"{base}{loc}/{path}{tail}"}
                 for loc in self.locales]
        return [*links, {"code": "x-default", "url": links[0]["url"]}]

    def canonical(self, alternates: Sequence[Mapping[str, str]], lang: str) -> str | None:
        """The page's own address among its ``alternates`` (``lang``'s), for ``<link
        rel=canonical>``: only with ``site_url`` (a canonical address is absolute)."""
        if self.site_url is None:
            return None
        return next(link["url"] for link in alternates if link["code"] == language_tag(lang))

    def sitemap_urls(self) -> list[dict[str, Any]]:
        """What ``sitemap.xml`` lists: every page in every locale (``loc``) with its
        ``alternates``, a draft page's excepted (one a build shows is no page to index);
        the addresses are absolute, so this needs ``site_url``."""
        urls = []
        for slug in ["", *(p.slug for p in self.pages if not p.draft)]:
            links = self.alternates(slug, "")
            urls += [{"loc": own["url"], "alternates": links} for own in links[:-1]]
        return urls

    def prepare(self) -> None:
        """Load and compile every template the site uses once (before worker processes
        fork: each would compile them again); most were compiled by the loading
        (:func:`template_errors`), in the same environment. The locales' names too
        (Babel loads each locale's data for them: 50 ms a process)."""
        self.names()
        env = make_environment(self.root)
        for name in (*TEMPLATES, *Layout.of(self.root).templates([])):
            try:
                env.get_template(name)
            except TemplateError:
                continue  # reported by the loading (commands.project.load_project)


@cache
def _autonym(locale: str) -> str:
    return Locale.parse(locale).get_display_name(locale) or locale


@dataclass
class LocaleOutput:
    """What rendering one locale gave.

    Attributes:
        files: the files rendered now, by site-relative POSIX path.
        links: the files taken from the cache: its checked copies, by site-relative
            path (:meth:`generator.output.SiteWriter.link`).
        coverage: the locale's coverage.
        cached: how many of its pages (the home page counted) came from the cache.
        blobs: the name of each file's copy in the cache, by site-relative path.
        notes: the cache's notes (a damaged entry ignored).
        entries: the cache entries looked up or stored (:attr:`BuildCache.used`).
        stored: those it stored (:attr:`BuildCache.stored`).
        reads: the input files read, as :func:`generator.layout.reads_recorded` gives
            them (a template a worker read again), for the parent's check.
    """

    files: dict[str, bytes]
    coverage: Coverage
    cached: int = 0
    links: dict[str, Path] = field(default_factory=dict)
    blobs: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    entries: frozenset[str] = frozenset()
    """The cache entries looked up or stored (:attr:`BuildCache.used`)."""
    stored: frozenset[str] = frozenset()
    """Those of them stored (:attr:`BuildCache.stored`)."""
    reads: dict[str, str] = field(default_factory=dict)


def _from_cache(cache: BuildCache, slot: str, inputs: str
                ) -> tuple[LocalePage, Lookups, Path, str] | None:
    """A page kept in the cache for these inputs: (what the other pages need of it: its
    title and summary; its lookups, its body's with its layout's; its file's checked
    copy; the copy's name), or ``None``."""
    data = cache.load(slot, inputs, shared=True)
    if not isinstance(data, dict):
        return None
    try:
        sha = str(data["html"])
        lp = _kept_page(data)
        lookups = Lookups.from_data(data["lookups"])
        tables: list[str] = []
        if data.get("body") is not None:
            body = Lookups.from_data(data["body"]["lookups"])
            lookups = Lookups(lookups.seen | body.seen, lookups.fallbacks | body.fallbacks)
            tables = [str(slot) for slot in data["body"]["tables"]]
    except (KeyError, TypeError, ValueError):
        cache.notes.append(f"{slot}: a cache entry of another shape; ignored, rebuilt")
        return None
    html = cache.blob(sha)
    if html is None:
        return None
    cache.keep_slots(tables)  # what the page's next body may need again
    return lp, lookups, html, sha


def _kept_page(data: dict[str, Any], toc: list[dict[str, object]] | None = None,
               english: frozenset[str] = frozenset()) -> LocalePage:
    """The page a cache entry keeps (:func:`_keep`): its title and summary, as the other
    pages' navigation and the home page need them, with the body's ``toc`` and
    ``english`` where the body is used too (its HTML set by the caller).

    Raises:
        KeyError, TypeError, ValueError: the entry is of another shape.
    """
    return LocalePage(str(data["title"]), str(data["title_html"]), bool(data["title_en"]),
                      str(data["summary"]), bool(data["summary_en"]), "",
                      [] if toc is None else toc, english)


def _kept_body(cache: BuildCache, slot: str, inputs: str, translator: Translator
               ) -> tuple[LocalePage, Lookups, frozenset[str], set[str], KeptPart] | None:
    """The body of the page kept in ``slot``, whatever the page's own inputs, when it was
    made from these inputs (:meth:`RenderKeys.body`) and the messages it looked up are
    as the catalog holds them now (:meth:`Translator.messages_digest`): (the body, its
    lookups, the msgids it shows in English, its tables' cache slots, the entry's part
    that keeps it with the body's bytes), cut from the page's kept copy and checked by
    its digest; or ``None``."""
    data = cache.load(slot, None, shared=True)
    if not isinstance(data, dict) or not isinstance(data.get("body"), dict):
        return None
    body = data["body"]
    try:
        if body["key"] != inputs:
            return None
        lookups = Lookups.from_data(body["lookups"])
        if body["messages"] != translator.messages_digest(lookups.seen):
            return None  # a message it shows was changed
        sha, at, length = str(data["html"]), int(body["at"]), int(body["length"])
        tables = [str(slot) for slot in body["tables"]]
        body_sha = str(body["sha"])
        toc = [{"id": str(h["id"]), "title": str(h["title"]),
                "title_html": str(h["title_html"]), "level": int(h["level"])}
               for h in body["toc"]]
        english = frozenset(str(m) for m in body["english"])
        lp = _kept_page(data, toc, english)
    except (KeyError, TypeError, ValueError):
        cache.notes.append(f"{slot}: a cache entry of another shape; ignored, rebuilt")
        return None
    cut = cache.load_blob_part(sha, at, length, body_sha)
    if cut is None:
        return None  # the page's copy is gone, or the entry was edited: rendered again
    try:
        text = cut.decode("utf-8")
    except UnicodeDecodeError:
        return None  # bytes of the right digest are the body kept: never
    cache.keep_slots(tables)
    lp.html = text
    return lp, lookups, english, set(tables), (body, cut)


KeptPart = tuple[dict[str, Any], bytes]
"""A body taken from the cache: its entry's part (:func:`_body_part`) and its bytes."""


def _body_part(translator: Translator, key: str, lp: LocalePage, lookups: Lookups,
               english: frozenset[str], tables: set[str], page: bytes,
               kept: KeptPart | None = None) -> dict[str, Any]:
    """What a page's entry keeps of its body (:func:`_kept_body`): its key, its lookups
    and the digest of the messages they found, its table of contents, the cache slots
    of its tables, and where it sits in the page with its SHA-256 (the theme writes the
    body as it is, so it is not kept twice; ``at`` -1 where a layout changed it: the
    body is then not used again). A body taken from the cache (``kept``) keeps its part
    as it was, with where it sits now: the same key, lookups and digests."""
    if kept is not None:
        part, cut = kept
        return {**part, "at": page.find(cut)}
    body = lp.html.encode("utf-8")
    return {"key": key, "at": page.find(body), "length": len(body),
            "sha": hashlib.sha256(body).hexdigest(), "toc": lp.toc,
            "english": sorted(english), "tables": sorted(tables),
            "lookups": lookups.as_data(), "messages": translator.messages_digest(lookups.seen)}


def _keep(cache: BuildCache, slot: str, inputs: str, lp: LocalePage, lookups: Lookups,
          html: bytes, body: dict[str, Any] | None = None) -> str:
    """Keep a rendered page in the cache, with what its layout looked up and, for a
    content page, its body (:func:`_body_part`); returns its blob's name."""
    sha = hashlib.sha256(html).hexdigest()  # the file, once written: BuildCache.adopt
    cache.store(slot, inputs, {"html": sha, "title": lp.title, "title_html": lp.title_html,
                               "title_en": lp.title_en, "summary": lp.summary,
                               "summary_en": lp.summary_en, "lookups": lookups.as_data(),
                               "body": body})
    return sha


def render_locale(site: SiteInput, lang: str) -> LocaleOutput:
    """Render every page of one locale and its home page; with ``site.cache``, a page
    whose inputs did not change (``site.keys``) is taken from the cache instead, and
    every page rendered is kept there.

    Returns:
        The files, the coverage (the same as rendering every page would give: a cached
        page's lookups are replayed) and the cache's bookkeeping.

    Raises:
        jinja2.TemplateError: a template that does not load or render.
    """
    env = make_environment(site.root)
    md = make_markdown()
    names = site.names()
    pages, locales = site.pages, site.locales
    translator = site.translators[lang]
    cache = site.cache if site.cache is not None and site.keys is not None else None
    out = LocaleOutput({}, Coverage(0, 0))
    files = out.files
    page_tpl = env.get_template("page.html")
    home_tpl = env.get_template("home.html")
    w = Words(translator, marked=True)
    _install(env, w)
    with translator.record() as chrome_lookups:
        chrome = site.chrome(w)
    blocks = LocaleRenderer(env, w, site.results, cache, site.keys, site.hidden)
    renderer = PageRenderer(md, translator, facts(), blocks.fence, w.text)
    rendered: dict[str, LocalePage] = {}
    lookups: dict[str, Lookups] = {}  # by page rendered now: what it looked up
    english: dict[str, frozenset[str]] = {}  # by page: its title, body, cases in English
    tables: dict[str, set[str]] = {}  # by page laid out now: its tables' cache slots
    kept_bodies: dict[str, KeptPart] = {}  # by page whose body the cache gave
    for page in pages:
        if cache is not None and site.keys is not None:
            hit = _from_cache(cache, f"page/{lang}/{page.slug}",
                              site.keys.page(lang, page.slug))
            if hit is not None:
                rendered[page.slug], found, out.links[page_output(lang, page.slug)], sha = hit
                translator.replay(found)
                out.cached += 1
                out.blobs[page_output(lang, page.slug)] = sha
                continue
            body = _kept_body(cache, f"page/{lang}/{page.slug}",
                              site.keys.body(lang, page.slug), translator)
            if body is not None:
                (rendered[page.slug], lookups[page.slug], english[page.slug],
                 tables[page.slug], kept_bodies[page.slug]) = body
                translator.replay(lookups[page.slug])
                continue
        blocks.shown_in_english = set()
        blocks.table_slots = set()
        with translator.record() as lookups[page.slug]:
            lp = renderer.render(page)
        rendered[page.slug] = lp
        english[page.slug] = lp.english | blocks.shown_in_english
        tables[page.slug] = blocks.table_slots
    # Every page sits at <lang>/<slug>/, so one list of links serves them all.
    nav = [{"slug": p.slug, "title": rendered[p.slug].title,
            "title_html": Markup(rendered[p.slug].title_html),
            "url": f"../{p.slug}/index.html"} for p in pages]
    macros = env.get_template("nav.html")
    page_nav = SiteNav(macros, nav, translator)
    # The home and 404 pages sit at <lang>/: their links to the pages are one level up.
    home_nav = SiteNav(macros, [{**item, "url": f"{item['slug']}/index.html"}
                                for item in nav], translator)
    for index, page in enumerate(pages):
        if page.slug not in lookups:
            continue  # from the cache
        lp = rendered[page.slug]
        # The messages shown in English, counted once however often they are shown: the
        # page's own, and the titles of the other pages in the navigation.
        own = english[page.slug].union(
            *({p.title.msgid} for p in pages if rendered[p.slug].title_en))
        framed = lookups[page.slug].fallbacks | chrome_lookups.fallbacks
        with translator.record() as shown:
            alternates = site.alternates(page.slug, "../../")
            html = _counted(partial(
                page_tpl.render,
                alternates=alternates, canonical=site.canonical(alternates, lang),
                description=Markup(lp.summary).striptags(),
                lang=language_tag(lang), lang_name=names[lang], root="../../",
                home_url="../index.html",
                site=chrome,
                page={"title": lp.title, "title_html": Markup(lp.title_html),
                      "slug": page.slug, "html": Markup(lp.html), "draft": page.draft,
                      "toc": [{**h, "title_html": Markup(h["title_html"])} for h in lp.toc]},
                languages=[{"code": language_tag(o), "name": names[o],
                            "url": f"../../{o}/{page.slug}/index.html",
                            "current": o == lang} for o in locales],
                nav=nav, nav_html=page_nav.html(index), current_slug=page.slug,
                **_search_box(site, lang, "../../"),
                pager={"prev": nav[index - 1] if index else None,
                       "next": nav[index + 1] if index + 1 < len(nav) else None},
            ), own, framed, shown)
        data = files[page_output(lang, page.slug)] = html.encode("utf-8")
        if cache is not None and site.keys is not None:
            out.blobs[page_output(lang, page.slug)] = _keep(
                cache, f"page/{lang}/{page.slug}", site.keys.page(lang, page.slug), lp,
                shown, data, _body_part(translator, site.keys.body(lang, page.slug), lp,
                                        lookups[page.slug], english[page.slug],
                                        tables[page.slug], data,
                                        kept_bodies.get(page.slug)))
    home = None
    if cache is not None and site.keys is not None:
        home = _from_cache(cache, f"home/{lang}", site.keys.home(lang))
    if home is not None:
        _lp, found, out.links[home_output(lang)], sha = home
        translator.replay(found)
        out.cached += 1
        out.blobs[home_output(lang)] = sha
    else:
        with translator.record() as shown:
            html = mark_english(_render_home(home_tpl, site, lang, names, rendered,
                                             home_nav, chrome))
        data = files[home_output(lang)] = html.encode("utf-8")
        if cache is not None and site.keys is not None:
            out.blobs[home_output(lang)] = _keep(
                cache, f"home/{lang}", site.keys.home(lang),
                LocalePage("", "", False, "", False, "", [], frozenset()), shown, data)
    # A web server shows it at any missing address: with site_url its links are absolute
    # (<base>), without they are relative to <lang>/ (from disk, or served at its place).
    # It depends on what the home page does (the pages' titles and summaries).
    rel = not_found_output(lang)
    kept = None
    if cache is not None and site.keys is not None:
        kept = _from_cache(cache, f"404/{lang}", site.keys.home(lang))
    if kept is not None:
        _lp, found, out.links[rel], out.blobs[rel] = kept
        translator.replay(found)
    else:
        with translator.record() as shown:
            html = mark_english(_render_not_found(env, site, lang, names, rendered,
                                                  home_nav, chrome))
        data = files[rel] = html.encode("utf-8")
        if cache is not None and site.keys is not None:
            out.blobs[rel] = _keep(cache, f"404/{lang}", site.keys.home(lang),
                                   LocalePage("", "", False, "", False, "", [], frozenset()),
                                   shown, data)
    missing = tuple(sorted(
        ((msgid, *translator.unused.get((ctx, msgid), (0, "missing translation")))
         for ctx, msgid in translator.fallbacks), key=lambda m: (m[1] == 0, m[1], m[0])))
    out.coverage = Coverage(len(translator.seen), len(translator.fallbacks), missing)
    return out


def _counted(render: Callable[..., str], own: AbstractSet[str], body: AbstractSet[Key],
             shown: Lookups) -> str:
    """A page rendered (``render(untranslated=N)``) with the number of the passages it
    shows in English, each counted once: the page's own (``own``: msgids) and the
    messages of the theme and the engine that fell back, in its body (``body``) and in
    its frame (recorded in ``shown`` while it renders; the count's own sentence may be
    one of them, so it renders again until the count holds, at most three times), the
    English passages marked (:func:`generator.render.fallbacks.mark_english`)."""
    count = len(own | {msgid for _context, msgid in body})
    html = render(untranslated=count)
    for _ in range(2):
        seen = len(own | {msgid for _context, msgid in body | shown.fallbacks})
        if seen == count:
            break
        count = seen
        html = render(untranslated=count)
    return mark_english(html)


def _render_home(home_tpl: Template, site: SiteInput, lang: str, names: Mapping[str, str],
                 rendered: Mapping[str, LocalePage], nav: SiteNav,
                 chrome: Mapping[str, Any]) -> str:
    """A locale's home page: the page list with each page's summary."""
    pages = site.pages
    alternates = site.alternates("", "../")
    return home_tpl.render(
        alternates=alternates, canonical=site.canonical(alternates, lang),
        description="",  # home.html's own: its introduction
        lang=language_tag(lang), lang_name=names[lang], root="../", home_url="index.html",
        site=chrome,
        pages=[{"title": rendered[p.slug].title,
                "title_html": Markup(rendered[p.slug].title_html),
                "url": f"{p.slug}/index.html",
                "summary": Markup(rendered[p.slug].summary)} for p in pages],
        languages=[{"code": language_tag(o), "name": names[o], "url": f"../{o}/index.html",
                    "current": o == lang}
                   for o in site.locales],
        nav=nav.nav, nav_html=nav.html(), current_slug="",
        untranslated=len({m.msgid for p in pages for m, en in (
            (p.title, rendered[p.slug].title_en), (p.summary, rendered[p.slug].summary_en))
            if m is not None and en}),
        page={"title": "", "title_html": "", "slug": "", "html": "", "toc": []},
        **_search_box(site, lang, "../"),
    )


def _render_not_found(env: Environment, site: SiteInput, lang: str,
                      names: Mapping[str, str], rendered: Mapping[str, LocalePage],
                      nav: SiteNav, chrome: Mapping[str, Any]) -> str:
    """A locale's "page not found" page (``404.html``): the locale's pages."""
    return env.get_template("404.html").render(
        alternates=[], canonical=None, description="",
        base_href=f"{site.site_url}{lang}/" if site.site_url else None,
        lang=language_tag(lang), lang_name=names[lang], root="../", home_url="index.html",
        site=chrome,
        pages=[{"title": rendered[p.slug].title,
                "title_html": Markup(rendered[p.slug].title_html),
                "url": f"{p.slug}/index.html",
                "summary": Markup(rendered[p.slug].summary)} for p in site.pages],
        languages=[{"code": language_tag(o), "name": names[o], "url": f"../{o}/index.html",
                    "current": o == lang} for o in site.locales],
        nav=nav.nav, nav_html=nav.html(), current_slug="",
        untranslated=0,
        page={"title": "", "title_html": "", "slug": "", "html": "", "toc": []},
        **_search_box(site, lang, "../"),
    )


SERVE_COMMAND = "rules-site serve"
"""What the search box, opened from a file, suggests to serve the site with."""


def _search_box(site: SiteInput, lang: str, root: str) -> dict[str, dict[str, str]]:
    """The ``search`` a page ``root`` below the site's root passes its template, for
    ``search.html``: the locale's index (``bundle``), the locale's folder its results
    are relative to (``base``), and :data:`SERVE_COMMAND`. Nothing (no search box) when
    the site publishes no page: it has no index."""
    if not site.pages:
        return {}
    return {"search": {"bundle": f"{root}{search_output(lang)}/", "base": f"{root}{lang}/",
                       "command": SERVE_COMMAND}}


def render_common(site: SiteInput) -> dict[str, bytes]:
    """The files every locale shares that the build makes: ``index.html`` (the
    languages), ``404.html`` (the languages, each saying "Page not found" in its own
    words) and ``sitemap.xml`` (its template, with ``site_url``). The files published
    as they are: :func:`publish_files`.

    Raises:
        jinja2.TemplateError: a template that does not load or render.
    """
    env = make_environment(site.root)
    # the front page speaks the default language (the first of the site's): its own
    # translator, so that its lookups are not counted as those of the locale's pages
    default = site.locales[0]
    own = site.translators[default]
    w = Words(replace(own, seen=set(), fallbacks=set()), marked=True)
    _install(env, w)
    names = site.names()
    chrome = site.chrome(w)
    root_html = env.get_template("root.html").render(
        not_found=False, base_href=None, lang=language_tag(default), site=chrome,
        languages=[{"code": language_tag(loc), "name": names[loc],
                    "url": f"{loc}/index.html"} for loc in site.locales])
    # The root 404: each language's "Page not found", linking to its home.
    root_404 = env.get_template("root.html").render(
        not_found=True, base_href=site.site_url, lang=language_tag(default), site=chrome,
        languages=[{"code": language_tag(loc), "name": names[loc], "url": f"{loc}/index.html",
                    "not_found": Words(site.translators[loc]).text("Page not found")}
                   for loc in site.locales])
    files = {ROOT_INDEX: mark_english(root_html).encode("utf-8"),
             NOT_FOUND: mark_english(root_404).encode("utf-8")}
    if site.site_url is not None:  # a sitemap's addresses are absolute
        sitemap = env.get_template("sitemap.xml").render(urls=site.sitemap_urls())
        files[SITEMAP] = sitemap.encode("utf-8")
    return files


def publish_files(site: SiteInput, writer: SiteWriter,
                  generated: AbstractSet[str]) -> dict[str, str]:
    """Copy the files published as they are into ``writer``'s fresh folder: ``static/``
    (the theme's ``static/``, each file replaced by the project's ``templates/static/``
    file of its name) and the files of ``templates/root/`` at the site's root
    (:func:`generator.layout.Layout.published_files`), each copied in pieces
    (:meth:`generator.layout.Layout.copy_to`), so that a large image or font takes no
    more memory than a small one. One that clashes with a ``generated`` file (site
    paths) is an input error the loading reports, never published.

    Returns:
        Each file copied, by site path: the SHA-256 hex digest of its bytes.

    Raises:
        generator.output.OutputError: a file cannot be written.
    """
    layout = Layout.of(site.root)
    errors: list[InputError] = []  # reported by the loading (commands.project.load_project)
    copied: dict[str, str] = {}
    for name, rel in layout.published_files(errors).items():
        if name in generated:
            continue
        try:
            copied[name] = writer.copy(name, functools.partial(layout.copy_to, rel))
        except NotAnInput:
            continue  # reported by the loading
    return copied
