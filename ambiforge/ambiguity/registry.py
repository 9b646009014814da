"""The registry of ambiguity types: every stage asks it, none keeps its own list.

A type is a folder (``definition.yaml``, ``templates.yaml``, ``prompts/``). A packaged type's folder is a
Python package declared in the entry-point group ``ambiforge.types`` (ambiforge's own three in its
``pyproject.toml``, a plugin's in its own metadata); a folder anywhere else is added with
:func:`register_folder` (``[ambiguity] folders`` in ambiforge.toml), which a process (a Dask worker, a
subprocess) repeats from the build's options so every worker knows the same types.

The order of the types is part of the output (the type mix, the card, the columns): types sort by the
``order`` of their definition (AmbiK's preferences, common_sense_knowledge, safety: 1, 2, 3), then by
registration (entry points before folders added later).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import yaml
from pydantic import ValidationError

from ambiforge import yamlfile
from ambiforge.ambiguity.definition import AmbiguityType
from ambiforge.errors import ConfigError
from ambiforge.registry import Registry

DEFINITION_FILE = "definition.yaml"


def load_definition(folder: Path) -> AmbiguityType:
    """The type defined in ``folder/definition.yaml``; a bad file is a ConfigError naming file and key."""
    path = folder / DEFINITION_FILE
    if not path.is_file():
        raise ConfigError(f"{path}: ambiguity type definition not found")
    try:
        data = yamlfile.load(path.read_text(encoding="utf-8"))
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


def _from_entry_point(value: object) -> AmbiguityType:
    """An entry point names the type's package (its folder) or an :class:`AmbiguityType`."""
    if isinstance(value, AmbiguityType):
        return value
    if isinstance(value, ModuleType) and value.__file__:
        return load_definition(Path(value.__file__).parent)
    raise ConfigError(f"an ambiguity type entry point names a type folder's package, not {type(value).__name__}")


def _check(name: str, definition: AmbiguityType) -> None:
    if name != definition.name:
        raise ConfigError(f"{definition.folder / DEFINITION_FILE}: name: {definition.name!r}, registered as {name!r}")


TYPES: Registry[AmbiguityType] = Registry(
    "ambiguity type",
    "ambiforge.types",
    check=_check,
    same=lambda known, new: known.folder == new.folder,
    order_key=lambda definition: definition.order,
    convert=_from_entry_point,
    builtin=True,
)


def register(definition: AmbiguityType) -> AmbiguityType:
    """Add a type; registering the same folder twice is a no-op, another type of the same name an error."""
    known = TYPES.items().get(definition.name)
    if known is not None and known.folder != definition.folder:
        raise ConfigError(
            f"{definition.folder / DEFINITION_FILE}: ambiguity type {definition.name!r} is already "
            f"defined in {known.folder}"
        )
    return TYPES.register(definition, origin=str(definition.folder / DEFINITION_FILE))


def register_folder(folder: str | Path) -> AmbiguityType:
    return register(load_definition(Path(folder)))


def register_folders(folders: list[str] | tuple[str, ...]) -> None:
    for folder in folders:
        register_folder(folder)


def unregister(name: str) -> None:
    """Remove a type added with :func:`register` (tests); types from entry points stay."""
    TYPES.unregister(name)


def types() -> dict[str, AmbiguityType]:
    """Every registered type by name, in the types' order."""
    return TYPES.items()


def names() -> tuple[str, ...]:
    return TYPES.names()


def get(name: str) -> AmbiguityType:
    """The type called ``name``; an unknown name is a ConfigError listing the known ones."""
    return TYPES.get(name)


def level(name: str) -> str:
    """``instruction`` or ``environment`` (:attr:`AmbiguityType.level`); a name not registered (a type of
    imported data) is ``instruction``, where AmbiK's rows are."""
    known = types().get(name)
    return known.level if known is not None else "instruction"


def default_mix() -> dict[str, float]:
    """The default type mix: each type's ``default_share`` (AmbiK's 47.2 / 39.8 / 13 % for the built-ins)."""
    return {name: t.default_share for name, t in types().items() if t.default_share > 0}
