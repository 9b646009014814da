"""Steps of a local build (or a release's expectations) in a process of its own, started -- and their slow
imports done -- while the build is busy with something else.

Why: Great Expectations takes 2.5 to 4 s of CPU to import. Imported in the build's own process while LLM
calls are in flight, it holds the interpreter lock and the replies wait for it (a 50-pair build's LLM
phase went from 0.92 to 0.8 of its ideal); imported after them, it adds to the wall. In a worker process
it loads on the other core while the build's threads wait on replies, and the validate stage's duplicate
rules and dataset expectations then run there. Smaller imports that a build's process needs later (its
files' pyarrow, the report's jinja2) are done in a thread of that process by :func:`warm_imports`.

The worker is a plain child interpreter talking pickle over its stdin/stdout (no multiprocessing: its
resource tracker warned on the terminal after an interrupted build). Its stderr goes to a temporary file,
quoted when it fails; it gets SIGTERM when the build dies, however it dies
(:func:`ambiforge.processes.die_with_parent`), and exits when its stdin closes.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import pickle
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from typing import IO, Any


class WorkerError(RuntimeError):
    """The worker process died (a crash of the machine or interpreter, not an error of the step)."""


class WarmWorker:
    """A worker process that imports ``modules`` as soon as :meth:`start` is called, then ``later`` in a
    thread of its own while it serves; :meth:`call` runs a module-level function there (arguments, result
    and exceptions are pickled) and waits for it; :meth:`parts` runs a generator function there and gives
    its values as they come.

    ``later``: what only a later step needs, so that a first step does not wait for it. A step that imports
    a module the thread is importing waits for that import, as Python's import lock has any two threads do;
    ``modules`` should hold what both import, so that they never import one package's submodules at once."""

    def __init__(self, modules: tuple[str, ...], later: tuple[str, ...] = ()) -> None:
        self.modules = modules
        self.later = later
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None
        self.released: list[subprocess.Popen[bytes]] = []
        self.unread: Iterator[Any] | None = None  # the replies of a step in parts not yet read to the end

    def start(self) -> WarmWorker:
        if self.process is None:
            if self.log is None:  # one log for the worker and any started after a release
                self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
            boot = (
                f"import sys; sys.path[:0] = {[p for p in sys.path if p]!r}; "
                "import ambiforge.warm_worker as w; w.serve()"
            )
            self.process = subprocess.Popen(
                [sys.executable, "-c", boot, str(os.getpid()), *self.modules, LATER, *self.later],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.log,
            )
        return self

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        self._send(fn, args)
        ok, value, _more = self._receive()
        if not ok:
            raise value
        return value

    def parts(self, fn: Callable[..., Iterator[Any]], *args: Any) -> Iterator[Any]:
        """Run a generator function there: each value it yields comes back as it is made, so the build can
        use a first result while the step goes on with what nobody waits for. Read it to the end (that is
        where the step's later errors are raised) before another call."""
        self._send(fn, args)  # now: the step starts before the first part is asked for

        def replies() -> Iterator[Any]:
            while True:
                ok, value, more = self._receive()
                if not ok:
                    self.unread = None
                    raise value
                if not more:
                    self.unread = None
                    return
                yield value

        self.unread = replies()
        return self.unread

    def _send(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        if self.unread is not None and self.process is not None:  # a step given up on (a retried caller):
            with contextlib.suppress(Exception):  # its replies go, so that the next ones are this call's
                for _ in self.unread:
                    pass
        self.unread = None
        process = self.start().process
        assert process is not None and process.stdin is not None
        try:
            pickle.dump((fn, args), process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            process.stdin.flush()
        except OSError as exc:
            raise WorkerError(f"the worker process failed ({type(exc).__name__}): {self.log_tail()}") from None

    def _receive(self) -> tuple[bool, Any, bool]:
        """(ok, the result or exception, whether more replies of the step follow)."""
        process = self.process
        assert process is not None and process.stdout is not None
        try:
            reply: tuple[bool, Any, bool] = pickle.load(process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            raise WorkerError(f"the worker process failed ({type(exc).__name__}): {self.log_tail()}") from None
        return reply

    def log_tail(self, size: int = 2000) -> str:
        from ambiforge.processes import tail_of

        return tail_of(self.log, size)

    def release(self) -> None:
        """No more calls: the worker starts exiting now (an interpreter that imported Great Expectations
        takes seconds to tear down), while the build goes on; :meth:`close` reaps it."""
        process, self.process = self.process, None  # a later call (a retried step) starts another
        self.unread = None
        if process is not None:
            self.released.append(process)
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()

    def close(self, kill: bool = False) -> None:
        """Let the worker exit (its stdin closes) and reap it, so that it is gone (and its CPU time is
        counted) when the build ends; ``kill``: now (a failing build must not wait for it)."""
        if kill and self.process is not None:
            self.process.kill()  # before its stdin closes: a worker told to stop would exit with 0
        self.release()
        for process in self.released:
            if kill:
                process.kill()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.released.clear()
        if self.log is not None:
            self.log.close()
            self.log = None

    def __enter__(self) -> WarmWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(kill=exc[0] is not None)


#: Separates, in the worker's arguments, the modules imported before serving from those imported meanwhile.
LATER = "--later"


def _import_all(names: list[str]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - only a warm-up: the step imports (and reports) it again
            break


def warm_imports(
    names: tuple[str, ...], after: threading.Event | None = None, first: Callable[[], object] | None = None
) -> threading.Thread:
    """Import ``names`` in a thread of this process, once ``after`` is set if given (a step that needs
    one of them meanwhile waits for its import, as Python's import lock has it). ``first``: what to load
    before them, needed sooner (its failure is left to the step that needs it, which meets it again)."""

    def run() -> None:
        if after is not None:
            after.wait()
        if first is not None:
            with contextlib.suppress(Exception):  # only a warm-up: the step loads (and reports) it again
                first()
        _import_all(list(names))

    thread = threading.Thread(target=run, name="warm-imports", daemon=True)
    thread.start()
    return thread


def serve() -> None:
    """The worker: ``argv`` is the parent's pid, the modules to import, ``--later`` and the modules to
    import while serving; then (function, args) requests from stdin, (ok, result or exception, more)
    replies to stdout (``more``: a part of a generator step, another reply follows), until stdin closes;
    then it exits at once."""
    from ambiforge.processes import die_with_parent

    parent, names = int(sys.argv[1]), sys.argv[2:]
    cut = names.index(LATER) if LATER in names else len(names)
    die_with_parent(parent)
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a step (or an import) that prints must not corrupt the replies
    _import_all(names[:cut])
    if names[cut + 1 :]:
        warm_imports(tuple(names[cut + 1 :]))
    while True:
        try:
            fn, args = pickle.load(requests)
        except EOFError:
            break
        try:
            value = fn(*args)
            if inspect.isgenerator(value):  # a step in parts (WarmWorker.parts): each part as it comes
                for part in value:
                    pickle.dump((True, part, True), replies, protocol=pickle.HIGHEST_PROTOCOL)
                    replies.flush()
                value = None
            reply = (True, value, False)
        except Exception as exc:  # noqa: BLE001 - sent to the caller, which raises it
            reply = (False, exc, False)
        pickle.dump(reply, replies, protocol=pickle.HIGHEST_PROTOCOL)
        replies.flush()
    # Every reply is sent and the steps' files are written and closed: the interpreter's teardown would only
    # free the modules it imported (1.3 s of CPU after Great Expectations), which the OS does at once; a
    # child process ends this way in multiprocessing too.
    sys.stderr.flush()
    os._exit(0)
