"""The project's layout and what counts as one of its inputs (docs/site.md, "Layout of the
repository" and "Command line").

One home for every path the generator reads or writes inside a project, as Sphinx's
``CatalogRepository`` owns the catalog paths. The package has one module per job; every
name is importable from here (``from generator.layout import Layout``):

- :mod:`~generator.layout.paths`: every path of a project, of the theme and of the
  built-in catalogs, and the names a slug or a locale folder may have;
- :mod:`~generator.layout.inputs`: :class:`Layout`, where a project's inputs are and
  which files count as inputs (every read and every folder walk);
- :mod:`~generator.layout.reading`: reading a regular file only, and the record of what
  a build read;
- :mod:`~generator.layout.writing`: writing the files the user keeps (atomically, in
  their own form, only while they are as read) and reports;
- :mod:`~generator.layout.discovery`: where the project is when no ``--project`` names
  it.
"""

from __future__ import annotations

from generator.layout.discovery import FoundProject
from generator.layout.discovery import find_project
from generator.layout.inputs import Layout
from generator.layout.paths import BUILTIN_LABEL
from generator.layout.paths import BUILTIN_LOCALES
from generator.layout.paths import BUILTIN_POT
from generator.layout.paths import BUILTIN_POT_LABEL
from generator.layout.paths import CHECKER_OUT
from generator.layout.paths import CONFIG
from generator.layout.paths import CONTENT
from generator.layout.paths import EXAMPLES
from generator.layout.paths import GIT
from generator.layout.paths import INPUT_PATHS
from generator.layout.paths import LOCALES
from generator.layout.paths import NOT_FOUND
from generator.layout.paths import OUTPUT
from generator.layout.paths import POT
from generator.layout.paths import PYODIDE_CDN
from generator.layout.paths import PYODIDE_FILES
from generator.layout.paths import ROOT_FILES
from generator.layout.paths import ROOT_INDEX
from generator.layout.paths import SCAFFOLD
from generator.layout.paths import SCHEMA_COMMENT
from generator.layout.paths import SCHEMA_FILE
from generator.layout.paths import SEARCH
from generator.layout.paths import SITEMAP
from generator.layout.paths import STATIC
from generator.layout.paths import STATIC_OUT
from generator.layout.paths import TEMPLATE_SUFFIXES
from generator.layout.paths import TEMPLATES
from generator.layout.paths import THEME
from generator.layout.paths import THEME_LABEL
from generator.layout.paths import THEME_STATIC
from generator.layout.paths import builtin_catalog
from generator.layout.paths import builtin_locales
from generator.layout.paths import catalog
from generator.layout.paths import generated_files
from generator.layout.paths import home_output
from generator.layout.paths import is_locale_name
from generator.layout.paths import is_slug
from generator.layout.paths import not_found_output
from generator.layout.paths import output_path
from generator.layout.paths import page_output
from generator.layout.paths import real_path
from generator.layout.paths import search_output
from generator.layout.paths import theme_templates
from generator.layout.reading import NotAnInput
from generator.layout.reading import open_regular
from generator.layout.reading import opened_outside
from generator.layout.reading import read_regular
from generator.layout.reading import reads_recorded
from generator.layout.reading import record_reads
from generator.layout.reading import recorded_reads
from generator.layout.writing import TEMP_TAG
from generator.layout.writing import FileChanged
from generator.layout.writing import FileState
from generator.layout.writing import Identity
from generator.layout.writing import before_final_check
from generator.layout.writing import in_form_of
from generator.layout.writing import replace_file
from generator.layout.writing import rewrite_file
from generator.layout.writing import sweep_temporary_copies
from generator.layout.writing import write_all
from generator.layout.writing import write_failure
from generator.layout.writing import write_in_place

__all__ = [
    "BUILTIN_LABEL",
    "BUILTIN_LOCALES",
    "BUILTIN_POT",
    "BUILTIN_POT_LABEL",
    "CHECKER_OUT",
    "CONFIG",
    "CONTENT",
    "EXAMPLES",
    "GIT",
    "INPUT_PATHS",
    "LOCALES",
    "NOT_FOUND",
    "OUTPUT",
    "POT",
    "PYODIDE_CDN",
    "PYODIDE_FILES",
    "ROOT_FILES",
    "ROOT_INDEX",
    "SCAFFOLD",
    "SCHEMA_COMMENT",
    "SCHEMA_FILE",
    "SEARCH",
    "SITEMAP",
    "STATIC",
    "STATIC_OUT",
    "TEMPLATES",
    "TEMPLATE_SUFFIXES",
    "TEMP_TAG",
    "THEME",
    "THEME_LABEL",
    "THEME_STATIC",
    "FileChanged",
    "FileState",
    "FoundProject",
    "Identity",
    "Layout",
    "NotAnInput",
    "before_final_check",
    "builtin_catalog",
    "builtin_locales",
    "catalog",
    "find_project",
    "generated_files",
    "home_output",
    "in_form_of",
    "is_locale_name",
    "is_slug",
    "not_found_output",
    "open_regular",
    "opened_outside",
    "output_path",
    "page_output",
    "read_regular",
    "reads_recorded",
    "real_path",
    "record_reads",
    "recorded_reads",
    "replace_file",
    "rewrite_file",
    "search_output",
    "sweep_temporary_copies",
    "theme_templates",
    "write_all",
    "write_failure",
    "write_in_place",
]
