"""A catalog object as an item stores it: the catalog attributes the item schema carries."""

from __future__ import annotations

from ambiforge.catalog import CatalogObject
from ambiforge.models import EnvObject


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries, read off the
    catalog object (the item model reads a scene's objects the same way, ``from_attributes``). It is frozen,
    so items may share one (:func:`ambiforge.generation.draft.environment_of`) and none can change another's."""
    return EnvObject.model_validate(obj, from_attributes=True)
