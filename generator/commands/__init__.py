"""The commands (as mkdocs' ``commands/``): ``build``, ``check`` and ``i18n``, each a
sequence of named stages over the shared loading (:mod:`generator.commands.project`)."""
