"""ambiforge: generate, validate, review and release datasets of ambiguous vs unambiguous instructions."""

__version__ = "0.1.0"
