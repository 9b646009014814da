"""The steps of :mod:`ambiforge.engine.pipeline` as Prefect tasks: the executor a flow hands to the pipeline."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prefect import Task
from prefect.futures import as_completed
from prefect.utilities.annotations import quote

from ambiforge.engine import pipeline


def quoted(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Lists (of pairs, of items) passed as they are: Prefect would otherwise walk every nested field of
    every item looking for futures, seconds for thousands of items."""
    return tuple(quote(a) if isinstance(a, list) else a for a in args)


class PrefectExecutor:
    """:class:`ambiforge.engine.pipeline.Executor` that runs each step as its Prefect task (in the flow's task
    runner); a step without a task is a bug in the flow module."""

    def __init__(self, tasks: dict[Callable[..., Any], Task[Any, Any]]) -> None:
        self.tasks = tasks

    def submit(self, step: Callable[..., Any], *args: Any) -> Any:
        # Not quoted: a submitted batch's specs are few, and a task runner that ships them elsewhere (Dask)
        # rebuilds a quoted list's records as plain tuples.
        return self.tasks[step].submit(*args)

    def results(self, futures: list[Any]) -> Iterator[Any]:
        return pipeline.finished_in_order(futures, as_completed)

    def call(self, step: Callable[..., Any], *args: Any) -> Any:
        return self.tasks[step](*quoted(args))
