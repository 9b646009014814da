"""The release's dataset expectations, run in a worker process that imports Great Expectations while the
release reads its rows.

Why: Great Expectations takes about 3.5 s of CPU to import and its suite about 2 s to run over 10,000 items;
in the release's own process both come after the last row is read. A worker process started before the
first row imports it on another core, and the suite then runs there over the columns the release gathered
(:class:`ambiforge.validation.expectations.ItemColumns`, a few values an item). A small release, or a process
that imported Great Expectations already (a notebook, a test session), runs the suite in its own process:
starting an interpreter would cost more than it saves.

The worker is a plain child interpreter that gets one request (pickled) on its stdin and answers on its
stdout (not multiprocessing, whose "spawn" would run the caller's main script again in the child). Its stderr
goes to a temporary file, quoted when it fails; it exits when its stdin closes, so also when the release
dies. It knows the same ambiguity types as the release: the types' folders are registered there again, as a
build's worker processes do, and the names compared (the suite's columns and allowed values follow them).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from ambiforge import ambiguity
from ambiforge.validation.expectations import ExpectationsResult, ItemColumns, run_expectations

#: From this many bytes of the runs' items on (about 1,600 items with their scene graphs), the suite runs
#: in a worker process.
WORKER_FROM = 64 * 2**20


class WorkerError(RuntimeError):
    """The worker process died before it answered (a crash of the interpreter or the machine)."""


def _run(
    folders: list[str], names: tuple[str, ...], columns: ItemColumns, kwargs: dict[str, Any]
) -> tuple[bool, list[dict[str, Any]]]:
    for folder in folders:
        ambiguity.register_folder(folder)  # a type registered already (an entry point's) is left as it is
    if ambiguity.names() != names:
        raise RuntimeError(f"the expectations worker knows the ambiguity types {ambiguity.names()}, not {names}")
    result = run_expectations(columns.frame(), **kwargs)
    return result.success, result.results


def serve() -> None:
    """The worker: import Great Expectations, then answer the one request on stdin with ``(ok, result or
    exception)`` on stdout, and exit at once (tearing down what it imported would cost a second of CPU)."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # an import that prints must not corrupt the reply
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")  # as run_expectations sets it, before the import
    import great_expectations  # noqa: F401
    import pandas  # noqa: F401

    try:
        args = pickle.load(requests)
    except EOFError:  # the release ended (or died) without asking
        os._exit(0)
    try:
        reply = (True, _run(*args))
    except Exception as exc:  # noqa: BLE001 - sent to the release, which raises it
        reply = (False, exc)
    pickle.dump(reply, replies, protocol=pickle.HIGHEST_PROTOCOL)
    replies.flush()
    sys.stderr.flush()
    os._exit(0)


class Expectations:
    """The suite over a release's columns: :meth:`run` once the rows are read. Started (a context manager)
    before the first row; ``items`` are the runs' item files, whose size decides where the suite runs, unless
    ``worker`` says."""

    def __init__(self, items: Sequence[Path], worker: bool | None = None) -> None:
        if worker is None:
            size = sum(p.stat().st_size for p in items if p.is_file())
            worker = size >= WORKER_FROM and "great_expectations" not in sys.modules
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[bytes] | None = None
        if worker:
            self.log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
            boot = (
                f"import sys; sys.path[:0] = {[p for p in sys.path if p]!r}; "
                "from ambiforge.releases.expectations_worker import serve; serve()"
            )
            self.process = subprocess.Popen(
                [sys.executable, "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log
            )

    def run(
        self,
        columns: ItemColumns,
        *,
        target_mix: Mapping[str, float] | None,
        tolerance: float,
        splits: Mapping[str, Sequence[str]],
    ) -> ExpectationsResult:
        kwargs: dict[str, Any] = {"target_mix": target_mix, "tolerance": tolerance, "splits": splits}
        process = self.process
        if process is None:
            return run_expectations(columns.frame(), **kwargs)
        assert process.stdin is not None and process.stdout is not None
        folders = [str(t.folder) for t in ambiguity.types().values()]
        try:
            pickle.dump((folders, ambiguity.names(), columns, kwargs), process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            process.stdin.close()
            ok, value = pickle.load(process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as exc:
            raise WorkerError(f"the expectations worker failed ({type(exc).__name__}): {self._log_tail()}") from None
        finally:
            self.close()
        if not ok:
            raise value
        success, results = value
        return ExpectationsResult(success, results)

    def _log_tail(self, size: int = 2000) -> str:
        if self.log is None:
            return ""
        self.log.seek(0, os.SEEK_END)
        self.log.seek(max(0, self.log.tell() - size))
        return self.log.read().decode("utf-8", "replace").strip()

    def close(self) -> None:
        """Reap the worker (it exits once it answered, or at once when its stdin closes before it is asked)."""
        process, self.process = self.process, None
        if process is not None:
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.log is not None:
            self.log.close()
            self.log = None

    def __enter__(self) -> Expectations:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is not None and self.process is not None:
            self.process.kill()  # a failing release does not wait for Great Expectations' import
        self.close()
