"""Catalogs and words: reading and checking `.po` files, the messages the generator
itself writes, and catalog statistics (a leaf above the engine: nothing here renders)."""
