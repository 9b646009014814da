"""The registry of stages: flows and the run fingerprint ask it, none keeps its own list."""

from __future__ import annotations

import re
import threading

from ambiforge.errors import ConfigError
from ambiforge.stages.contract import Stage

NAME = re.compile(r"^[a-z][a-z0-9_]{1,47}$")
_lock = threading.Lock()
_stages: dict[str, Stage] = {}
_builtin: tuple[str, ...] = ()


def _ensure_builtins() -> None:
    global _builtin
    if _builtin:
        return
    from ambiforge.stages.builtin import BUILTIN_STAGES

    with _lock:
        if not _builtin:
            for stage in BUILTIN_STAGES:
                _stages.setdefault(stage.name, stage)
            _builtin = tuple(s.name for s in BUILTIN_STAGES)


def register(stage: Stage) -> Stage:
    """Add a stage; the same object twice is a no-op, another stage of a known name an error."""
    _ensure_builtins()
    if not NAME.match(stage.name):
        raise ConfigError(f"stage name {stage.name!r}: lowercase letters, digits and '_' only")
    if not stage.version:
        raise ConfigError(f"stage {stage.name!r}: a version is required")
    with _lock:
        known = _stages.get(stage.name)
        if known is not None and known is not stage:
            raise ConfigError(f"stage {stage.name!r} is already registered")
        _stages[stage.name] = stage
    return stage


def unregister(name: str) -> None:
    """Remove a stage added with :func:`register` (tests); built-in stages stay."""
    _ensure_builtins()
    if name in _builtin:
        raise ValueError(f"{name!r} is built in")
    with _lock:
        _stages.pop(name, None)


def stages() -> dict[str, Stage]:
    _ensure_builtins()
    return dict(_stages)


def names() -> tuple[str, ...]:
    return tuple(stages())


def get(name: str) -> Stage:
    known = stages()
    if name not in known:
        raise ConfigError(f"unknown stage {name!r} (known: {', '.join(known)})")
    return known[name]


def versions(selected: tuple[str, ...] | None = None) -> dict[str, str]:
    """Stage name -> version, for ``selected`` stages (all when None): what a fingerprint records."""
    return {name: get(name).version for name in (selected if selected is not None else names())}
