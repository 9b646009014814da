"""A catalog object as an item stores it: the catalog attributes the item schema carries."""

from __future__ import annotations

from ambiforge.catalog import CatalogObject
from ambiforge.models import EnvObject

#: Validated once per catalog object (a build stores the same few hundred objects tens of thousands of
#: times); each item gets its own copy, so editing one item's environment never touches another's.
_MADE: dict[CatalogObject, EnvObject] = {}


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries."""
    made = _MADE.get(obj)
    if made is None:
        if len(_MADE) > 20_000:
            _MADE.clear()
        made = _MADE[obj] = EnvObject(**{name: getattr(obj, name) for name in EnvObject.model_fields})
    return made.model_copy()
