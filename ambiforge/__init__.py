"""ambiforge: generate, validate, review and release datasets of ambiguous vs unambiguous instructions.

The public API (:mod:`ambiforge.api`) is importable from here: ``from ambiforge import build, release``.
It loads on first use, so ``import ambiforge`` (and ``ambiforge --help``) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ambiforge.version import __version__

__all__ = [
    "Orchestration",
    "__version__",
    "build",
    "check_deployment_name",
    "check_schedule",
    "diff",
    "evaluate",
    "export_ambik",
    "import_ambik",
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
        check_deployment_name,
        check_schedule,
        diff,
        evaluate,
        export_ambik,
        import_ambik,
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


def __getattr__(name: str) -> Any:
    """The API's functions, loaded on first use (PEP 562), so ``import ambiforge`` stays cheap."""
    if name in _API:
        from ambiforge import api

        return getattr(api, name)
    raise AttributeError(f"module 'ambiforge' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API)
