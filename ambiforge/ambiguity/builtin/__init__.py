"""The built-in ambiguity types, one package (folder) each, declared as entry points in ``ambiforge.types``."""
