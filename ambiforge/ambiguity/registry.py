"""The registry of ambiguity types: every stage asks it, none keeps its own list.

Built-in types are the folders under ``ambiforge/ambiguity/types/`` in a fixed order (AmbiK's three);
more are added with :func:`register_folder` (``[ambiguity] folders`` in ambiforge.toml), which a process
(a Dask worker, a subprocess) repeats from the build's options so every worker knows the same types.
"""

from __future__ import annotations

import threading
from pathlib import Path

import yaml
from pydantic import ValidationError

from ambiforge.ambiguity.definition import AmbiguityType
from ambiforge.errors import ConfigError

BUILTIN_DIR = Path(__file__).resolve().parent / "types"
BUILTIN_ORDER = ("preferences", "common_sense_knowledge", "safety")
DEFINITION_FILE = "definition.yaml"

_lock = threading.Lock()
_types: dict[str, AmbiguityType] = {}


def load_definition(folder: Path) -> AmbiguityType:
    """The type defined in ``folder/definition.yaml``; a bad file is a ConfigError naming file and key."""
    path = folder / DEFINITION_FILE
    if not path.is_file():
        raise ConfigError(f"{path}: ambiguity type definition not found")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of definition keys")
    try:
        return AmbiguityType.model_validate({**data, "folder": folder.resolve()})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "(definition)"
        raise ConfigError(f"{path}: {where}: {first['msg']}") from None


def _ensure_builtins() -> None:
    if _types:
        return
    with _lock:
        if not _types:
            # Loaded apart and added in one step: a thread on the fast path above (``if _types``) must never
            # see the registry half filled ("unknown type 'safety' (known: preferences)" on a fresh worker).
            loaded = {name: load_definition(BUILTIN_DIR / name) for name in BUILTIN_ORDER}
            _types.update(loaded)


def register(definition: AmbiguityType) -> AmbiguityType:
    """Add a type; registering the same folder twice is a no-op, another type of the same name an error."""
    _ensure_builtins()
    with _lock:
        known = _types.get(definition.name)
        if known is not None:
            if known.folder == definition.folder:
                return known
            raise ConfigError(
                f"{definition.folder / DEFINITION_FILE}: ambiguity type {definition.name!r} is already "
                f"defined in {known.folder}"
            )
        _types[definition.name] = definition
        return definition


def register_folder(folder: str | Path) -> AmbiguityType:
    return register(load_definition(Path(folder)))


def register_folders(folders: list[str] | tuple[str, ...]) -> None:
    for folder in folders:
        register_folder(folder)


def unregister(name: str) -> None:
    """Remove a type added with :func:`register` (tests); built-in types stay."""
    if name in BUILTIN_ORDER:
        raise ValueError(f"{name!r} is built in")
    with _lock:
        _types.pop(name, None)


def types() -> dict[str, AmbiguityType]:
    """Every registered type by name, built-in ones first, in registration order."""
    _ensure_builtins()
    return dict(_types)


def names() -> tuple[str, ...]:
    return tuple(types())


def get(name: str) -> AmbiguityType:
    """The type called ``name``; an unknown name is a ConfigError listing the known ones."""
    known = types()
    if name not in known:
        raise ConfigError(f"unknown ambiguity type {name!r} (known: {', '.join(known)})")
    return known[name]


def default_mix() -> dict[str, float]:
    """The default type mix: each type's ``default_share`` (AmbiK's 47.2 / 39.8 / 13 % for the built-ins)."""
    return {name: t.default_share for name, t in types().items() if t.default_share > 0}
