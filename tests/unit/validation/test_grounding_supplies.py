"""grounding on supplies a plan uses that AmbiK scenes list when they have them: ice, coffee grounds, parchment
paper (protective gloves only as a warning). Each is missing from a kitchen without it and grounded by what the
kitchen has under another name (ice cubes, ground coffee, oven mitts); a verb before "or" ("grill or bake the
salmon") is no object, and a kind of tool offered instead ("gloves or utensils") leaves the step doable."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(step: str, env: str) -> list[str]:
        task = "Make a snack for the user."
        row = {
            "id": "1",
            **environment(env),
            "unambiguous_direct": task,
            "ambiguity_type": "preferences",
            "ambiguous_task": task,
            "question": "Which snack?",
            "answer": "Any.",
            "plan_for_clear_task": f"1. Go to the kitchen table.\n2. {step}",
            "plan_for_amb_task": f"1. Go to the kitchen table.\n2. {step}",
            "end_of_ambiguity": "0",
            "user_intent": "snack",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["grounding"])]

    return run


@pytest.mark.parametrize(
    ("step", "env", "thing"),
    [
        ("Fill the glass with ice and pour the soda over it.", "glass, orange soda", "'ice'"),
        ("Add 4 ice cubes to the blender.", "blender, banana, milk", "'ice cubes'"),
        ("Add coffee grounds to the coffee machine.", "coffee machine, mug, coffee beans", "'coffee grounds'"),
        ("Line the baking sheet with parchment paper.", "baking sheet, salmon", "'parchment paper'"),
        ("Serve the dip with crackers or fruit slices.", "cream cheese, honey, bowl", "'crackers'"),
        ("Insert a toothpick in the center to check if the cake is done.", "cake, oven mitts", "'toothpick'"),
        ("Serve the carrots with ranch dressing.", "carrot, celery, italian dressing", "'ranch dressing'"),
    ],
)
def test_a_supply_the_kitchen_lacks_is_missing(grounding, step: str, env: str, thing: str) -> None:  # type: ignore[no-untyped-def]
    found = [m for m in grounding(step, env) if thing in m]
    assert found, grounding(step, env)


@pytest.mark.parametrize(
    ("step", "env"),
    [
        ("Fill the glass with ice and pour the soda over it.", "glass, orange soda, ice cubes"),
        ("Add 4 ice cubes to the blender.", "blender, banana, milk, ice tray"),
        ("Add coffee grounds to the coffee machine.", "coffee machine, mug, ground coffee"),
        ("Add coffee grounds to the coffee machine.", "coffee machine, mug, coffee"),
        ("Remove the dish from the oven using protective gloves.", "salmon, baking dish, oven mitts"),
        ("Remove the dish from the oven using protective gloves or utensils.", "salmon, baking dish"),
        ("Line the baking sheet with parchment paper.", "baking sheet, salmon, parchment paper"),
        ("Preheat the oven and grill or bake the salmon.", "salmon, baking sheet"),
        ("Serve the vegetables with ranch dressing on the side.", "carrot, celery, ranch dressing"),
    ],
)
def test_the_same_supply_under_the_kitchens_name_or_as_a_verb_is_not(grounding, step: str, env: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step, env) == []


def test_the_grill_as_a_thing_is_still_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("Grill the salmon on the grill.", "salmon, baking sheet")
    assert any("'the grill'" in m for m in found), found


def test_ramekins_to_serve_in_are_tableware(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Place the yogurt cups in ramekins on the kitchen table.", "greek yogurt cup, spoon") == []


def test_a_thing_of_another_material_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("Place the pizza on a plastic plate.", "frozen cheese pizza, metal plate, glass plate")
    assert any("'plastic plate'" in m and "another material" in m for m in found), found


def test_a_thing_of_the_same_material_under_a_longer_name_is_not(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("Place the pizza on a plastic plate.", "frozen cheese pizza, plastic dinner plate, glass plate")
    assert found == []


def test_protective_gloves_the_kitchen_lacks_are_a_warning(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    """Readers never count the gloves a step protects the hands with as missing: a suspicion, not a defect."""
    task = "Bake the salmon."
    row = {
        "id": "1",
        **environment("salmon, baking dish"),
        "unambiguous_direct": task,
        "ambiguity_type": "preferences",
        "ambiguous_task": task,
        "question": "Which fish?",
        "answer": "The salmon.",
        "plan_for_clear_task": "1. Bake the salmon.\n2. Take the dish out of the oven wearing protective gloves.",
        "plan_for_amb_task": "1. Bake the salmon.\n2. Take the dish out of the oven wearing protective gloves.",
        "end_of_ambiguity": "0",
        "user_intent": "salmon",
    }
    found = failures_of_row(row, tmp_path, catalog, ["grounding", "grounding_noun"])
    assert [(f.rule, f.severity) for f in found if "gloves" in f.message] == [("grounding_noun", "warning")], found
