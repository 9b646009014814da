"""Load and check ``world.yaml``: the places every kitchen has and where kitchens keep things.

Placement is knowledge, not code ("milk in the fridge, knives in a drawer, mugs on a shelf"), so a new
object, place or rule is a line of YAML. The loader is strict for the same reason as the object catalog's:
the scene-graph sampler trusts it. Errors name file and key, e.g.
``world.yaml: placement[3].places: unknown place 'pantry'``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from ambiforge.catalog.conditions import Condition
from ambiforge.catalog.knowledge import check_keys, check_names, condition, conditions, packaged_path, read_yaml
from ambiforge.catalog.loader import APPLIANCES, Catalog, CatalogObject, show
from ambiforge.errors import CatalogError

FILE_NAME = "world.yaml"
PLACE_KINDS = ("appliance", "surface", "storage")
ATTRIBUTE_KEYS = {"colour": None, "size": ("small", "medium", "large")}

_TOP = {"version", "places", "default", "placement", "vessels", "switchables", "attributes", "layout"}
_PLACE = {"id", "name", "noun", "kind", "holds", "openable", "switchable", "stands_on", "heats", "cleans"}


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    noun: str
    kind: str
    holds: str | None = None
    openable: bool = False
    switchable: bool = False
    stands_on: str | None = None
    heats: bool = False
    cleans: bool = False


@dataclass(frozen=True)
class PlacementRule:
    when: Condition
    places: tuple[str, ...]


@dataclass(frozen=True)
class AttributeRule:
    when: Condition
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class World:
    path: str
    version: str
    places: tuple[Place, ...]
    default: str
    placement: tuple[PlacementRule, ...]
    vessels: tuple[Condition, ...]
    attributes: tuple[AttributeRule, ...]
    row_width: int
    switchables: tuple[Condition, ...] = ()

    @cached_property
    def tables(self) -> dict[str, Any]:
        """Tables later layers derive from this world (the scene-graph nodes of its places and objects), by
        name: kept for as long as the world lives, and gone with it."""
        return {}

    def place(self, place_id: str) -> Place:
        return next(p for p in self.places if p.id == place_id)

    def candidates(self, obj: CatalogObject) -> tuple[str, ...]:
        """The places ``obj`` may be kept in: those of the first rule that matches, else the default."""
        for rule in self.placement:
            if rule.when.matches(obj):
                return rule.places
        return (self.default,)

    def is_vessel(self, obj: CatalogObject) -> bool:
        return any(c.matches(obj) for c in self.vessels)

    def is_switchable(self, obj: CatalogObject) -> bool:
        return any(c.matches(obj) for c in self.switchables)

    def extra_attributes(self, obj: CatalogObject) -> dict[str, str]:
        out: dict[str, str] = {}
        for rule in self.attributes:
            if rule.when.matches(obj):
                out.update(rule.values)
        return out


def _flag(path: str, entry: str, data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise CatalogError(path, f"{entry}.{key}", f"must be true or false, got {show(value)}")
    return value


def _text(path: str, entry: str, data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(path, f"{entry}.{key}", f"must be a non-empty string, got {show(value)}")
    return value


def _places(path: str, data: Any) -> tuple[Place, ...]:
    if not isinstance(data, list) or not data:
        raise CatalogError(path, "places", "expected a non-empty list of places")
    places: list[Place] = []
    for i, raw in enumerate(data):
        entry = f"places[{i}]"
        raw = check_keys(path, entry, raw, _PLACE, {"id", "name", "noun", "kind"})
        pid = _text(path, entry, raw, "id")
        if not pid.replace("_", "").isalnum() or not pid.islower():
            raise CatalogError(path, f"{entry}.id", f"must be lower-case letters, digits and '_', got {pid!r}")
        if any(p.id == pid for p in places):
            raise CatalogError(path, f"{entry}.id", f"duplicate place id {pid!r}")
        kind = _text(path, entry, raw, "kind")
        if kind not in PLACE_KINDS:
            raise CatalogError(path, f"{entry}.kind", f"must be one of {', '.join(PLACE_KINDS)}, got {kind!r}")
        holds = raw.get("holds")
        if holds not in (None, "in", "on"):
            raise CatalogError(path, f"{entry}.holds", f"must be 'in' or 'on', got {show(holds)}")
        places.append(
            Place(
                id=pid,
                name=_text(path, entry, raw, "name"),
                noun=_text(path, entry, raw, "noun"),
                kind=kind,
                holds=holds,
                openable=_flag(path, entry, raw, "openable"),
                switchable=_flag(path, entry, raw, "switchable"),
                stands_on=raw.get("stands_on"),
                heats=_flag(path, entry, raw, "heats"),
                cleans=_flag(path, entry, raw, "cleans"),
            )
        )
    ids = {p.id: p for p in places}
    for i, p in enumerate(places):
        if p.stands_on is not None and (p.stands_on not in ids or ids[p.stands_on].holds != "on"):
            raise CatalogError(path, f"places[{i}].stands_on", f"{p.stands_on!r} is not a surface place")
    missing = [a for a in APPLIANCES if a not in {p.name for p in places}]
    if missing:
        raise CatalogError(path, "places", f"missing fixed appliance(s): {', '.join(missing)}")
    return tuple(places)


def _place_ids(path: str, entry: str, value: Any, places: tuple[Place, ...]) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise CatalogError(path, entry, f"expected a non-empty list of place ids, got {show(value)}")
    holding = {p.id for p in places if p.holds}
    for v in value:
        if v not in holding:
            raise CatalogError(
                path, entry, f"unknown place {v!r} (places that hold things: {', '.join(sorted(holding))})"
            )
    return tuple(value)


def parse_world(text_data: dict[str, Any], path: str, catalog: Catalog | None = None) -> World:
    data = check_keys(path, "top level", text_data, _TOP, {"version", "places", "placement"})
    places = _places(path, data["places"])
    default = data.get("default", "counter")
    _place_ids(path, "default", [default], places)
    rules_data = data["placement"]
    if not isinstance(rules_data, list) or not rules_data:
        raise CatalogError(path, "placement", "expected a non-empty list of rules")
    placement: list[PlacementRule] = []
    for i, raw in enumerate(rules_data):
        entry = f"placement[{i}]"
        raw = check_keys(path, entry, raw, {"when", "places"}, {"when", "places"})
        placement.append(
            PlacementRule(
                condition(path, f"{entry}.when", raw["when"]),
                _place_ids(path, f"{entry}.places", raw["places"], places),
            )
        )
    vessels = conditions(path, "vessels", data.get("vessels"))
    switchables = conditions(path, "switchables", data.get("switchables"))
    attributes: list[AttributeRule] = []
    for i, raw in enumerate(data.get("attributes") or []):
        entry = f"attributes[{i}]"
        raw = check_keys(path, entry, raw, {"when", "set"}, {"when", "set"})
        values = check_keys(path, f"{entry}.set", raw["set"], set(ATTRIBUTE_KEYS))
        for key, value in values.items():
            allowed = ATTRIBUTE_KEYS[key]
            if not isinstance(value, str) or (allowed is not None and value not in allowed):
                what = f"one of {', '.join(allowed)}" if allowed else "a non-empty string"
                raise CatalogError(path, f"{entry}.set.{key}", f"must be {what}, got {show(value)}")
        attributes.append(AttributeRule(condition(path, f"{entry}.when", raw["when"]), tuple(sorted(values.items()))))
    layout = check_keys(path, "layout", data.get("layout") or {}, {"row_width"})
    row_width = layout.get("row_width", 4)
    if not isinstance(row_width, int) or isinstance(row_width, bool) or row_width < 1:
        raise CatalogError(path, "layout.row_width", f"must be a whole number of at least 1, got {show(row_width)}")
    world = World(
        path=path,
        version=str(data["version"]),
        places=places,
        default=default,
        placement=tuple(placement),
        vessels=vessels,
        attributes=tuple(attributes),
        row_width=row_width,
        switchables=switchables,
    )
    if catalog is not None:
        check_world(world, catalog)
    return world


def check_world(world: World, catalog: Catalog) -> None:
    """The groups, names and tags the rules name exist in ``catalog``."""
    places = {p.name for p in world.places}
    for i, rule in enumerate(world.placement):
        check_names(world.path, f"placement[{i}].when", rule.when, catalog, places)
    for i, cond in enumerate(world.vessels):
        check_names(world.path, f"vessels[{i}]", cond, catalog, places)
    for i, cond in enumerate(world.switchables):
        check_names(world.path, f"switchables[{i}]", cond, catalog, places)
    for i, rule in enumerate(world.attributes):
        check_names(world.path, f"attributes[{i}].when", rule.when, catalog, places)


def load_world(path: str | Path | None = None, catalog: Catalog | None = None) -> World:
    """Load ``world.yaml`` (default: the packaged one); with ``catalog``, check the names it uses exist."""
    p = Path(path) if path is not None else packaged_path(FILE_NAME)
    _, data = read_yaml(p)
    return parse_world(data, str(p), catalog)


@lru_cache(maxsize=8)
def cached_world(path: str = "") -> World:
    return load_world(path or None)
