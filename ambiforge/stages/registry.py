"""The registry of stages (entry-point group ``ambiforge.stages``): the engine and the run fingerprint ask
it, none keeps its own list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ambiforge.errors import AmbiforgeError, ConfigError, PluginError, plugin_failure
from ambiforge.registry import Registry
from ambiforge.stages.contract import Stage, StageContext


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
    """The stage; a plugin's comes wrapped so that its failures name it (:class:`NamedStage`)."""
    stage = STAGES.get(name)
    plugin = STAGES.plugin(name)
    return stage if plugin is None else NamedStage(stage, plugin)


class NamedStage:
    """A plugin's stage whose exception, or a return that is not a list, is a PluginError naming the plugin,
    its package and the batch (the build stops); its name, version and ports are the stage's own."""

    def __init__(self, stage: Stage, plugin: str) -> None:
        self.stage, self.plugin = stage, plugin
        self.name, self.version = stage.name, stage.version
        self.inputs, self.outputs = stage.inputs, stage.outputs

    def __getattr__(self, name: str) -> Any:  # the stage's other attributes (description, order...)
        return getattr(self.stage, name)

    def run(self, records: Sequence[Any], context: StageContext) -> list[Any]:
        where = f"a batch of {len(records)} record(s) (stage {self.name})"
        try:
            found = self.stage.run(records, context)
        except AmbiforgeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a plugin's failure becomes one line naming it
            raise plugin_failure(self.plugin, where, exc) from None
        if not isinstance(found, list):
            raise PluginError(self.plugin, where, f"returned {type(found).__name__}, not a list of records")
        return found


def versions(selected: tuple[str, ...] | None = None) -> dict[str, str]:
    """Stage name -> version, for ``selected`` stages (all when None): what a fingerprint records."""
    return {name: get(name).version for name in (selected if selected is not None else names())}
