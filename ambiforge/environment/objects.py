"""A catalog object as an item stores it: the catalog attributes the item schema carries."""

from __future__ import annotations

from collections.abc import Sequence

from ambiforge.catalog import CatalogObject
from ambiforge.catalog.world import cached_world
from ambiforge.models import EnvObject


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries, read off the
    catalog object (the item model reads a scene's objects the same way, ``from_attributes``). It is frozen,
    so items may share one (:func:`environment_of`) and none can change another's."""
    return EnvObject.model_validate(obj, from_attributes=True)


def environment_of(objects: Sequence[CatalogObject]) -> list[EnvObject]:
    """The scene's objects as an item records them, one shared :func:`env_object` per catalog object: it
    says only what its catalog object says, so a build's items need not hold some thirty models each for the
    collector to walk as long as they live. Kept in the (packaged) world's tables beside the objects' graph
    nodes, made the first time an object is recorded."""
    table: dict[str, tuple[CatalogObject, EnvObject]] = cached_world().tables.setdefault("items.environment", {})
    out: list[EnvObject] = []
    for obj in objects:
        entry = table.get(obj.name)
        if entry is None or (entry[0] is not obj and entry[0] != obj):  # another catalog's object of the name
            entry = table[obj.name] = (obj, env_object(obj))
        out.append(entry[1])
    return out
