"""Rendering: pages in one locale, case rows and tables, the whole site through Jinja."""
