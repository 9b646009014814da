"""The release's dataset expectations, run in a worker process that imports Great Expectations while the
release reads its rows.

Why: Great Expectations takes about 3.5 s of CPU to import and its suite about 2 s to run over 10,000 items;
in the release's own process both come after the last row is read. A worker process started before the
first row imports it on another core, and the suite then runs there over the columns the release gathered
(:class:`ambiforge.validation.expectations.ItemColumns`, a few values an item). A small release, or a process
that imported Great Expectations already (a notebook, a test session), runs the suite in its own process:
starting an interpreter would cost more than it saves.

The worker is the build's kind (:class:`ambiforge.warm_worker.WarmWorker`: a child interpreter that dies
with its parent). It knows the same ambiguity types as the release: the types' folders are registered there
again, as a build's worker processes do, and the names compared (the suite's columns and allowed values
follow them).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from ambiforge import ambiguity
from ambiforge.validation.expectations import ExpectationsResult, ItemColumns, run_expectations
from ambiforge.warm_worker import WarmWorker

#: From this many bytes of the runs' items on (about 1,600 items with their scene graphs), the suite runs
#: in a worker process.
WORKER_FROM = 64 * 2**20
#: What the worker imports as soon as it starts.
WORKER_MODULES = ("ambiforge.releases.expectations_worker", "great_expectations", "pandas")


def _run(
    folders: list[str], names: tuple[str, ...], columns: ItemColumns, kwargs: dict[str, Any]
) -> tuple[bool, list[dict[str, Any]]]:
    for folder in folders:
        ambiguity.register_folder(folder)  # a type registered already (an entry point's) is left as it is
    if ambiguity.names() != names:
        raise RuntimeError(f"the expectations worker knows the ambiguity types {ambiguity.names()}, not {names}")
    result = run_expectations(columns.frame(), **kwargs)
    return result.success, result.results


class Expectations:
    """The suite over a release's columns: :meth:`run` once the rows are read. Started (a context manager)
    before the first row; ``items`` are the runs' item files, whose size decides where the suite runs, unless
    ``worker`` says."""

    def __init__(self, items: Sequence[Path], worker: bool | None = None) -> None:
        if worker is None:
            size = sum(p.stat().st_size for p in items if p.is_file())
            worker = size >= WORKER_FROM and "great_expectations" not in sys.modules
        self.worker = WarmWorker(WORKER_MODULES).start() if worker else None

    def run(
        self,
        columns: ItemColumns,
        *,
        target_mix: Mapping[str, float] | None,
        tolerance: float,
        splits: Mapping[str, Sequence[str]],
    ) -> ExpectationsResult:
        kwargs: dict[str, Any] = {"target_mix": target_mix, "tolerance": tolerance, "splits": splits}
        if self.worker is None:
            return run_expectations(columns.frame(), **kwargs)
        folders = [str(t.folder) for t in ambiguity.types().values()]
        try:
            success, results = self.worker.call(_run, folders, ambiguity.names(), columns, kwargs)
        finally:
            self.close()
        return ExpectationsResult(success, results)

    def close(self, kill: bool = False) -> None:
        """Reap the worker (it exits once its stdin closes); ``kill``: now."""
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.close(kill=kill)

    def __enter__(self) -> Expectations:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close(kill=kind is not None)  # a failing release does not wait for Great Expectations' import
