"""plan_mismatch on any plan, clear or ambiguous, read against the kitchen things its own task acts on: a
food the task names and the plan never takes up, another object of the kind the task names, a place the task
puts things that the plan never names, and steps of another job after a task that makes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "paring knife, bread knife, cutting board, walnuts, almonds, cashews, lemon, watermelon, banana, apple, "
    "strawberries"
)


def _row(clear: str, clear_plan: list[str], amb: str, amb_plan: list[str]) -> dict[str, str]:
    return {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": clear,
        "ambiguity_type": "safety",
        "amb_shortlist": "",
        "ambiguous_task": amb,
        "question": "Which knife should I use?",
        "answer": "The paring knife.",
        "plan_for_clear_task": "\n".join(clear_plan),
        "plan_for_amb_task": "\n".join(amb_plan),
        "end_of_ambiguity": "0",
        "user_intent": "paring knife",
        "variants": "",
    }


@pytest.fixture()
def mismatch(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(clear: str, clear_plan: list[str], amb: str, amb_plan: list[str]) -> list[str]:
        row = _row(clear, clear_plan, amb, amb_plan)
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["plan_mismatch"])]

    return run


NUTS = "Place the walnuts, almonds and cashews on a baking sheet and bake them for 10 minutes."


def test_a_food_the_task_names_and_the_plan_never_takes_up(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Preheat the oven", "Place the almonds and cashews on a baking sheet", "Bake for 10 minutes"]
    whole = ["Preheat the oven", "Place the walnuts, almonds and cashews on a baking sheet", "Bake for 10 minutes"]
    found = mismatch(NUTS, plan, NUTS, whole)
    assert found == ["plan_for_clear_task: never takes up the walnuts its task names"]


def test_a_food_named_by_a_shorter_name_or_a_tool_left_implicit_is_taken_up(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Use the paring knife and the cutting board to slice the apple, then place it on a plate."
    plan = ["Slice the apple into wedges", "Put the apple slices on a plate"]
    assert mismatch(task, plan, task, plan) == []


def test_what_the_task_makes_or_measures_is_no_thing_to_take_up(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Make a banana smoothie using a scoop of walnuts."
    plan = ["Peel the banana", "Blend the banana with the nuts until smooth"]
    assert mismatch(task, plan, task, plan) == []


def test_another_object_of_the_kind_the_task_names(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Slice the apple with the paring knife."
    plan = ["Take the bread knife", "Slice the apple with the bread knife"]
    found = mismatch(task, plan, task, ["Slice the apple with the paring knife"])
    assert found == ["plan_for_clear_task: uses the bread knife where its task names the paring knife"]


def test_a_place_the_task_puts_things_that_the_plan_never_names(mismatch) -> None:  # type: ignore[no-untyped-def]
    amb = "Wash the apple and place it on the kitchen table."
    found = mismatch(
        amb, ["Wash the apple", "Place it on the kitchen table"], amb, ["Wash the apple", "Place it in the sink"]
    )
    assert found == ["plan_for_amb_task: never puts things on or in the kitchen table its task names"]


def test_another_name_of_the_place_is_the_place(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Slice the apple and place the slices on a baking sheet."
    plan = ["Slice the apple", "Place the slices on a tray"]
    assert mismatch(task, plan, task, plan) == []


def test_steps_of_another_job_after_a_task_that_makes_nothing(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Slice the lemon with the paring knife."
    plan = ["Slice the lemon with the paring knife", "Cut the watermelon into cubes", "Peel the banana"]
    found = mismatch(task, plan, task, plan)
    assert len(found) == 2
    assert found[0].startswith("plan_for_clear_task[1]: from here acts on the watermelon, banana")


def test_a_task_that_makes_something_may_take_up_more_foods(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Prepare a fruit salad with the lemon."
    plan = ["Slice the lemon", "Cut the watermelon into cubes", "Peel the banana", "Mix everything in a bowl"]
    assert mismatch(task, plan, task, plan) == []


def test_a_plan_that_cooks_what_its_task_only_takes_out(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Take the apple and the banana from the fridge."
    plan = ["Take the apple and the banana from the fridge", "Preheat the oven", "Bake the apple for 20 minutes"]
    found = mismatch(task, plan, task, plan)
    assert found[0] == "plan_for_clear_task[1]: cooks, which its task never asks: 'Preheat the oven'"


def test_a_plan_that_only_handles_what_its_task_handles(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Take the apple and the banana from the fridge."
    plan = ["Open the fridge", "Take the apple and the banana out", "Put them on the counter next to the cookies"]
    assert mismatch(task, plan, task, plan) == []


def test_a_food_taken_up_by_the_kind_the_catalog_files_it_under(mismatch) -> None:  # type: ignore[no-untyped-def]
    task = "Wash the strawberries and place them on a plate."
    assert mismatch(task, ["Wash the fruit", "Place the fruit on a plate"], task, ["Wash the fruit"]) == []
    found = mismatch(task, ["Wash the apple", "Place the apple on a plate"], task, ["Wash the fruit"])
    assert found == ["plan_for_clear_task: never takes up the strawberries its task names"]
