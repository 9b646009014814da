"""ambiforge: generate, validate, review and release datasets of ambiguous vs unambiguous instructions.

The public API (:mod:`ambiforge.api`) is importable from here: ``from ambiforge import build, release``.
Its names are taken from ``ambiforge.api.__all__``, the one list of them. The module itself imports only the
error types at load time (each function imports what it runs), so ``import ambiforge`` and
``ambiforge --help`` stay cheap.
"""

from __future__ import annotations

from ambiforge import api as _api
from ambiforge.version import __version__

globals().update({name: getattr(_api, name) for name in _api.__all__})

__all__ = ["__version__", *_api.__all__]
