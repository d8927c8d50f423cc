"""Errors met while rendering, named at the template's file and line."""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

from jinja2 import TemplateError
from jinja2.debug import rewrite_traceback_stack

from generator.layout import TEMPLATES
from generator.layout import Layout


def template_error(exc: Exception, root: Path | Layout) -> str | None:
    """An error met while rendering, as ``FILE:LINE: what; expected`` (FILE a template's
    label: ``templates/NAME`` in the project, ``generator/theme/NAME`` in the theme): the
    position Jinja gives, or else the innermost frame of the traceback that is a
    template's (Jinja rewrites tracebacks so that a template's frames carry its file and
    line). A Python error (a division by zero, a recursion too deep) raised in a template
    is the template's error too.

    Returns:
        The line; ``None`` for an error that is not Jinja's and has no template frame
        (a fault of the generator, not of the templates).
    """
    layout = Layout.of(root)
    lineno = getattr(exc, "lineno", None)
    name = getattr(exc, "filename", None)
    shown = layout.label_of(name) if name else None
    if shown is None and not isinstance(exc, TemplateError):
        name = None  # an OSError's file that is no template's (a copy in the build cache)
    if not name:
        frames = [(label, f.lineno) for f in traceback.extract_tb(exc.__traceback__)
                  if (label := layout.label_of(f.filename)) is not None]
        if frames:
            shown, lineno = frames[-1]
        elif not isinstance(exc, TemplateError):
            return None
    if shown is None:  # a template's name (Jinja's, or none): where the site reads it
        shown = (layout.template_label(str(name)) if name else None) or TEMPLATES
    what = str(exc) if isinstance(exc, TemplateError) else f"{type(exc).__name__}: {exc}"
    return f"{shown}:{lineno or 1}: template error: {what}; expected a template that renders"


def call_macro(macro: Any, *args: Any) -> Any:
    """Call a template's macro from Python (the site's code renders rows, tables and the
    navigation's items so), its errors placed as a template's own are.

    Jinja gives a traceback the template's file and lines only when the error passes
    through a template's ``render``; a macro called from Python left the lines of the
    Python Jinja compiled it to (line 64 for a template's line 16). Its traceback is
    rewritten here the same way (``jinja2.debug.rewrite_traceback_stack``, what Jinja's
    own ``handle_exception`` does). A call the macro does not take (an override whose
    macro takes other arguments) names no template line: it is the error of the macro's
    template, at its first line (``filename``, ``lineno``), not the generator's.

    Args:
        macro: a macro of a template's module (``Template.make_module()``).
        args: its arguments.

    Returns:
        What the macro gives (its markup).

    Raises:
        Exception: what the macro raised, its traceback rewritten (:func:`template_error`
            reads it).
    """
    try:
        return macro(*args)
    except Exception:
        exc = rewrite_traceback_stack()
        code = getattr(getattr(macro, "_func", None), "__code__", None)
        filename = getattr(code, "co_filename", None)
        if filename and not any(frame.filename == filename
                                for frame in traceback.extract_tb(exc.__traceback__)):
            exc.filename, exc.lineno = filename, 1  # type: ignore[attr-defined]
        raise exc from None
