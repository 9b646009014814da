"""An item's scene objects are the catalog objects' attributes the item schema carries: equal to validating
them afresh, and frozen, so the one a build's items share per catalog object cannot be edited through one
item behind the others' backs."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ambiforge.environment.objects import env_object, environment_of
from ambiforge.models import EnvObject


def test_a_scene_object_is_its_catalog_objects_attributes_and_cannot_be_edited(catalog) -> None:  # type: ignore[no-untyped-def]
    for obj in list(catalog.objects.values())[:80]:
        first = env_object(obj)
        fresh = EnvObject(**{name: getattr(obj, name) for name in EnvObject.model_fields})
        assert first == fresh and first.model_dump() == fresh.model_dump()
        assert first.model_fields_set == fresh.model_fields_set
        with pytest.raises(ValidationError):
            first.name = "edited"
        assert env_object(obj).name == obj.name


def test_items_share_one_scene_object_per_catalog_object(catalog) -> None:  # type: ignore[no-untyped-def]
    objects = list(catalog.objects.values())[:40]
    first, second = environment_of(objects), environment_of(objects[::-1])
    assert first == [env_object(obj) for obj in objects]
    assert all(a is b for a, b in zip(first, second[::-1], strict=True))
