"""ambiforge: generate, validate, review and release datasets of ambiguous vs unambiguous instructions.

The public API (:mod:`ambiforge.api`) is importable from here: ``from ambiforge import build, release``,
with its option types (``BuildOptions``, ``EvalOptions``, ``ReleaseOptions``, ...) and result types
(``BuildResult``, ...). The functions and results import only the error types at load time (each
function imports what it runs), so ``import ambiforge`` and ``ambiforge --help`` stay cheap; the option
types live beside the code that reads them and are loaded on first use of their name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ambiforge.api import (
    Orchestration,
    build,
    build_options,
    check_deployment_name,
    check_schedule,
    diff,
    estimate,
    eval_options,
    evaluate,
    export_ambik,
    import_ambik,
    load_config,
    orchestration,
    release,
    release_options,
    rescore_eval,
    review_pull,
    review_push,
    serve,
    validate,
    verify,
)
from ambiforge.errors import AmbiforgeError, ConfigError, InputError
from ambiforge.results import (
    BuildResult,
    EstimateResult,
    EvalResult,
    ReleaseResult,
    ReviewResult,
    ValidationResult,
    VerifyResult,
)
from ambiforge.version import __version__

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.config.file import Config
    from ambiforge.evaluation.command import EvalOptions
    from ambiforge.releases.writer import ReleaseOptions
    from ambiforge.review.push import ReviewPaths

#: option types, by the module that defines them (loaded on first use: they import pydantic, pyarrow)
_LAZY = {
    "BuildOptions": "ambiforge.config.build",
    "Config": "ambiforge.config.file",
    "EvalOptions": "ambiforge.evaluation.command",
    "ReleaseOptions": "ambiforge.releases.writer",
    "ReviewPaths": "ambiforge.review.push",
}

__all__ = [
    "__version__",
    # functions
    "build",
    "build_options",
    "check_deployment_name",
    "check_schedule",
    "diff",
    "estimate",
    "eval_options",
    "evaluate",
    "export_ambik",
    "import_ambik",
    "load_config",
    "orchestration",
    "release",
    "release_options",
    "rescore_eval",
    "review_pull",
    "review_push",
    "serve",
    "validate",
    "verify",
    # options
    "BuildOptions",
    "Config",
    "EvalOptions",
    "Orchestration",
    "ReleaseOptions",
    "ReviewPaths",
    # results
    "BuildResult",
    "EstimateResult",
    "EvalResult",
    "ReleaseResult",
    "ReviewResult",
    "ValidationResult",
    "VerifyResult",
    # errors
    "AmbiforgeError",
    "ConfigError",
    "InputError",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ambiforge' has no attribute {name!r}")
