"""Progress reporting that stages can call without knowing who listens.

Stage code (inside Prefect tasks, possibly in worker threads) calls :func:`advance`; the CLI installs a
``rich`` progress display, tests and flows without a terminal get the silent default. ``rich`` is used
because it draws several bars at once and degrades to nothing on a non-terminal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol


class Reporter(Protocol):
    def start(self, stage: str, total: int) -> None: ...
    def advance(self, stage: str, n: int = 1) -> None: ...
    def finish(self, stage: str) -> None: ...


class _Silent:
    def start(self, stage: str, total: int) -> None: ...
    def advance(self, stage: str, n: int = 1) -> None: ...
    def finish(self, stage: str) -> None: ...


_lock = threading.Lock()
_reporter: Reporter = _Silent()


def set_reporter(reporter: Reporter | None) -> None:
    global _reporter
    with _lock:
        _reporter = reporter or _Silent()


def start(stage: str, total: int) -> None:
    with _lock:
        _reporter.start(stage, total)


def advance(stage: str, n: int = 1) -> None:
    with _lock:
        _reporter.advance(stage, n)


def finish(stage: str) -> None:
    with _lock:
        _reporter.finish(stage)


def describe(stage: str, detail: Callable[[], str]) -> None:
    """Text beside the stage's bar, asked for at every refresh (an LLM build's spend so far): the figure
    moves while a batch of pairs is still in flight, when the bar itself does not. Reporters without
    details ignore it."""
    with _lock:
        shown = getattr(_reporter, "describe", None)
        if shown is not None:
            shown(stage, detail)


class RichReporter:
    """Bars on stderr, one per stage."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._details: dict[int, Callable[[], str]] = {}
        console = Console(stderr=True)
        # Every refresh renders the bars in the build's process, holding the interpreter lock its LLM calls
        # wait for: 4 a second on a terminal; none elsewhere, where rich shows the bars once, at the end.
        self._progress = Progress(
            TextColumn("{task.description:<12}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            _detail_column(self._details),  # type: ignore[arg-type]
            console=console,
            transient=False,
            auto_refresh=console.is_terminal,
            refresh_per_second=4,
        )
        self._tasks: dict[str, int] = {}

    def describe(self, stage: str, detail: Callable[[], str]) -> None:
        if stage in self._tasks:
            self._details[self._tasks[stage]] = detail

    def start(self, stage: str, total: int) -> None:
        if stage in self._tasks:
            self._progress.update(self._tasks[stage], total=total)  # type: ignore[arg-type]
        else:
            self._tasks[stage] = self._progress.add_task(stage, total=total)  # type: ignore[assignment]

    def advance(self, stage: str, n: int = 1) -> None:
        if stage in self._tasks:
            self._progress.advance(self._tasks[stage], n)  # type: ignore[arg-type]

    def finish(self, stage: str) -> None:
        if stage in self._tasks:
            task = self._tasks[stage]
            total = self._progress.tasks[task].total  # type: ignore[index]
            self._progress.update(task, completed=total)  # type: ignore[arg-type]

    @contextmanager
    def shown(self) -> Iterator[RichReporter]:
        with self._progress:
            set_reporter(self)
            try:
                yield self
            finally:
                set_reporter(None)


def _detail_column(details: dict[int, Callable[[], str]]) -> object:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class DetailColumn(ProgressColumn):
        """The stage's :func:`describe` text; nothing when it has none or cannot say (a file being replaced)."""

        def render(self, task: object) -> Text:
            detail = details.get(getattr(task, "id", -1))
            try:
                return Text(detail() if detail is not None else "")
            except OSError:
                return Text("")

    return DetailColumn()
