"""Preloaded in every Dask worker process of a local cluster (``preload=["ambiforge.engine.dask_worker"]``): SIGINT
and SIGTERM set the worker's stopping event instead of killing it with a traceback.

A Ctrl-C at a terminal reaches every process of the foreground group, the workers included, and the build
forwards a signal it gets alone to its local workers (:func:`ambiforge.engine.runners.forward_stop`). Either way each
worker then starts no new LLM call (its limiter checks :func:`ambiforge.interrupts.check`), lets the calls
in flight end, and is shut down with the cluster when the build exits (130/143).
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any

from ambiforge import interrupts


def _stop(signum: int, frame: FrameType | None) -> None:
    interrupts.request_stop(signum)


def dask_setup(worker: Any = None) -> None:
    """Dask calls this in the worker process when it starts (its main thread runs the event loop)."""
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, _stop)
    except ValueError:  # not the main thread: leave the defaults
        pass


def dask_teardown(worker: Any = None) -> None:
    """Dask calls this when the worker starts closing, before its connections to the scheduler close."""
    from ambiforge.engine.dask_limiter import close_limiters

    close_limiters()
