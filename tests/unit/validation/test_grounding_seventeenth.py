"""grounding readings of the seventeenth round: a tool's name opening a step is its verb ("Spoon the jam into
a dish"), also when the step runs on after the last one's number; "the bottle" said alone is a food's package
(a suspicion, not a missing thing); a food the kitchen holds in chunks is that food ("a peach smoothie" beside
the frozen peach chunks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


def _row(env: str, step: str, task: str) -> dict[str, str]:
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
        "user_intent": "snack",
    }


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(env: str, step: str, task: str = "Lay out a snack for the guests.") -> list[tuple[str, str]]:
        rules = ["grounding", "grounding_noun", "grounding_variant"]
        return [(f.rule, f.message) for f in failures_of_row(_row(env, step, task), tmp_path, catalog, rules)]

    return run


@pytest.mark.parametrize(
    "step",
    [
        "Spoon apricot jam into the glass dish.",
        "Spoon whipped butter into the glass dish.",
        "Set out the crackers 3 Spoon the jam into the glass dish.",
    ],
)
def test_a_tool_name_opening_a_step_is_its_verb(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    env = "apricot jam, whipped butter, crackers, glass dish"
    assert [m for r, m in grounding(env, step) if r == "grounding" and "spoon" in m] == []


@pytest.mark.parametrize(
    "step",
    ["Stir the jam with a spoon and put it in the glass dish.", "Spoon and knife go beside the glass dish."],
)
def test_the_same_tool_used_or_listed_is_still_missing(grounding, step: str) -> None:  # type: ignore[no-untyped-def]
    env = "apricot jam, crackers, glass dish"
    assert any(r == "grounding" and "'spoon'" in m for r, m in grounding(env, step))


def test_the_bottle_of_a_listed_drink_is_a_suspicion(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("red wine, wine glasses, corkscrew", "Open the bottle with the corkscrew.", "Pour the red wine.")
    assert not [m for r, m in found if r == "grounding"], found
    assert any(r == "grounding_noun" and "bottle" in m for r, m in found), found


def test_the_board_said_as_a_particular_one_is_still_missing(grounding) -> None:  # type: ignore[no-untyped-def]
    found = grounding("red wine, wine glasses", "Slice the cheese on the cutting board.", "Serve the red wine.")
    assert any(r == "grounding" and "cutting board" in m for r, m in found), found


def test_a_food_kept_in_chunks_is_that_food(grounding) -> None:  # type: ignore[no-untyped-def]
    task, step = "Blend a peach smoothie.", "Add the peach and the yogurt to the blender."
    env = "frozen peach chunks, plain yogurt, blender"
    assert [m for r, m in grounding(env, step, task) if r == "grounding"] == []
    found = grounding("plain yogurt, blender", step, task)
    assert any(r == "grounding" and "'peach'" in m for r, m in found), found
