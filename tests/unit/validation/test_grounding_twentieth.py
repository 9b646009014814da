"""grounding readings of the twentieth round: a food an earlier use left or a step drains off is no thing to
fetch, and a kitchen thing named for another scene thing that is no food ("the oven mitts" beside the oven) is
not that thing. Each with a near row that must stay as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import failures_of_row, grounding_errors, grounding_row


@pytest.fixture()
def errors(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return grounding_errors(tmp_path, catalog)


_PRESS = "french press, compost bin, spatula, sponge, dish soap"


def test_what_a_use_left_is_not_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Empty the french press into the compost bin and wash it with the sponge."
    assert errors(_PRESS, ["Scrape the used coffee grounds into the compost bin with the spatula."], task) == []
    assert errors(_PRESS, ["Clean the old oils out of the french press with the sponge."], task) == []


def test_a_food_added_is_still_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Make coffee in the french press."
    found = errors(_PRESS, ["Put the coffee grounds in the french press."], task)
    assert any("coffee grounds" in m for m in found)


_PEACHES = "can of peaches, can opener, colander, ceramic bowl, plain yogurt"


def test_what_a_step_drains_off_is_not_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Open the can with the can opener.", "Drain the syrup through the colander.", "Serve in the bowl."]
    assert errors(_PEACHES, steps, "Serve the peaches with yogurt.") == []


def test_a_food_poured_in_is_still_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Open the can with the can opener.", "Pour the syrup over the yogurt.", "Serve in the bowl."]
    found = errors(_PEACHES, steps, "Serve the peaches with yogurt.")
    assert any("'syrup'" in m for m in found)
    fresh = "peaches, colander, ceramic bowl, plain yogurt"  # no pack whose liquid a step drains off
    found = errors(fresh, ["Drain the syrup through the colander.", "Serve in the bowl."], "Serve the peaches.")
    assert any("'syrup'" in m for m in found)


_BAKE = "muffin tin, cupcake batter, cooling rack, oven, piping bag"


def test_a_tool_named_for_a_scene_appliance_is_another_thing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Take the muffin tin out of the oven with the oven mitts.", "Move the cupcakes to the cooling rack."]
    found = errors(_BAKE, steps, "Bake the cupcake batter in the muffin tin in the oven.")
    assert any("oven mitts" in m for m in found)


def test_a_tool_listed_or_a_food_modifier_still_grounds(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Take the muffin tin out of the oven with the oven mitts.", "Move the cupcakes to the cooling rack."]
    assert errors(_BAKE + ", oven mitts", steps, "Bake the cupcake batter in the muffin tin in the oven.") == []
    bread = "sourdough, bread board, blender, blender jar"
    assert errors(bread, ["Put the sourdough bread on the bread board.", "Rinse the blender jar."], "Serve it.") == []


_COCOA = "cow's milk, cocoa powder, saucepan, whisk, stove, ceramic mug"


def test_a_food_said_hot_after_a_step_heats_is_what_the_heating_made(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Heat the milk in the saucepan.", "Whisk in the cocoa powder.", "Let the hot chocolate cool a little."]
    assert errors(_COCOA, steps, "Make a drink for the child.") == []


def test_a_food_said_hot_where_nothing_is_heated_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Pour the milk into the ceramic mug.", "Stir in the hot chocolate."]
    found = errors(_COCOA, steps, "Make a drink for the child.")
    assert any("chocolate" in m for m in found)


def test_a_bag_named_for_the_freezer_is_not_the_freezer(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    rules = ["grounding", "grounding_noun", "grounding_variant"]
    row = grounding_row(
        "banana bread, cling film, paper bag, freezer", ["Put it in a freezer bag."], "Freeze the banana bread."
    )
    assert any("freezer bag" in f.message for f in failures_of_row(row, tmp_path, catalog, rules))
    row = grounding_row(
        "banana bread, cling film, freezer bag, freezer", ["Put it in a freezer bag."], "Freeze the banana bread."
    )
    assert failures_of_row(row, tmp_path, catalog, rules) == []
