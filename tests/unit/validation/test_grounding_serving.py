"""grounding on tableware a plan serves on: a plate or glass a plan step puts the finished food on is a
suspicion (a scene listing its food may leave tableware out, and the task is done without it); a vessel the
task names, one the open point is about, and one a step works the food in are missing objects."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "paring knife, cutting board, toaster, whisk, eggs, bananas, white bread, orange juice"
TASK = "Toast the white bread in the toaster."


def _row(step: str, task: str, question: str, env: str = ENV) -> dict[str, str]:
    plan = "\n".join(["Take the bread.", "Toast the bread in the toaster.", step])
    return {
        "id": "1",
        **environment(env),
        "unambiguous_direct": task,
        "ambiguity_type": "preferences",
        "amb_shortlist": "",
        "ambiguous_task": task.replace("white ", ""),
        "question": question,
        "answer": "The white bread.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,
        "end_of_ambiguity": "0",
        "user_intent": "white",
        "variants": "",
    }


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(step: str, task: str = TASK, question: str = "Which bread should I toast?", env: str = ENV) -> list[str]:
        return [
            f"{f.rule} {f.severity}"
            for f in failures_of_row(
                _row(step, task, question, env), tmp_path, catalog, ["grounding", "grounding_noun"]
            )
        ]

    return run


@pytest.mark.parametrize(
    "step",
    [
        "Serve the toast on a plate.",
        "Transfer the toast to a clean plate.",
        "Slide the toast onto a plate using the knife.",
        "Pour the orange juice into a mug and serve.",
        "Serve the toast on a plate or bowl.",
    ],
)
def test_tableware_a_plan_serves_on_is_a_suspicion(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    flags = grounding(step)
    assert flags and set(flags) == {"grounding_noun warning"}


@pytest.mark.parametrize(
    "step",
    [
        "Crack the eggs into a bowl and whisk them.",  # the bowl the eggs are beaten in
        "Place the bread in a baking dish.",  # cookware, not tableware
        "Put the toast in a bowl, add the bananas and mix.",
    ],
)
def test_a_vessel_the_food_is_worked_in_is_missing(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step) == ["grounding error"]


def test_tableware_the_task_names_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    task = "Toast the white bread in the toaster and serve it on a plate."
    assert grounding("Serve the toast on a plate.", task=task) == ["grounding error"]


def test_tableware_the_question_is_about_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Serve the toast on a plate.", question="Which plate should I use?") == ["grounding error"]


def test_served_first_then_worked_in_is_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    item_flags = grounding("Serve the toast on a plate. Then mash the bananas on the plate with the whisk.")
    assert item_flags == ["grounding error"]


def test_a_bowl_after_an_article_is_the_bowl_and_a_bowl_of_is_a_measure(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Crack the eggs into a bowl.") == ["grounding error"]
    assert grounding("Eat a bowl of bananas.") == []


def test_a_material_before_an_adjective_is_no_thing(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Heat the toast on a glass microwave-safe cutting board.") == []


@pytest.mark.parametrize(
    "step", ["Get a container from the cabinet.", "Chop the bananas and place them in a clean container."]
)
def test_a_container_a_step_fills_is_missing(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step) == ["grounding error"]


@pytest.mark.parametrize(
    "step", ["Take a container of eggs from the fridge.", "Store the toast in an airtight container for later."]
)
def test_a_package_or_a_store_for_later_is_a_suspicion(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step) == ["grounding_noun warning"]


def test_the_grill_is_the_grill_pan_the_kitchen_lists(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Heat the bananas on the grill.", env=ENV + ", grill pan") == []
    assert grounding("Heat the bananas on the grill.") == ["grounding error"]


def test_a_container_in_a_kitchen_with_a_saucepan_may_be_the_saucepan(grounding) -> None:  # type: ignore[no-untyped-def]
    step = "Chop the bananas and place them in a clean container."
    assert grounding(step, env=ENV + ", saucepan") == ["grounding_noun warning"]


def test_the_served_plate_carried_to_the_table_stays_a_suspicion(grounding) -> None:  # type: ignore[no-untyped-def]
    assert grounding("Serve the toast on a plate. Then place the plate on the table.") == ["grounding_noun warning"]
