"""The stage contract (after distilabel's steps): declared inputs and outputs, a version, run over records.

What a stage may read besides its records is a declared field of :class:`StageContext`, typed, not a
string key: a stage that needs something new adds a field here, and every caller sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ambiforge.generation.records import Generator
    from ambiforge.judge.stage import Judge
    from ambiforge.review.push import ReviewPaths


@dataclass(frozen=True)
class StageContext:
    """The run's options (a :class:`~ambiforge.config.build.BuildOptions` for build stages, a release's
    options for ``release``) and what the built-in stages take from their caller; ``None`` means the
    stage's default."""

    options: Any = None
    #: generation: the generator to use (e.g. one with a cluster-wide limiter); default: made from options.
    generator: Generator | None = None
    #: judge: the run folder ``judgements.jsonl`` goes to; default: ``<out>/<run_id>``.
    directory: Path | None = None
    #: judge: replaces the LLM judge of one pair (tests).
    judge: Judge | None = None
    #: review: where the run folders and Label Studio's state live (required by ``review``).
    paths: ReviewPaths | None = None
    #: review: the Label Studio project's title; default: the run's.
    project: str | None = None


@runtime_checkable
class Stage(Protocol):
    name: str
    version: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    def run(self, records: Sequence[Any], context: StageContext) -> list[Any]: ...


@dataclass(frozen=True)
class FunctionStage:
    """A stage made of a function: the usual way to register one. ``order`` places it in the stage
    registry's listing (the built-ins: 1-5; ties: by name)."""

    name: str
    version: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    function: Callable[[Sequence[Any], StageContext], list[Any]]
    description: str = ""
    order: int = 1000

    def run(self, records: Sequence[Any], context: StageContext) -> list[Any]:
        return self.function(records, context)
