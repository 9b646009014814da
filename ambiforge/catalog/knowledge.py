"""What the world and affordance loaders share: reading a YAML file of the catalog folder and turning its
conditions into :class:`~ambiforge.catalog.conditions.Condition` with one-line errors naming file and key,
and checking that the groups, names and tags a condition names exist in the object catalog (a typo would
otherwise match nothing, silently)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ambiforge import inputs, yamlfile
from ambiforge.catalog.conditions import Condition
from ambiforge.catalog.loader import Catalog, _mapping, show
from ambiforge.errors import CatalogError, InputError


def packaged_path(file_name: str) -> Path:
    return Path(str(resources.files("ambiforge.catalog").joinpath(file_name)))


def read_yaml(path: Path) -> tuple[str, dict[str, Any]]:
    """The file's text and its top-level mapping; any fault is a CatalogError naming the file."""
    where = str(path)
    try:  # as the object catalog is read: a regular file, within the catalog's size limit
        text = inputs.read_text(path, inputs.CATALOG, "catalog file")
    except InputError as exc:
        raise CatalogError(where, "file", exc.detail) from None
    try:
        data = yamlfile.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f"line {mark.line + 1}" if mark is not None else "YAML"
        raise CatalogError(where, line, f"not valid YAML: {getattr(exc, 'problem', exc)}") from None
    return text, _mapping(where, "top level", data)


def check_keys(path: str, entry: str, data: Any, allowed: set[str], required: set[str] = frozenset()) -> dict:
    data = _mapping(path, entry, data)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CatalogError(path, entry, f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    missing = sorted(required - set(data))
    if missing:
        raise CatalogError(path, entry, f"missing {missing[0]!r}")
    return data


def condition(path: str, entry: str, data: Any) -> Condition:
    """A condition from its mapping; a bad key or value is one line naming ``entry`` and the field."""
    data = _mapping(path, entry, data)
    try:
        return Condition(**data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        raise CatalogError(path, f"{entry}.{loc}" if loc else entry, msg) from None
    except TypeError as exc:  # an unknown field name
        raise CatalogError(path, entry, f"not a condition: {exc}") from None


def conditions(path: str, entry: str, data: Any) -> tuple[Condition, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise CatalogError(path, entry, f"expected a list of conditions, got {show(data)}")
    return tuple(condition(path, f"{entry}[{i}]", c) for i, c in enumerate(data))


def check_names(path: str, entry: str, cond: Condition, catalog: Catalog, extra_names: set[str] = frozenset()) -> None:
    """Every group, name and tag the condition names exists in ``catalog`` (or among ``extra_names``: the
    places, which conditions may name too)."""
    groups = set(catalog.groups)
    names = {o.name for o in catalog.objects.values()} | {a.name for a in catalog.appliances} | set(extra_names)
    tags = {t for o in catalog.objects.values() for t in (*o.tags, *o.uses)}
    for key, known, what in (("group", groups, "group"), ("name", names, "object or place")):
        for field_name in ("where", "where_not"):
            value = getattr(cond, field_name).get(key)
            for v in value if isinstance(value, list) else ([] if value is None else [value]):
                if v not in known:
                    raise CatalogError(path, f"{entry}.{field_name}.{key}", f"unknown {what} {v!r}")
    for field_name in ("tags_any", "uses_any"):
        for tag in getattr(cond, field_name):
            if tag not in tags:
                raise CatalogError(path, f"{entry}.{field_name}", f"no catalog object has tag or use {tag!r}")
