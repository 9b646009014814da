"""What the library needs from an orchestrator (Prefect, in ``flows/``), and how it finds one.

Why a protocol and a registry: the engine runs every command in this process, and the same work can run as
recorded flows on an orchestrator's API. The library must not import the package that wraps it (``flows``
depends on ``ambiforge``, never the reverse), so the orchestrator registers itself under the entry-point
group ``ambiforge.orchestrators`` (``prefect = flows.orchestrator:orchestrator``) and :func:`load` finds it
by name when a command asks for it. Without it installed, asking is one line of error, and nothing else
changes: the in-process engine needs no orchestrator.

When to orchestrate (:func:`wanted`): when asked (``--prefect``, a Dask task runner, which is Prefect's), or
when an API is configured (``PREFECT_API_URL``: a maintainer's server, where the runs belong).
"""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ambiforge.errors import ConfigError
from ambiforge.registry import Registry

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.evaluation.command import EvalOptions
    from ambiforge.releases.writer import ReleaseOptions
    from ambiforge.review.push import ReviewPaths

#: The orchestrator ``--prefect`` and ``PREFECT_API_URL`` mean.
DEFAULT = "prefect"


class Server(Protocol):
    """An API server this command started for itself (and stops when it ends)."""

    def wait(self) -> None:
        """Block until the server answers."""
        ...

    def stop(self, grace: float = 5.0, wait: bool = True) -> None: ...


class Orchestrator(Protocol):
    """Runs the engine's commands as recorded runs. Each call returns what the in-process engine returns
    for the same command (a build's summary, a release's folder, an eval's document, a review's counts)."""

    name: str

    def configured(self) -> bool:
        """Whether an API to record runs on is configured (then no temporary server is started)."""
        ...

    def api_server(self) -> AbstractContextManager[Server | None]:
        """A temporary API server for the block (started at once, not waited for), unless one is configured."""
        ...

    def build(self, options: BuildOptions, annotation_root: str, server: Server | None) -> dict[str, Any]: ...

    def release(self, opts: ReleaseOptions) -> Path: ...

    def evaluate(self, opts: EvalOptions) -> dict[str, Any]: ...

    def review_push(self, run_id: str, paths: ReviewPaths, project: str | None) -> dict[str, Any]: ...

    def review_pull(self, run_id: str, paths: ReviewPaths) -> dict[str, Any]: ...

    def check_schedule(self, cron: str) -> str:
        """``cron`` if the orchestrator can schedule it, else a ConfigError naming ``--cron``."""
        ...

    def serve(self, cron: str, options: BuildOptions, name: str) -> None:
        """Run scheduled builds from this process until interrupted."""
        ...


ORCHESTRATORS: Registry[Orchestrator] = Registry("orchestrator", "ambiforge.orchestrators")


def load(name: str = DEFAULT) -> Orchestrator:
    """The registered orchestrator ``name``; not installed is one line, not a traceback."""
    if name not in ORCHESTRATORS:
        raise ConfigError(
            f"the {name} orchestrator is not installed (no entry point {name!r} in group {ORCHESTRATORS.group}; "
            "install ambiforge with its flows package, or run without --prefect and PREFECT_API_URL)"
        )
    return ORCHESTRATORS.get(name)


def wanted(asked: bool) -> bool:
    """Whether to run on the orchestrator: asked for (``--prefect``, a Dask runner), or an API is configured.
    Prefect reads its settings once, when imported: a process that imported it already (a test, a
    deployment run) asks the orchestrator, which reads them; otherwise the environment is what it will read."""
    if asked or os.environ.get("PREFECT_API_URL"):
        return True
    if "prefect" in sys.modules and DEFAULT in ORCHESTRATORS:
        return load().configured()
    return False
