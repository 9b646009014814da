"""The stage contract (after distilabel's steps): declared inputs and outputs, a version, run over records."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class StageContext:
    """What a stage may read besides its records: the run's options (a :class:`~ambiforge.config.build.
    BuildOptions` for build stages, a release's options for ``release``) and named extras."""

    options: Any = None
    extras: Mapping[str, Any] = field(default_factory=dict)


@runtime_checkable
class Stage(Protocol):
    name: str
    version: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    def run(self, records: Sequence[Any], context: StageContext) -> list[Any]: ...


@dataclass(frozen=True)
class FunctionStage:
    """A stage made of a function: the usual way to register one."""

    name: str
    version: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    function: Callable[[Sequence[Any], StageContext], list[Any]]
    description: str = ""

    def run(self, records: Sequence[Any], context: StageContext) -> list[Any]:
        return self.function(records, context)
