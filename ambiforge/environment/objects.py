"""A catalog object as an item stores it: the catalog attributes the item schema carries."""

from __future__ import annotations

from operator import attrgetter

from ambiforge.catalog import CatalogObject
from ambiforge.models import EnvObject

#: The catalog attributes an item stores of a scene object (the item model's fields, named once).
ENV_FIELDS: tuple[str, ...] = tuple(EnvObject.model_fields)
_VALUES = attrgetter(*ENV_FIELDS)


def env_fields(obj: CatalogObject) -> dict[str, object]:
    """The fields of :func:`env_object`, for code that builds the item from plain data in one call."""
    return dict(zip(ENV_FIELDS, _VALUES(obj), strict=True))


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries. Each item gets
    its own object, so editing one item never touches another."""
    return EnvObject.model_validate(env_fields(obj))
