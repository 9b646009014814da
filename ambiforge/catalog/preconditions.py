"""Load and check ``preconditions.yaml``: what a step needs before it can happen (a tool in hand for cutting,
a container to pour into, a heating step before "hot", washing before putting away, a freezer for frozen
food), as data beside the affordances, so the plan reader applies the same table the templates are written
to. Errors name the file and key."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.knowledge import packaged_path, read_yaml
from ambiforge.errors import CatalogError

FILE_NAME = "preconditions.yaml"


class Holders(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tags: tuple[str, ...] = Field(min_length=1)
    places: tuple[str, ...] = ()


class Weighing(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: tuple[str, ...] = Field(min_length=1)
    tags: tuple[str, ...] = Field(min_length=1)


class Preconditions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: str
    tool_verbs: dict[str, str] = Field(min_length=1, description="verb -> the affordance its tool needs")
    hand_verbs: tuple[str, ...] = ()
    used_in_place: tuple[str, ...] = Field(default=(), description="tags of objects never picked up to be used")
    said_of: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="verb -> the groups it is said of")
    by_hand: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="tool verb -> groups done by hand")
    pour_verbs: tuple[str, ...] = Field(min_length=1)
    holders: Holders
    heaters: tuple[str, ...] = Field(min_length=1)
    heat_words: tuple[str, ...] = Field(min_length=1)
    heat_safe: dict[str, str] = Field(
        default_factory=dict, description="heater -> the attribute an object in it must not have false"
    )
    vessel_places: tuple[str, ...] = Field(default=(), description="places food goes into only in a vessel")
    liquid_tags: tuple[str, ...] = Field(default=(), description="food heated only in a vessel, never loose")
    not_after_wash: tuple[str, ...] = ()
    disposable_materials: tuple[str, ...] = ()
    weighing: Weighing | None = None
    frozen_tags: tuple[str, ...] = ()
    cold_places: tuple[str, ...] = ()
    freezer: str = "freezer"


def parse_preconditions(data: dict[str, Any], path: str) -> Preconditions:
    try:
        result = Preconditions.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise CatalogError(path, ".".join(str(p) for p in err["loc"]), err["msg"]) from None
    known = cached_affordances().actions
    for verb, action in result.tool_verbs.items():
        if action not in known:
            raise CatalogError(path, f"tool_verbs.{verb}", f"unknown affordance {action!r} (affordances.yaml)")
    for heater, attribute in result.heat_safe.items():
        if heater not in result.heaters:
            raise CatalogError(path, f"heat_safe.{heater}", "not one of heaters")
        if attribute not in {"oven_safe", "microwave_safe", "heat_resistant"}:
            raise CatalogError(path, f"heat_safe.{heater}", f"unknown attribute {attribute!r}")
    for verb in result.by_hand:
        if verb not in result.tool_verbs:
            raise CatalogError(path, f"by_hand.{verb}", "not a verb of tool_verbs")
    return result


def load_preconditions(path: str | Path | None = None) -> Preconditions:
    p = Path(path) if path is not None else packaged_path(FILE_NAME)
    _, data = read_yaml(p)
    return parse_preconditions(data, str(p))


@lru_cache(maxsize=4)
def cached_preconditions(path: str = "") -> Preconditions:
    return load_preconditions(path or None)
