"""SIGINT and SIGTERM during a build: stop starting work at once, let what is in flight end, exit 130/143.

One process-wide event says "stopping". The LLM limiter, which every call passes through, checks it
before a call starts and raises :class:`Interrupted`; so within one call's latency no new paid request
leaves the process, calls already sent finish (their replies are cached and paid for), and the rerun of the
same run id resumes from the checkpoints. The CLI turns :class:`Interrupted` (or the signal arriving while
nothing was calling) into ``state.json`` "interrupted", one line and the conventional exit code.

A second signal while stopping exits at once (a user pressing Ctrl-C twice means it). And the stop is
bounded: ``handled(finish, grace)`` calls ``finish`` from a timer thread ``grace`` seconds after the signal
if the main thread has not reached it by then (Prefect reports task and flow states to its API before it
lets a KeyboardInterrupt through, which took seconds on a loaded machine).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

_stopping = threading.Event()
_signal_number: list[int] = []


class Interrupted(Exception):  # noqa: N818 - reads as what happened, like KeyboardInterrupt
    """Raised instead of starting new work after SIGINT/SIGTERM. Not an AmbiforgeError: it is not the
    user's input that failed, and it must not be turned into a rejected pair."""


def stopping() -> bool:
    return _stopping.is_set()


def check() -> None:
    """Raise :class:`Interrupted` when the process is stopping; called before each LLM call starts."""
    if _stopping.is_set():
        raise Interrupted("interrupted")


def request_stop(signum: int = signal.SIGINT) -> None:
    if not _signal_number:
        _signal_number.append(signum)
    _stopping.set()


def exit_code() -> int:
    """128 + the signal that stopped us: 130 for SIGINT, 143 for SIGTERM."""
    return 128 + (_signal_number[0] if _signal_number else signal.SIGINT)


def reset() -> None:
    """For tests and long-lived processes (``serve``): forget an earlier stop."""
    _stopping.clear()
    _signal_number.clear()


def once(finish: Callable[[], None], wait: float = 15.0) -> Callable[[], None]:
    """``finish`` run by one thread only: the grace timer's or the main thread's, whichever comes first.

    The main thread, coming second, waits (up to ``wait`` seconds) for the other's finish to end the
    process instead of returning: were it to unwind, the interpreter would exit before the daemon timer
    thread printed its line, and typer would turn the KeyboardInterrupt into 130 whatever the signal. It
    finishes itself only if the other thread died without ending the process. A second thread other than
    the main one just returns."""
    taken = threading.Lock()

    def run() -> None:
        if not taken.acquire(blocking=False):
            if threading.current_thread() is not threading.main_thread():
                return
            taken.acquire(timeout=wait)
        finish()

    return run


_finish: list[tuple[Callable[[], None], float]] = []
_on_stop: dict[str, Callable[[int], None]] = {}


def on_stop(name: str, hook: Callable[[int], None]) -> None:
    """Call ``hook(signum)`` when a stop begins (from the signal handler: it must be quick and not block),
    e.g. to pass the signal on to worker processes. One hook per name."""
    _on_stop[name] = hook


def begin_stop(signum: int) -> None:
    """Set the event and arm the grace timers (once)."""
    if _stopping.is_set():
        return
    request_stop(signum)
    for hook in list(_on_stop.values()):
        with contextlib.suppress(Exception):  # a hook must not keep the stop from happening
            hook(signum)
    for finish, grace in _finish:
        timer = threading.Timer(grace, finish)
        timer.daemon = True
        timer.start()


def _handler(signum: int, frame: FrameType | None) -> None:
    if _stopping.is_set():  # a second signal (or Prefect re-sending SIGTERM): finish now
        for finish, _ in _finish:
            finish()  # exits the process; returns only if another thread is already finishing
        if not _finish:
            os._exit(128 + signum)
        raise KeyboardInterrupt
    begin_stop(signum)
    # The main thread usually waits on task futures; interrupt that wait too, the way Ctrl-C would.
    raise KeyboardInterrupt


@contextmanager
def handled(finish: Callable[[], None] | None = None, grace: float = 3.0) -> Iterator[None]:
    """Install the handlers for SIGINT and SIGTERM for the block (main thread only), restoring the
    previous ones after. ``finish`` (which should end the process) runs ``grace`` seconds after a signal
    unless the process ended before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if finish is not None:
        _finish.append((finish, grace))
    previous = {s: signal.signal(s, _handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        _finish.clear()
