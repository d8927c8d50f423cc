"""Errors met while rendering, named at the template's file and line."""

from __future__ import annotations

import traceback
from pathlib import Path

from jinja2 import TemplateError

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
