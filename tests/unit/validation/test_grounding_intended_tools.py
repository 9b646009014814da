"""grounding on things the task is told to use: the intended option a kitchen item the scene lacks ("stir
with a spoon", "oven mitts"), a tool named for a food ("pizza cutter" beside the pizzas), a kitchen item whose
head only food in the scene has ("baking sheet" beside lasagna sheets), the dish rack as a thing of its own
(not a part), and a thing offered as optional or beside the kitchen's own appliance."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


def _row(env: str, step: str, intent: str = "snack", task: str = "Make a snack for the user.") -> dict[str, str]:
    return {
        "id": "1",
        **environment(env),
        "unambiguous_direct": task,
        "ambiguity_type": "common_sense_knowledge",
        "ambiguous_task": task,
        "question": "How should I do it?",
        "answer": "As usual.",
        "plan_for_clear_task": f"1. Go to the kitchen table.\n2. {step}",
        "plan_for_amb_task": f"1. Go to the kitchen table.\n2. {step}",
        "end_of_ambiguity": "0",
        "user_intent": intent,
    }


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(env: str, step: str, intent: str = "snack", task: str = "Make a snack for the user.") -> list[str]:
        return [f.message for f in failures_of_row(_row(env, step, intent, task), tmp_path, catalog, ["grounding"])]

    return run


def test_an_intended_tool_the_kitchen_lacks_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("oats, milk, bowl", "Mix the oats and milk in the bowl.", intent="stir|mix, spoon")
    assert found == ["user_intent: the intended 'spoon' is not in the environment (no spoon of any kind)"]


@pytest.mark.parametrize(
    ("env", "intent"),
    [
        ("oats, milk, bowl, wooden spoon", "stir|mix, spoon"),  # the kitchen has a spoon
        ("oats, milk, bowl, blender", "lid"),  # a part of the blender
        ("oats, milk, bowl", "cup|ml"),  # a cup is a unit here too; the other alternative is an amount
    ],
)
def test_an_intended_tool_the_kitchen_has_or_a_part_is_not(grounding, env: str, intent: str) -> None:  # type: ignore[no-untyped-def]
    assert [m for m in grounding(env, "Mix the oats and milk in the bowl.", intent=intent) if "intended" in m] == []


def test_an_intended_word_of_a_scene_things_name_is_that_thing(grounding) -> None:  # type: ignore[no-untyped-def]
    """The intent "sponge" for the sponge cake among the cakes (an offline build's item): no kitchen sponge is meant."""
    env = "chocolate cake, sponge cake, chef's knife"
    step = "Cut the sponge cake with the chef's knife."
    assert [m for m in grounding(env, step, intent="sponge") if "intended" in m] == []
    assert any("intended 'sponge'" in m for m in grounding("chocolate cake, chef's knife", step, intent="sponge"))


def test_a_tool_named_for_a_food_is_a_tool(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("frozen cheese pizza, oven mitts", "Cut the pizza into slices using a pizza cutter.")
    assert any("'pizza cutter'" in m for m in found), found
    assert grounding("frozen cheese pizza, pizza cutter", "Cut the pizza into slices using a pizza cutter.") == []


def test_a_head_only_food_has_does_not_ground_a_tool(grounding) -> None:  # type: ignore[no-untyped-def]
    step = "Spread the nuts on a baking sheet and roast them."
    found = grounding("lasagna sheets, walnuts, oven mitts", step)
    assert any("'baking sheet'" in m for m in found), found
    assert grounding("lasagna sheets, walnuts, oven mitts, baking sheet", step) == []


def test_the_dish_rack_is_a_thing_not_a_part(grounding) -> None:  # type: ignore[no-untyped-def]
    task = "Wash the sponge and place it in the dish rack to dry."
    found = grounding("sponge, dish soap", "Place the sponge in the dish rack.", task=task)
    assert any("'the dish rack'" in m for m in found), found
    assert grounding("sponge, dish soap, dish rack", "Place the sponge in the dish rack.", task=task) == []


@pytest.mark.parametrize(
    "step",
    [
        "Heat the beans on the stove top or in a slow cooker.",  # the kitchen's own stove is the other way
        "Heat the beans using a slow cooker if available.",  # optional
    ],
)
def test_an_optional_tool_is_not_missing(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding("canned beans, pot", step) == []


def test_a_required_tool_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("canned beans, pot", "Heat the beans in a slow cooker.")
    assert any("'slow cooker'" in m for m in found), found


def _answered(env: str, question: str, answer: str, intent: str) -> dict[str, str]:
    row = _row(env, "Pour the tea.", intent=intent, task="Make some green tea.")
    return {**row, "question": question, "answer": answer}


def test_an_intended_vessel_the_answer_names_is_missing(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    row = _answered("green tea, kettle", "Where do I serve the tea?", "Use a cup.", "cup|ml|mug")
    found = [f.message for f in failures_of_row(row, tmp_path, catalog, ["grounding"])]
    assert found == ["user_intent: the intended 'cup' is not in the environment (no cup of any kind)"]


@pytest.mark.parametrize(
    ("answer", "intent"),
    [
        ("Add 1 teaspoon of honey on top.", "teaspoon"),  # a measure
        ("Use the glass food storage container.", "glass"),  # a material
    ],
)
def test_an_intended_measure_or_material_is_not_a_thing(tmp_path: Path, catalog, answer: str, intent: str) -> None:  # type: ignore[no-untyped-def]
    row = _answered("green tea, honey, kettle", "What should I use?", answer, intent)
    assert [f.message for f in failures_of_row(row, tmp_path, catalog, ["grounding"]) if "intended" in f.message] == []
