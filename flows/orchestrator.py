"""Prefect as the library's orchestrator (:class:`ambiforge.engine.orchestrator.Orchestrator`), registered
under the entry point ``ambiforge.orchestrators: prefect``: each command of :mod:`ambiforge.api` that runs
on Prefect calls one of these methods, which runs the command's flow and returns what the in-process
engine returns.

The flows themselves are imported by the method that runs them: the temporary API server starts as soon as
this module is loaded, and the flows' imports (the engine's stages, Great Expectations) overlap its start.
"""

from __future__ import annotations

import contextlib
import importlib
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from prefect.client.schemas.schedules import CronSchedule
from prefect.utilities import engine as prefect_engine

from ambiforge import interrupts
from ambiforge.errors import ConfigError
from flows.server import TemporaryServer, configured_api_url, prefect_api

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.evaluation.command import EvalOptions
    from ambiforge.releases.writer import ReleaseOptions
    from ambiforge.review.push import ReviewPaths

#: Imported in the background while the temporary Prefect server starts: the validate stage's dataset
#: expectations, seconds of imports on a busy machine (the report's charts need no plotting library). (A
#: local build imports Great Expectations in a worker process while generation runs:
#: ambiforge/warm_worker.py.)
PREWARM = ("great_expectations", "ambiforge.validation.expectations", "flows.validate")


def prewarm(modules: tuple[str, ...] = PREWARM) -> threading.Thread:
    def load() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - only a warm-up: the stage imports (and reports) it again
                return

    thread = threading.Thread(target=load, name="prewarm-imports", daemon=True)
    thread.start()
    return thread


def bridge_prefect_sigterm() -> None:
    """While a flow runs, Prefect replaces the SIGTERM handler with its own (it raises TerminationSignal
    in the main thread, reports the crash, then re-sends SIGTERM to the handler it replaced). Its crash
    report waits for running tasks, so without this the stop would wait for the whole stage: wrap
    Prefect's handler so that SIGTERM first sets the stopping event and arms the grace timer. Prefect looks
    the handler up by module attribute, so replacing the attribute is enough (and idempotent)."""
    original = prefect_engine._prefect_sigterm_handler
    if getattr(original, "_ambiforge_bridge", False):
        return

    def bridge(signum: int, frame: FrameType | None) -> None:
        interrupts.begin_stop(signum)
        original(signum, frame)

    bridge._ambiforge_bridge = True  # type: ignore[attr-defined]
    prefect_engine._prefect_sigterm_handler = bridge


class PrefectOrchestrator:
    """Runs the engine's commands as Prefect flows (records, artifacts, retries as Prefect tasks)."""

    name = "prefect"

    def configured(self) -> bool:
        return bool(configured_api_url())

    def api_server(self) -> contextlib.AbstractContextManager[TemporaryServer | None]:
        return prefect_api()

    def build(self, options: BuildOptions, annotation_root: str, server: Any) -> dict[str, Any]:
        """The ``build`` flow, once its API server (if this command started one) answers."""
        if server is not None:  # the validate stage's heavy imports, while the server starts
            prewarm(PREWARM)
        from flows.build import build_flow

        bridge_prefect_sigterm()
        if server is not None:
            server.wait()
        return build_flow(options, annotation_root)  # type: ignore[no-any-return]

    def release(self, opts: ReleaseOptions) -> Path:
        from flows.release import run_release

        return Path(run_release(opts)["folder"])

    def evaluate(self, opts: EvalOptions) -> dict[str, Any]:
        from flows.eval import eval_flow

        return eval_flow(opts)  # type: ignore[no-any-return]

    def review_push(self, run_id: str, paths: ReviewPaths, project: str | None) -> dict[str, Any]:
        from flows.review import review_push_flow

        return review_push_flow(run_id, paths, project)  # type: ignore[no-any-return]

    def review_pull(self, run_id: str, paths: ReviewPaths) -> dict[str, Any]:
        from flows.review import review_pull_flow

        return review_pull_flow(run_id, paths)  # type: ignore[no-any-return]

    def check_schedule(self, cron: str) -> str:
        try:
            CronSchedule(cron=cron)
        except ValueError as exc:
            raise ConfigError(f"--cron: not a valid cron expression {cron!r}: {exc.errors()[0]['msg']}") from None
        return cron

    def serve(self, cron: str, options: BuildOptions, name: str) -> None:
        from flows import deployments

        deployments.serve_build(cron, options, name)


orchestrator = PrefectOrchestrator()
