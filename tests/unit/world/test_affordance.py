from __future__ import annotations

import pytest

from ambiforge.errors import CatalogError
from ambiforge.world.affordance import able, afforded, can
from ambiforge.world.query import Expression, RelationConstraint


def ids(nodes) -> list[str]:
    return [n.id for n in nodes]


@pytest.fixture
def graph(make_graph):
    return make_graph(
        {
            "vegetable peeler": "drawer_1",
            "Y-peeler": "drawer_1",
            "swivel peeler": "drawer_2",
            "julienne peeler": "drawer_2",
            "paring knife": "drawer_1",
            "bread knife": "drawer_1",
            "butter knife": "drawer_1",
            "box grater": "drawer_2",
            "microplane grater": "drawer_2",
            "glass mug": "shelf_1",
            "plastic mug": "shelf_1",
            "paper cup": "shelf_1",
            "metal bowl": "counter",
            "ceramic bowl": "counter",
            "plastic cup": "shelf_1",
        }
    )


def test_every_peeler_that_peels_is_a_right_choice(graph) -> None:
    """The issue's defect: "peel the carrot with a peeler" named one peeler where the Y-peeler and the
    swivel peeler do the same job."""
    assert ids(afforded(graph, "peeler", "peel")) == ["vegetable_peeler", "y_peeler", "swivel_peeler"]
    assert "paring_knife" in ids(able(graph, "peel"))
    assert "julienne_peeler" not in ids(able(graph, "peel"))


def test_every_grater_grates(graph) -> None:
    assert ids(afforded(graph, "grater", "grate")) == ["box_grater", "microplane_grater"]


def test_safety_affordances_follow_the_attributes(graph) -> None:
    assert ids(afforded(graph, "bowl", "microwave")) == ["ceramic_bowl"]
    # a plastic mug may be a melamine mug made for hot drinks: not ruled out (its heat resistance is open)
    assert ids(afforded(graph, "mug", "hold_hot_liquid")) == ["glass_mug", "plastic_mug"]
    assert ids(afforded(graph, "cup", "hold_hot_liquid")) == ["paper_cup"]  # made for hot drinks; not the plastic cup
    child = ids(able(graph, "hand_to_child"))
    assert "plastic_cup" in child and "plastic_mug" in child
    assert not {"bread_knife", "paring_knife", "glass_mug", "ceramic_bowl"} & set(child)
    assert ids(afforded(graph, "knife", "slice")) == ["bread_knife"]
    assert ids(afforded(graph, "knife", "spread")) == ["butter_knife"]


def test_the_referent_may_carry_attributes_and_relations(graph) -> None:
    in_top_drawer = Expression(
        noun="peeler", relations=(RelationConstraint(relation="in", target=Expression(name="top drawer")),)
    )
    assert ids(afforded(graph, in_top_drawer, "peel")) == ["vegetable_peeler", "y_peeler"]
    assert ids(afforded(graph, "knives", "peel")) == ["paring_knife"]


def test_places_have_affordances_too(graph) -> None:
    kettle = next(n for n in graph.nodes if n.id == "tea_kettle")
    assert can(graph, kettle, "boil")
    assert "tea_kettle" in ids(able(graph, "boil"))
    assert ids(able(graph, "heat_food")) == ["oven", "microwave"]


def test_an_unknown_action_is_an_error(graph) -> None:
    with pytest.raises(CatalogError, match="unknown action 'levitate'"):
        able(graph, "levitate")


def test_every_thermometer_that_reads_meat_affords_checking_it(make_graph) -> None:  # type: ignore[no-untyped-def]
    """r003/r054: the digital (probe) thermometer reads meat as well as the meat thermometer; a candy or an oven
    thermometer does not."""
    names = ["meat thermometer", "digital thermometer", "candy thermometer", "oven thermometer"]
    graph = make_graph({n: "drawer_1" for n in names})
    assert ids(afforded(graph, "thermometer", "check_meat")) == ["meat_thermometer", "digital_thermometer"]


def test_no_dish_that_is_not_oven_safe_is_kept_in_the_oven(catalog) -> None:  # type: ignore[no-untyped-def]
    """r015: the sampler never leaves a plastic baking dish in the oven for a plan to preheat it."""
    from ambiforge.catalog.world import cached_world

    world = cached_world()
    for obj in catalog.objects.values():
        if obj.oven_safe is not True and "bakeware" in obj.tags:
            rule = next(r for r in world.placement if r.when.matches(obj))
            assert "oven" not in rule.places, obj.name


def test_a_paring_knife_chops_small_vegetables_but_does_not_slice_a_loaf(make_graph) -> None:
    """A blind reader: variants for chopping cherry tomatoes left out the paring knife and listed a fillet
    knife. Chopping takes any sharp kitchen knife but the fish and bread blades; slicing a loaf a bigger one."""
    graph = make_graph(
        {
            "chef's knife": "drawer_1",
            "paring knife": "drawer_1",
            "fillet knife": "drawer_1",
            "bread knife": "drawer_2",
            "butter knife": "drawer_2",
        }
    )
    assert ids(afforded(graph, "knife", "chop")) == ["chefs_knife", "paring_knife"]
    assert ids(afforded(graph, "knife", "slice")) == ["chefs_knife", "bread_knife"]
