"""Load and check the object catalog (YAML).

The loader is strict because everything downstream trusts it: the generator picks objects by attribute
(a metal bowl must never be offered for the microwave) and the validators ground task text on catalog
names. A mistake is reported with the file and the entry, e.g.
``kitchen.yaml: groups.mugs.objects[2] (glass mug): unknown attribute 'colour'``.
"""

from __future__ import annotations

import hashlib
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ambiforge import inputs, yamlfile
from ambiforge.errors import CatalogError, InputError

if TYPE_CHECKING:
    from ambiforge.catalog.conditions import Condition

#: The appliances every kitchen has; they are implicit in every environment.
APPLIANCES: tuple[str, ...] = (
    "fridge",
    "oven",
    "kitchen table",
    "microwave",
    "dishwasher",
    "sink",
    "tea kettle",
)
KINDS = ("food", "kitchen_item")
MIN_GROUP_SIZE = 3

#: Safety attributes that may be null: true of some products of the kind and false of others (a nonstick
#: pan in the oven), so the catalog asserts neither and no safety item is made from them.
#: Attributes that may be null: they depend on the product (a plastic bowl in the microwave) or on the household
#: (ketchup in the fridge or the cupboard); no item asserts them either way.
_PRODUCT_ATTRS = frozenset({"microwave_safe", "oven_safe", "dishwasher_safe", "heat_resistant", "needs_refrigeration"})

_BOOL_ATTRS = (
    "microwave_safe",
    "oven_safe",
    "dishwasher_safe",
    "heat_resistant",
    "sharp",
    "needs_refrigeration",
    "clean",
    "mass",
    "plural",
)
_STR_ATTRS = ("material", "article", "modifier")
_OBJECT_KEYS = {"name", "uses", *_BOOL_ATTRS, *_STR_ATTRS}
_GROUP_KEYS = {"kind", "noun", "noun_mass", "noun_plural", "tags", "defaults", "objects"}
_TOP_KEYS = {"version", "appliances", "groups"}


@dataclass(frozen=True)
class Appliance:
    name: str
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class CatalogObject:
    """One object or food. ``None`` for an attribute means it does not apply (a food has no material)."""

    name: str
    group: str
    kind: str
    noun: str
    modifier: str
    material: str | None = None
    microwave_safe: bool | None = None
    oven_safe: bool | None = None
    dishwasher_safe: bool | None = None
    heat_resistant: bool | None = None
    sharp: bool | None = None
    needs_refrigeration: bool | None = None
    clean: bool | None = None
    mass: bool = False
    plural: bool = False
    article: str | None = None
    uses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    def has(self, tag: str) -> bool:
        """True when the object's own uses or its group's tags include ``tag``."""
        return tag in self.uses or tag in self.tags

    @cached_property
    def labels(self) -> frozenset[str]:
        """Its group's tags and its own uses in one set: a template's ``tags_any`` condition asks for any
        of several in either, for every object of every scene."""
        return frozenset((*self.tags, *self.uses))


@dataclass(frozen=True)
class Group:
    key: str
    kind: str
    noun: str
    noun_mass: bool
    noun_plural: bool
    tags: tuple[str, ...]
    objects: tuple[CatalogObject, ...]


@dataclass(frozen=True)
class Catalog:
    path: str
    version: str
    sha256: str
    appliances: tuple[Appliance, ...]
    groups: dict[str, Group]
    objects: dict[str, CatalogObject] = field(default_factory=dict)

    def groups_of_kind(self, kind: str) -> list[Group]:
        return [g for g in self.groups.values() if g.kind == kind]

    def group_keys(self, kind: str) -> tuple[str, ...]:
        """The keys of the groups of ``kind``, in catalog order (every sampled scene asks)."""
        return self._group_keys.get(kind, ())

    @cached_property
    def _group_keys(self) -> dict[str, tuple[str, ...]]:
        kinds = dict.fromkeys(g.kind for g in self.groups.values())
        return {kind: tuple(g.key for g in self.groups.values() if g.kind == kind) for kind in kinds}

    def appliance_for(self, use: str) -> str | None:
        return next((a.name for a in self.appliances if use in a.uses), None)

    def meeting(self, condition: Condition) -> frozenset[str]:
        """The names of the catalog's objects that meet ``condition``. Templates and context actions ask
        it of every sampled scene's objects, which are the catalog's: the answer is the catalog's, worked
        out once per condition (kept by the condition's plain :attr:`~Condition.key`, so the catalog stays
        plain data that pickles)."""
        names = self._meeting.get(condition.key)
        if names is None:
            names = frozenset(o.name for o in self.objects.values() if condition.matches(o))
            self._meeting[condition.key] = names
        return names

    @cached_property
    def _meeting(self) -> dict[tuple[Any, ...], frozenset[str]]:
        return {}

    @cached_property
    def bits(self) -> dict[str, int]:
        """Each object's own bit (by name): a set of the catalog's objects as one integer, so "is any object
        of this scene outside these groups meeting that condition" is a few integer operations."""
        return {name: 1 << i for i, name in enumerate(self.objects)}

    @cached_property
    def group_bits(self) -> dict[str, int]:
        """Per group, the bits of its objects (:attr:`bits`)."""
        out = dict.fromkeys(self.groups, 0)
        for obj in self.objects.values():
            out[obj.group] = out.get(obj.group, 0) | self.bits[obj.name]
        return out

    def bits_of(self, objects: Iterable[CatalogObject]) -> int:
        """The bits (:attr:`bits`) of ``objects`` (a scene's, which are the catalog's; another has none)."""
        bits = self.bits
        out = 0
        for obj in objects:
            out |= bits.get(obj.name, 0)
        return out

    def meeting_bits(self, condition: Condition) -> int:
        """:meth:`meeting` as the bits of the objects (:attr:`bits`)."""
        found = self._meeting_bits.get(condition.key)
        if found is None:
            bits = self.bits
            found = self._meeting_bits[condition.key] = sum(bits[name] for name in self.meeting(condition))
        return found

    @cached_property
    def _meeting_bits(self) -> dict[tuple[Any, ...], int]:
        return {}

    @cached_property
    def tables(self) -> dict[str, Any]:
        """Lookup tables other layers derive from the catalog (the phrase index of its names), by name: a
        catalog is frozen, so a table made once holds for as long as the catalog lives and goes with it."""
        return {}


