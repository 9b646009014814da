"""The registry of stages (entry-point group ``ambiforge.stages``): the engine and the run fingerprint ask
it, none keeps its own list."""

from __future__ import annotations

from ambiforge.errors import ConfigError
from ambiforge.registry import Registry
from ambiforge.stages.contract import Stage


def _check(name: str, stage: Stage) -> None:
    if not isinstance(stage, Stage):
        raise ConfigError(f"stage {name!r}: expected a Stage (name, version, inputs, outputs, run)")
    if stage.name != name:
        raise ConfigError(f"stage {name!r}: the stage object is named {stage.name!r}")
    if not stage.version:
        raise ConfigError(f"stage {name!r}: a version is required")


STAGES: Registry[Stage] = Registry(
    "stage", "ambiforge.stages", check=_check, order_key=lambda stage: getattr(stage, "order", 1000), builtin=True
)


def register(stage: Stage) -> Stage:
    """Add a stage; the same object twice is a no-op, another stage of a known name an error."""
    return STAGES.register(stage)


def unregister(name: str) -> None:
    """Remove a stage added with :func:`register` (tests); stages from entry points stay."""
    STAGES.unregister(name)


def stages() -> dict[str, Stage]:
    return STAGES.items()


def names() -> tuple[str, ...]:
    return STAGES.names()


def get(name: str) -> Stage:
    return STAGES.get(name)


def versions(selected: tuple[str, ...] | None = None) -> dict[str, str]:
    """Stage name -> version, for ``selected`` stages (all when None): what a fingerprint records."""
    return {name: get(name).version for name in (selected if selected is not None else names())}
