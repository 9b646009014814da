"""Declarative catalog conditions (templates.yaml): each key on objects of the packaged catalog."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ambiforge.catalog.conditions import Condition


def matching(catalog, condition: Condition, names: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    return [n for n in names if condition.matches(catalog.objects[n])]


def test_an_empty_condition_matches_anything(catalog) -> None:
    assert matching(catalog, Condition(), ["glass mug", "oat milk", "bread knife"]) == [
        "glass mug",
        "oat milk",
        "bread knife",
    ]


def test_tags_any_reads_group_tags_and_own_uses_while_uses_any_reads_only_uses(catalog) -> None:
    names = ["glass mug", "oat milk", "bread knife", "butter knife", "rye bread"]
    assert matching(catalog, Condition(tags_any=("drinkware", "drink")), names) == ["glass mug", "oat milk"]
    assert matching(catalog, Condition(tags_any=("spread",)), names) == ["butter knife"]
    assert matching(catalog, Condition(uses_any=("slice_bread",)), names) == ["bread knife"]
    assert matching(catalog, Condition(uses_any=("cutlery",)), names) == []  # a group tag, not a use


def test_where_where_not_and_known_on_booleans_that_may_not_apply(catalog) -> None:
    names = ["ceramic bowl", "metal bowl", "plastic cup", "glass mug", "oat milk"]
    assert matching(catalog, Condition(where={"microwave_safe": True}), names) == [
        "ceramic bowl",
        "plastic cup",
        "glass mug",
    ]
    # not False: True and "does not apply" (None, a food) both pass
    assert matching(catalog, Condition(where_not={"heat_resistant": False}), names) == [
        "ceramic bowl",
        "metal bowl",
        "glass mug",
        "oat milk",
    ]
    assert matching(catalog, Condition(known=("microwave_safe",)), names) == names[:4]
    assert matching(catalog, Condition(where={"material": ["glass", "metal"]}), names) == ["metal bowl", "glass mug"]
    assert matching(catalog, Condition(where={"noun": "cup", "material": "plastic"}), names) == ["plastic cup"]
    assert matching(catalog, Condition(where={"microwave_safe": 1}), names) == []  # booleans are not numbers


def test_clean_true_means_not_marked_dirty(catalog) -> None:
    names = ["ceramic mug", "dirty ceramic mug", "oat milk"]
    assert matching(catalog, Condition(clean=True), names) == ["ceramic mug", "oat milk"]
    assert matching(catalog, Condition(clean=False), names) == ["dirty ceramic mug"]


def test_all_keys_must_hold(catalog) -> None:
    c = Condition(tags_any=("tableware",), where={"microwave_safe": True}, clean=True)
    assert matching(catalog, c, ["ceramic bowl", "metal bowl", "dirty glass bowl", "glass mug"]) == ["ceramic bowl"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"where": {"colour": "red"}}, "unknown catalog attribute 'colour'"),
        ({"known": ["uses"]}, "unknown catalog attribute 'uses'"),
        ({"tags": ["drinkware"]}, "tags"),
        ({"clean": "yes please"}, "clean"),
    ],
)
def test_bad_conditions_are_refused_naming_the_key(data: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValidationError, match=message):
        Condition(**data)


def test_the_specialised_equality_tests_agree_with_same_on_every_kind_of_value() -> None:
    """``where``/``where_not`` tests are specialised by the value's type for speed; each must answer as
    ``_same`` does, booleans kept apart from numbers and None from everything."""
    from types import SimpleNamespace

    from ambiforge.catalog.conditions import _equals, _same

    values = [True, False, None, "glass", "metal", "", 1, 0, 1.0, 2.5]
    for expected in values:
        test = _equals("material", expected)
        for actual in values:
            assert test(SimpleNamespace(material=actual)) is _same(actual, expected), (actual, expected)


def test_a_condition_of_several_keys_answers_each_object_as_often_as_asked(catalog) -> None:
    """The several-key test remembers answers by object: asked again, of the same or other objects in any
    order, it answers as a fresh condition does."""
    condition = Condition(where={"kind": "kitchen_item"}, known=("microwave_safe",), clean=True)
    objects = list(catalog.objects.values())
    first = [condition.matches(o) for o in objects]
    again = [condition.matches(o) for o in reversed(objects)][::-1]
    fresh = Condition(where={"kind": "kitchen_item"}, known=("microwave_safe",), clean=True)
    assert first == again == [fresh.matches(o) for o in objects]
    assert any(first) and not all(first)


def test_a_condition_is_a_value_tables_can_be_keyed_by() -> None:
    same = Condition(tags_any=("drinkware",), where={"material": ["glass", "metal"]})
    again = Condition(tags_any=["drinkware"], where={"material": ["glass", "metal"]})  # type: ignore[arg-type]
    assert same == again and hash(same) == hash(again) and {same: 1}[again] == 1
    assert same != Condition(tags_any=("drinkware",), where={"material": ["glass"]})
    # True and 1 test differently (a boolean attribute is never the number), so they are different keys
    assert Condition(where={"sharp": True}) != Condition(where={"sharp": 1})


def test_the_catalog_names_the_objects_meeting_a_condition(catalog) -> None:  # type: ignore[no-untyped-def]
    knives = Condition(uses_any=("slice_bread",))
    assert catalog.meeting(knives) == {o.name for o in catalog.objects.values() if knives.matches(o)}
    assert "bread knife" in catalog.meeting(knives) and "glass mug" not in catalog.meeting(knives)
    # an equal condition written apart (another template's) gets the same answer
    assert catalog.meeting(Condition(uses_any=["slice_bread"])) == catalog.meeting(knives)  # type: ignore[arg-type]


def test_a_catalog_that_answered_conditions_still_pickles(catalog) -> None:  # type: ignore[no-untyped-def]
    import pickle

    catalog.meeting(Condition(tags_any=("drinkware",)))
    assert pickle.loads(pickle.dumps(catalog)).meeting(Condition(tags_any=("drinkware",))) == catalog.meeting(
        Condition(tags_any=("drinkware",))
    )


def test_meeting_bits_are_the_meeting_objects_of_a_scene_outside_a_group(catalog) -> None:  # type: ignore[no-untyped-def]
    """The bits say what meeting() and the groups say: an object's bit is set exactly when it is in the set."""
    condition = Condition(tags_any=("drinkware",))
    scene = [catalog.objects[n] for n in ("glass mug", "oat milk", "bread knife", "plastic cup")]
    in_scene = catalog.bits_of(scene)
    meeting = catalog.meeting_bits(condition) & in_scene
    assert [o.name for o in scene if catalog.bits[o.name] & meeting] == ["glass mug", "plastic cup"]
    mugs = catalog.objects["glass mug"].group
    outside = meeting & ~catalog.group_bits[mugs]
    assert [o.name for o in scene if catalog.bits[o.name] & outside] == ["plastic cup"]
    for obj in catalog.objects.values():
        assert bool(catalog.bits[obj.name] & catalog.meeting_bits(condition)) == (
            obj.name in catalog.meeting(condition)
        )
        assert catalog.bits[obj.name] & catalog.group_bits[obj.group]