def default_catalog_path() -> Path:
    return Path(str(resources.files("ambiforge.catalog").joinpath("kitchen.yaml")))


def _modifier_from_name(name: str, noun: str) -> str:
    """The words that tell an object from its group noun: 'glass mug' -> 'glass'."""
    words = name.split()
    noun_words = noun.split()
    n = len(noun_words)
    if len(words) > n and [w.lower() for w in words[-n:]] == [w.lower() for w in noun_words]:
        return " ".join(words[:-n])
    return name


_short = reprlib.Repr()
_short.maxstring, _short.maxother, _short.maxlevel = 60, 60, 3


def show(value: Any) -> str:
    """A value for a message, cut short: a YAML alias can make a structure whose full repr is huge."""
    return _short.repr(value)


def _mapping(path: str, entry: str, value: Any, what: str = "a mapping") -> dict[str, Any]:
    """``value`` as a mapping whose keys are strings (YAML allows numbers, lists, anything as keys)."""
    if not isinstance(value, dict):
        raise CatalogError(path, entry, f"expected {what}, got {show(value)}")
    bad = next((k for k in value if not isinstance(k, str)), None)
    if bad is not None:
        raise CatalogError(path, entry, f"keys must be names (text), got {show(bad)}")
    return value


def _strings(path: str, entry: str, key: str, value: Any) -> tuple[str, ...]:
    """An optional list of strings (``uses``, ``tags``)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CatalogError(path, entry, f"{key!r} must be a list of strings, got {show(value)}")
    return tuple(value)


def _check_keys(path: str, entry: str, data: dict[str, Any], allowed: set[str], what: str) -> None:
    data = _mapping(path, entry, data)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CatalogError(path, entry, f"unknown {what} {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _check_types(path: str, entry: str, attrs: dict[str, Any]) -> None:
    for key, value in attrs.items():
        if value is None and key in _PRODUCT_ATTRS:
            continue  # depends on the product: no item asserts it either way
        if key in _BOOL_ATTRS and not isinstance(value, bool):
            raise CatalogError(path, entry, f"attribute {key!r} must be true or false, got {show(value)}")
        if key in _STR_ATTRS and not (isinstance(value, str) and value.strip()):
            raise CatalogError(path, entry, f"attribute {key!r} must be a non-empty string, got {show(value)}")
        if key == "uses" and not (isinstance(value, list) and all(isinstance(u, str) for u in value)):
            raise CatalogError(path, entry, f"attribute 'uses' must be a list of strings, got {show(value)}")
    if "article" in attrs and attrs["article"] not in ("a", "an"):
        raise CatalogError(path, entry, f"attribute 'article' must be 'a' or 'an', got {show(attrs['article'])}")


def parse_catalog(text: str, path: str = "<catalog>") -> Catalog:
    """Parse and check catalog YAML text. Raises CatalogError naming the entry at fault."""
    try:
        data = yamlfile.load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "YAML"
        raise CatalogError(path, where, f"not valid YAML: {getattr(exc, 'problem', exc)}") from None
    except RecursionError:
        raise CatalogError(path, "YAML", "nested too deeply") from None
    if not isinstance(data, dict):
        raise CatalogError(path, "top level", "expected a mapping with 'version', 'appliances', 'groups'")
    _check_keys(path, "top level", data, _TOP_KEYS, "key")
    for key in ("version", "appliances", "groups"):
        if key not in data:
            raise CatalogError(path, "top level", f"missing {key!r}")
    if not isinstance(data["version"], str | int | float) or isinstance(data["version"], bool):
        raise CatalogError(path, "version", f"expected a version number or text, got {show(data['version'])}")
    if not isinstance(data["appliances"] or [], list):
        raise CatalogError(path, "appliances", f"expected a list of appliances, got {show(data['appliances'])}")

    appliances: list[Appliance] = []
    for i, entry in enumerate(data["appliances"] or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise CatalogError(path, f"appliances[{i}]", "expected a mapping with a 'name'")
        _check_keys(path, f"appliances[{i}]", entry, {"name", "uses"}, "key")
        uses = _strings(path, f"appliances[{i}] ({entry['name']})", "uses", entry.get("uses"))
        appliances.append(Appliance(entry["name"], uses))
    names = {a.name for a in appliances}
    missing = [a for a in APPLIANCES if a not in names]
    if missing:
        raise CatalogError(path, "appliances", f"missing fixed appliance(s): {', '.join(missing)}")

    groups_data = data["groups"]
    if not isinstance(groups_data, dict) or not groups_data:
        raise CatalogError(path, "groups", "expected a non-empty mapping of group name to group")
    _mapping(path, "groups", groups_data)

    seen: dict[str, str] = {name.lower(): f"appliances ({name})" for name in names}
    groups: dict[str, Group] = {}
    objects: dict[str, CatalogObject] = {}
    for gkey, g in groups_data.items():
        gentry = f"groups.{gkey}"
        if not isinstance(g, dict):
            raise CatalogError(path, gentry, "expected a mapping")
        _check_keys(path, gentry, g, _GROUP_KEYS, "group key")
        if g.get("kind") not in KINDS:
            raise CatalogError(path, gentry, f"'kind' must be one of {', '.join(KINDS)}, got {show(g.get('kind'))}")
        noun = g.get("noun")
        if not isinstance(noun, str) or not noun.strip():
            raise CatalogError(path, gentry, "missing 'noun' (the generic noun of the group, e.g. 'mug')")
        for flag in ("noun_mass", "noun_plural"):
            if not isinstance(g.get(flag, False), bool):
                raise CatalogError(path, gentry, f"{flag!r} must be true or false, got {show(g[flag])}")
        defaults = g.get("defaults") or {}
        _check_keys(path, f"{gentry}.defaults", defaults, _OBJECT_KEYS - {"name"}, "attribute")
        _check_types(path, f"{gentry}.defaults", defaults)
        tags = _strings(path, gentry, "tags", g.get("tags"))
        raw_objects = g.get("objects") or []
        if not isinstance(raw_objects, list):
            raise CatalogError(path, f"{gentry}.objects", f"expected a list of objects, got {show(raw_objects)}")
        if len(raw_objects) < MIN_GROUP_SIZE:
            raise CatalogError(
                path, gentry, f"has {len(raw_objects)} object(s); a group needs at least {MIN_GROUP_SIZE}"
            )
        group_objects: list[CatalogObject] = []
        for i, o in enumerate(raw_objects):
            oentry = f"{gentry}.objects[{i}]"
            if not isinstance(o, dict) or not isinstance(o.get("name"), str) or not o["name"].strip():
                raise CatalogError(path, oentry, "expected a mapping with a non-empty 'name'")
            oentry = f"{oentry} ({o['name']})"
            _check_keys(path, oentry, o, _OBJECT_KEYS, "attribute")
            _check_types(path, oentry, o)
            attrs = {**defaults, **o}
            name = attrs.pop("name").strip()
            if name.lower() in seen:
                raise CatalogError(path, oentry, f"duplicate object name, first defined at {seen[name.lower()]}")
            seen[name.lower()] = oentry
            obj = CatalogObject(
                name=name,
                group=gkey,
                kind=g["kind"],
                noun=noun,
                modifier=attrs.pop("modifier", None) or _modifier_from_name(name, noun),
                uses=tuple(attrs.pop("uses", ())),
                tags=tags,
                **attrs,
            )
            group_objects.append(obj)
            objects[name] = obj
        groups[gkey] = Group(
            key=gkey,
            kind=g["kind"],
            noun=noun,
            noun_mass=bool(g.get("noun_mass", False)),
            noun_plural=bool(g.get("noun_plural", False)),
            tags=tags,
            objects=tuple(group_objects),
        )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Catalog(
        path=path,
        version=str(data["version"]),
        sha256=digest,
        appliances=tuple(appliances),
        groups=groups,
        objects=objects,
    )


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load the catalog at ``path`` (default: the packaged kitchen catalog)."""
    p = Path(path) if path is not None else default_catalog_path()
    try:
        text = inputs.read_text(p, inputs.CATALOG, "catalog")
    except InputError as exc:
        raise CatalogError(str(p), "file", exc.detail) from None
    return parse_catalog(text, str(p))


@lru_cache(maxsize=8)
def cached_catalog(path: str = "") -> Catalog:
    """The catalog at ``path`` ('' for the packaged one), loaded once per process: every pair, rule and
    worker of a run reads the same catalog, and parsing 900 lines of YAML per call would dominate."""
    return load_catalog(path or None)
