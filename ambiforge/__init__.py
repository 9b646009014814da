"""ambiforge: generate, validate, review and release datasets of ambiguous vs unambiguous instructions.

The public API (:mod:`ambiforge.api`) is importable from here: ``from ambiforge import build, release``.
It loads on first use, so ``import ambiforge`` (and ``ambiforge --help``) stays cheap.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from ambiforge.version import __version__

__all__ = [
    "Orchestration",
    "__version__",
    "build",
    "check_schedule",
    "diff",
    "evaluate",
    "load_config",
    "orchestration",
    "release",
    "release_options",
    "review_push",
    "review_pull",
    "serve",
    "validate",
    "verify",
]

if TYPE_CHECKING:
    from ambiforge.api import (
        Orchestration,
        build,
        check_schedule,
        diff,
        evaluate,
        load_config,
        orchestration,
        release,
        release_options,
        review_pull,
        review_push,
        serve,
        validate,
        verify,
    )

_API = frozenset(__all__) - {"__version__"}


class _Package(types.ModuleType):
    """``ambiforge.release`` is the API function, not the subpackage of the same name: importing a module of
    ``ambiforge/release/`` binds the subpackage on its parent, and would otherwise hide the function."""

    def __getattribute__(self, name: str) -> Any:
        if name in _API:
            return getattr(importlib.import_module("ambiforge.api"), name)
        return super().__getattribute__(name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | _API)


sys.modules[__name__].__class__ = _Package
