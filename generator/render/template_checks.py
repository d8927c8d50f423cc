"""The template checks: every input error of the templates the site uses that shows
without rendering them (:func:`template_errors`): a missing or unreadable template, a
syntax error, a named template, macro or import that does not exist, an import cycle."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment
from jinja2 import TemplateSyntaxError
from jinja2 import nodes

from generator.errors import InputError
from generator.layout import TEMPLATES as TEMPLATES_DIR
from generator.layout import THEME_LABEL
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.render.environment import TEMPLATES
from generator.render.environment import make_environment
from generator.render.environment import parsed_template


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
        tree = _template_tree(layout, env, name, rel, errors)
        if tree is None:
            continue
        trees[name] = tree
        for node in _references(tree):
            if isinstance(node, (nodes.FromImport, nodes.Import)):
                imports.append((name, node))
            errors += _named_missing(layout, rel, node, names)
    errors += _missing_imports(layout, used, trees, imports)
    errors += _import_cycles(used, trees)
    return errors


def _template_tree(layout: Layout, env: Environment, name: str, rel: str,
                   errors: list[InputError]) -> nodes.Template | None:
    """The syntax tree of template ``name`` (at label ``rel``), a project's template
    compiled too (compiling finds what parsing does not); ``None`` with its error added
    to ``errors`` when it is not an input, not UTF-8, or does not parse or compile."""
    try:
        data = layout.read(rel)
    except NotAnInput as exc:
        errors.append(exc.error)
        return None
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        errors.append(InputError(rel, data.count(b"\n", 0, exc.start) + 1, None,
                                 "the template is not valid UTF-8; expected UTF-8 text"))
        return None
    try:
        tree = parsed_template(name, source, str(layout.path(rel)))
        if not rel.startswith(f"{THEME_LABEL}/"):
            env.get_template(name)
    except TemplateSyntaxError as exc:
        problem = (exc.message or "").rstrip(".")
        errors.append(InputError(rel, exc.lineno or 1, None, f"template syntax error: "
                                 f"{problem}; expected a template Jinja can parse"))
        return None
    return tree


def _named_missing(layout: Layout, rel: str, node: nodes.Node, names: AbstractSet[str]
                   ) -> list[InputError]:
    """The error of an ``extends``, ``include`` or ``import`` ``node`` of template
    ``rel`` whose named template does not exist (``names``: the templates the site
    uses), unless it says ``ignore missing``; none else. (One that exists but is not a
    template file, e.g. a folder named base.html, is reported at its own name by
    Layout.template_files.)"""
    target = getattr(node, "template", None)
    if isinstance(target, nodes.Const) and isinstance(target.value, str) \
            and target.value not in names \
            and not getattr(node, "ignore_missing", False) \
            and layout.template_label(target.value) is None:
        return [InputError(rel, node.lineno, None, f"template {target.value!r} not found; "
                           "expected one of: " + ", ".join(sorted(names)))]
    return []


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
    :func:`parsed_template`'s, one per template text): checking the templates of another
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
        return parsed_template(name, layout.read(label).decode("utf-8"), str(layout.path(label)))
    except (NotAnInput, UnicodeDecodeError, TemplateSyntaxError):
        return None
