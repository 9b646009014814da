"""ambiforge: generate, validate, review and release datasets of ambiguous vs unambiguous instructions."""

from ambiforge.version import __version__

__all__ = ["__version__"]
