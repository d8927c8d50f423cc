"""Content pages as data (as mkdocs' ``structure/``): parsing, page checks, rule numbers
for placeholders, and the Babel extractors of pages and case files."""
