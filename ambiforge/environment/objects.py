"""A catalog object as an item stores it: the catalog attributes the item schema carries."""

from __future__ import annotations

from ambiforge.catalog import CatalogObject
from ambiforge.models import EnvObject
from ambiforge.models.filling import new, set_extra, set_fields_set, set_private, set_values

#: Validated once per catalog object, by identity (hashing a catalog object hashes every field): a build
#: stores the same few hundred objects tens of thousands of times. Entries hold their object.
_MADE: dict[int, tuple[CatalogObject, EnvObject]] = {}


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries. Each item gets
    its own copy (its fields are strings, so a shallow one), so editing one item never touches another."""
    entry = _MADE.get(id(obj))
    if entry is None or entry[0] is not obj:
        if len(_MADE) > 20_000:
            _MADE.clear()
        entry = _MADE[id(obj)] = (obj, EnvObject(**{name: getattr(obj, name) for name in EnvObject.model_fields}))
    made = entry[1]
    copy = new(EnvObject)
    set_values(copy, dict(made.__dict__))
    # Shared: every field is set, so setting one (which adds its name) leaves the set as it is.
    set_fields_set(copy, made.__pydantic_fields_set__)
    set_extra(copy, None)
    set_private(copy, None)
    return copy
