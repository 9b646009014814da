"""How ``release``, ``eval`` and ``review push``/``pull`` run: as Prefect flows when a Prefect API is there to
record them, otherwise the very same logic in this process.

Each of these commands is one task wrapped in a flow that publishes a Markdown artifact. Run as a flow
without ``PREFECT_API_URL``, Prefect first starts its ephemeral API server (~8 s on two busy cores, a SQLite
migration on a fresh ``PREFECT_HOME``) only to record a run nobody will look at, and a killed command left
that server behind. So, as ``build`` does (:mod:`ambiforge.engine.local`), a command runs its flow when ``--prefect`` is
given (on this command's own temporary server, :func:`flows.server.prefect_api`, which cannot outlive it) or
when ``PREFECT_API_URL`` is set (a maintainer's server: the runs and artifacts belong there), and otherwise
calls the logic in-process, with the same retry policy on transient errors and no Prefect import.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ambiforge.evaluation.command import EvalOptions
    from ambiforge.release.writer import ReleaseOptions
    from ambiforge.review.push import ReviewPaths


def tracked(asked: bool) -> bool:
    """Whether to run Prefect flows: asked for (``--prefect``, a Dask runner), or an API is configured."""
    from flows.server import configured_api_url

    return asked or bool(configured_api_url())


@contextlib.contextmanager
def orchestration(asked: bool) -> Iterator[bool]:
    """Yield whether the block runs Prefect flows; if so, on a temporary API server unless one is configured,
    answering before the block starts (each of these commands is one flow, so there is nothing to overlap
    with the start but reading the configuration)."""
    if not tracked(asked):
        yield False
        return
    from flows.server import prefect_api

    with prefect_api() as server:
        if server is not None:
            server.wait()
        yield True


def _in_process(step: Callable[..., Any], *args: Any, retry: bool = False) -> Any:
    from ambiforge.engine import pipeline
    from ambiforge.engine.local import with_retries

    return with_retries(step, *args, policy=pipeline.REVIEW_RETRY if retry else None)


def release(opts: ReleaseOptions, prefect: bool) -> Path:
    """The released folder; a refused release is the :class:`~ambiforge.errors.AmbiforgeError` to print."""
    if prefect:
        from flows.release import run_release

        return Path(run_release(opts)["folder"])
    from ambiforge.stages import StageContext, get

    return Path(get("release").run([opts], StageContext(opts))[0])


def evaluate(opts: EvalOptions, prefect: bool) -> dict[str, Any]:
    if prefect:
        from flows.eval import eval_flow

        return eval_flow(opts)
    from ambiforge.evaluation.command import run_eval

    return run_eval(opts)


def review_push(run_id: str, paths: ReviewPaths, project: str | None, prefect: bool) -> dict[str, Any]:
    if prefect:
        from flows.review import review_push_flow

        return review_push_flow(run_id, paths, project)
    from ambiforge.engine.pipeline import review_push as push

    return _in_process(push, run_id, paths, project, retry=True)


def review_pull(run_id: str, paths: ReviewPaths, prefect: bool) -> dict[str, Any]:
    if prefect:
        from flows.review import review_pull_flow

        return review_pull_flow(run_id, paths)
    from ambiforge.review.pull import pull

    return _in_process(pull, run_id, paths, retry=True)
