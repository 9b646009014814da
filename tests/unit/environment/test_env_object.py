"""An item's scene objects are made once per catalog object and copied per item: equal to validating them
afresh, and never shared (editing one item's object leaves every other item alone)."""

from __future__ import annotations

from ambiforge.environment.objects import env_object
from ambiforge.models import EnvObject


def test_each_item_gets_its_own_equal_copy(catalog) -> None:  # type: ignore[no-untyped-def]
    for obj in list(catalog.objects.values())[:80]:
        first, second = env_object(obj), env_object(obj)
        fresh = EnvObject(**{name: getattr(obj, name) for name in EnvObject.model_fields})
        assert first == fresh and first.model_dump() == fresh.model_dump()
        assert first.model_fields_set == fresh.model_fields_set
        assert first is not second
        first.name = "edited"
        assert second.name == obj.name and env_object(obj).name == obj.name
