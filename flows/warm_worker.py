"""One step of a local build in a process of its own, started -- and its slow imports done -- while the
build is busy with something else.

Why: Great Expectations takes 2.5 s of CPU to import. Imported in the build's own process while LLM calls
are in flight, it holds the interpreter lock and the replies wait for it (a 50-pair build's LLM phase went
from 0.92 to 0.8 of its ideal); imported after them, it adds to the wall. In a worker process it loads on
the other core while the build's threads wait on replies, and the dataset expectations then run there.

The worker is a spawned interpreter (no fork of a process with threads) that gets SIGTERM when the build
dies, however it dies (as the temporary Prefect server does: :func:`flows.server.die_with_parent`).
"""

from __future__ import annotations

import concurrent.futures
import importlib
import multiprocessing
import os
from collections.abc import Callable
from typing import Any


def _start(modules: tuple[str, ...], parent: int) -> None:
    """In the worker: die with the build (SIGTERM when it dies, even killed), then import."""
    from flows.server import die_with_parent

    die_with_parent(parent)
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - only a warm-up: the step imports (and reports) it again
            return


class WarmWorker:
    """A single worker process that imports ``modules`` as soon as :meth:`start` is called; :meth:`call`
    runs a function there (arguments and result are pickled) and waits for it."""

    def __init__(self, modules: tuple[str, ...]) -> None:
        self.modules = modules
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None

    def start(self) -> WarmWorker:
        if self.pool is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(self.modules, os.getpid()),
            )
            self.pool.submit(int)  # the process (and its imports) starts now, not at the first call
        return self

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self.start().pool.submit(fn, *args).result()  # type: ignore[union-attr]

    def close(self, kill: bool = False) -> None:
        """Let the worker exit; ``kill``: now (a failing build must not wait for it to finish importing)."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        if kill:
            for process in list(getattr(pool, "_processes", {}).values()):  # no public handle in 3.11
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> WarmWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(kill=exc[0] is not None)
