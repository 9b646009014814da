"""A catalog object as an item stores it: the catalog attributes the item schema carries."""

from __future__ import annotations

from ambiforge.catalog import CatalogObject
from ambiforge.models import EnvObject


def env_fields(obj: CatalogObject) -> dict[str, object]:
    """The fields of :func:`env_object`, for code that builds the item from plain data in one call."""
    return {name: getattr(obj, name) for name in EnvObject.model_fields}


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries. Each item gets
    its own object, so editing one item never touches another."""
    return EnvObject.model_validate(env_fields(obj))
