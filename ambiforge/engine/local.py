"""A build in this process's threads, without Prefect: the steps of :mod:`ambiforge.engine.pipeline`, run the way the
Prefect flows run them (one thread per generation batch, like Prefect's ThreadPoolTaskRunner; the same
retry policy on transient errors), with no API server to start, import or wait for.

This is what :func:`ambiforge.api.build` runs when no orchestrator is wanted (no ``--prefect``, no Dask
runner, no ``PREFECT_API_URL``; see :mod:`ambiforge.engine.pipeline` for why); it imports no Prefect.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ambiforge.engine import pipeline
from ambiforge.engine.retries import is_transient
from ambiforge.llm.limiter import shared_limiter
from ambiforge.warm_worker import WarmWorker, warm_imports

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions

#: The policy of each step that retries (the others fail at once), as the Prefect tasks declare it.
RETRIES: dict[Callable[..., Any], pipeline.Retry] = {
    pipeline.generate_batch: pipeline.BATCH_RETRY,
    pipeline.review_push: pipeline.REVIEW_RETRY,
}


def with_retries(
    step: Callable[..., Any],
    *args: Any,
    sleep: Callable[[float], None] = time.sleep,
    policy: pipeline.Retry | None = None,
) -> Any:
    """Run ``step``; on a transient error retry it as its policy says (bad input and bugs fail at once).
    The policy is the step's own (:data:`RETRIES`) unless one is given."""
    policy = policy or RETRIES.get(step, pipeline.Retry(0, 0.0))
    for attempt in range(policy.retries + 1):
        try:
            return step(*args)
        except Exception as exc:
            if attempt == policy.retries or not is_transient(exc):
                raise
            sleep(policy.delay)
    raise AssertionError("unreachable")  # pragma: no cover


class LocalExecutor:
    """:class:`ambiforge.engine.pipeline.Executor` over a thread pool with a thread per pending step, as Prefect's
    ThreadPoolTaskRunner has by default (the LLM limiter, not the pool, bounds the calls in flight)."""

    def __init__(self) -> None:
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=sys.maxsize, thread_name_prefix="ambiforge")

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        # Not waiting when leaving on an error: the build is failing (or being interrupted) anyway, and a
        # thread still in a call must not hold the exit.
        self.pool.shutdown(wait=exc[0] is None, cancel_futures=True)

    def submit(self, step: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        return self.pool.submit(with_retries, step, *args)

    def results(self, futures: list[Any]) -> Iterator[Any]:
        return pipeline.finished_in_order(futures, concurrent.futures.as_completed)

    def call(self, step: Callable[..., Any], *args: Any) -> Any:
        return with_retries(step, *args)


def stages(run: LocalExecutor, worker: WarmWorker | None = None) -> pipeline.Stages:
    def generate(options: BuildOptions) -> dict[str, int]:
        if worker is not None:  # the validate stage's imports load while generation waits on replies
            worker.start()
            if options.llm is not None:  # in this process once the first call is out (the start-up is not slowed)
                first_call = shared_limiter(options.llm.concurrency, options.llm.rpm).first_call
                loading = functools.partial(pipeline.load_for_llm_build, options)
                warm_imports(pipeline.VALIDATE_MODULES, after=first_call, first=loading)
        return pipeline.generate(options, run)

    return pipeline.Stages(
        generate=generate,
        validate=lambda options, seconds: pipeline.validate(options, seconds, run, worker),
        publish=lambda summary, report, reports: None,  # artifacts live in a Prefect server
        review_push=lambda run_id, paths: with_retries(pipeline.review_push, run_id, paths),
    )


def build_locally(
    options: BuildOptions | dict[str, Any], annotation_root: str = "annotation", warm_worker: bool | None = None
) -> dict[str, Any]:
    """The ``build`` flow's stages, in this process (same files, same summary).

    ``warm_worker``: the validate stage's duplicate rules and dataset expectations run in a worker process
    that imports what they need (datasketch, Great Expectations) while generation runs
    (:mod:`ambiforge.warm_worker`), and this process imports what its files and report need (pyarrow,
    jinja2) once the first LLM call is out.
    By default only for LLM providers, whose generation waits on replies: an offline build's generation
    keeps this process busy, and for a small one the worker's start-up (0.6 s of CPU) costs more than it
    hides."""
    options = pipeline.resolve_options(options)
    if warm_worker is None:
        warm_worker = options.provider != "offline"
    worker = WarmWorker(pipeline.WORKER_MODULES, pipeline.WORKER_LATER) if warm_worker else None
    with contextlib.ExitStack() as stack, LocalExecutor() as run:
        if worker is not None:
            stack.enter_context(worker)
        return pipeline.build(options, annotation_root, stages(run, worker))
