"""The site's output folder: whether a build may write it (:func:`output_problem`), and
its writer (:func:`open_writer`), for the build's stages and for a build taken whole
from the cache."""

from __future__ import annotations

from pathlib import Path

from generator.layout import INPUT_PATHS
from generator.layout import OUTPUT
from generator.layout import output_path
from generator.layout import real_path
from generator.output import OutputError
from generator.output import SiteWriter
from generator.output import overlap_error


def output_problem(root: Path, out: Path | None) -> str | None:
    """Why the output folder may not be written, from the paths alone: it holds the
    project, or overlaps one of its input folders (:func:`generator.output.overlap_error`);
    ``None`` when it may be."""
    target = output_path(out if out is not None else root / OUTPUT)
    here = real_path(root)
    if target == here or target in here.parents:
        return (f"{target}: the output folder holds the project; expected a folder of its "
                "own, such as site/ (see --out)")
    return overlap_error(target, tuple(here / f for f in INPUT_PATHS))


def open_writer(root: Path, out: Path | None, spare: Path | None = None
                 ) -> SiteWriter | str:
    """The output folder's writer, or the input error that refuses it: the folder holds
    the project (:func:`output_problem`), or is one the generator did not create
    (:class:`SiteWriter`)."""
    problem = output_problem(root, out)
    if problem is not None:
        return problem
    target = output_path(out if out is not None else root / OUTPUT)
    try:
        return SiteWriter(target, forbidden=tuple(real_path(root) / f
                                                  for f in INPUT_PATHS), spare=spare)
    except OutputError as exc:
        return str(exc)
