"""Checking a pipeline when it is assembled: every stage's declared inputs are there when it runs.

A stage declares the records it reads and writes; nothing ran that declaration before, so a stage wired in
the wrong place failed (or silently read nothing) deep inside a run. The check walks the stages in order
with the names of the records available (the initial inputs, then each stage's outputs) and refuses the
first stage that would run without one of its inputs, before any work is done.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ambiforge.errors import ConfigError
from ambiforge.stages.registry import get


def check_pipeline(stages: Sequence[str], inputs: Iterable[str]) -> tuple[str, ...]:
    """The records available after ``stages`` run in order on ``inputs``; a ConfigError naming the first
    stage with a missing input (and what was available), or an unknown stage, otherwise."""
    available = dict.fromkeys(inputs)
    for name in stages:
        stage = get(name)
        missing = [record for record in stage.inputs if record not in available]
        if missing:
            raise ConfigError(
                f"stage {name!r}: missing input {', '.join(missing)} (available: {', '.join(available) or 'none'})"
            )
        available.update(dict.fromkeys(stage.outputs))
    return tuple(available)
