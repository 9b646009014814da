"""plan_mismatch read on what a step acts on: a step that does what the other plan's same step does, on a
kitchen thing nothing in the item names while both tasks name the other plan's thing, and a step that does
an action of its task with another tool than the task does it with."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "stove, skillet, tofu, chicken thighs, potatoes, fork, whisk, potato masher, bowl, spatula, soy sauce"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "end_of_ambiguity": "1",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def mismatch(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["plan_mismatch"])]

    return run


FRY = dict(
    unambiguous_direct="Heat the skillet on medium, fry the tofu until crisp and toss it with soy sauce.",
    ambiguous_task="Heat the skillet, fry the tofu until crisp and toss it with soy sauce.",
    question="How hot should the skillet be?",
    answer="Medium heat.",
    user_intent="medium",
    plan_for_clear_task="1. Drain the tofu and put the skillet on the stove.\n2. Heat it on medium."
    "\n3. Fry the tofu until crisp.\n4. Toss with soy sauce.",
)


def test_a_step_acting_on_a_thing_nothing_names_in_place_of_the_tasks_thing(mismatch) -> None:  # type: ignore[no-untyped-def]
    amb = "1. Drain the tofu and put the skillet on the stove.\n2. Heat it.\n3. Fry the chicken thighs until crisp."
    amb += "\n4. Toss with soy sauce."
    found = mismatch(**FRY, plan_for_amb_task=amb)
    assert found == [
        "plan_for_amb_task[2]: acts on the chicken thighs, which nothing in the item names, where both tasks and "
        "the other plan's step name the tofu: 'Fry the chicken thighs until crisp.'"
    ]


def test_the_same_step_on_the_same_thing_or_on_a_thing_the_item_names_is_no_mismatch(mismatch) -> None:  # type: ignore[no-untyped-def]
    amb = "1. Drain the tofu and put the skillet on the stove.\n2. Heat it.\n3. Fry the tofu until crisp."
    amb += "\n4. Toss with soy sauce."
    assert mismatch(**FRY, plan_for_amb_task=amb) == []
    # the thing is one the answer offers: the open point, not another job
    cells = {**FRY, "answer": "Medium heat; the chicken thighs can wait."}
    chicken = amb.replace("Fry the tofu", "Fry the chicken thighs")
    assert mismatch(**cells, plan_for_amb_task=chicken) == []


MASH = dict(
    unambiguous_direct="Boil the potatoes for 20 minutes and mash them with the fork.",
    ambiguous_task="Boil the potatoes and mash them with the fork.",
    question="How long should I boil the potatoes?",
    answer="20 minutes.",
    user_intent="20|twenty, minutes",
    plan_for_amb_task="1. Fill the bowl with water.\n2. Boil the potatoes.\n3. Mash them with the fork.",
)


def test_a_tasks_action_done_with_another_tool(mismatch) -> None:  # type: ignore[no-untyped-def]
    clear = "1. Boil the potatoes on the stove.\n2. Wait 20 minutes.\n3. Drain and mash them using the potato masher."
    found = mismatch(**MASH, plan_for_clear_task=clear)
    assert found == [
        "plan_for_clear_task[2]: does with the potato masher what its task does with the fork: "
        "'Drain and mash them using the potato masher.'"
    ]


def test_the_tasks_tool_named_or_the_other_tool_offered_is_no_mismatch(mismatch) -> None:  # type: ignore[no-untyped-def]
    clear = "1. Boil the potatoes on the stove.\n2. Wait 20 minutes.\n3. Drain and mash them with the fork."
    assert mismatch(**MASH, plan_for_clear_task=clear) == []
    masher = "1. Boil the potatoes on the stove.\n2. Wait 20 minutes.\n3. Drain and mash them using the potato masher."
    offered = {**MASH, "answer": "20 minutes; the potato masher works too."}
    assert mismatch(**offered, plan_for_clear_task=masher) == []


def test_a_step_sharing_only_its_verb_still_shows_the_swap(mismatch) -> None:  # type: ignore[no-untyped-def]
    clear = (
        "1. Pick up the tofu.\n2. Heat the skillet on medium.\n3. Fry the tofu until crisp.\n4. Toss with soy sauce."
    )
    amb = "1. Pick up the potatoes.\n2. Heat the skillet.\n3. Fry the tofu until crisp.\n4. Toss with soy sauce."
    found = mismatch(**{**FRY, "plan_for_clear_task": clear}, plan_for_amb_task=amb)
    assert found == [
        "plan_for_amb_task[0]: acts on the potatoes, which nothing in the item names, where both tasks and the "
        "other plan's step name the tofu: 'Pick up the potatoes.'"
    ]
