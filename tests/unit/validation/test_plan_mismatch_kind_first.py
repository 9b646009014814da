"""plan_mismatch on copied clear plans that take the thing up by the kind the clear task replaced ("Take out
meat" where the clear task names the beef steak) before naming it: the choice is left open where it is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "beef steak, chicken breasts, basmati rice, oven mitts, plate"
CLEAR = "Take the beef steak from the fridge and cook it in the oven."
AMB = "Take the meat from the fridge and cook it in the oven."


def _row(plan: list[str]) -> dict[str, str]:
    return {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": CLEAR,
        "ambiguity_type": "preferences",
        "amb_shortlist": "beef steak, chicken breasts",
        "ambiguous_task": AMB,
        "question": "Which meat should I take?",
        "answer": "The beef steak.",
        "plan_for_clear_task": "\n".join(plan),
        "plan_for_amb_task": "\n".join(plan),  # copied: the two plans are the same
        "end_of_ambiguity": "1",
        "user_intent": "beef|steak",
        "variants": "",
    }


@pytest.fixture()
def mismatch(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(plan: list[str]) -> list[str]:
        return [f.message for f in failures_of_row(_row(plan), tmp_path, catalog, ["plan_mismatch"])]

    return run


def test_the_kind_taken_up_before_the_thing_leaves_the_choice_open(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Go to the fridge", "Take out meat", "Preheat the oven", "Cook the steak in the oven until done"]
    found = mismatch(plan)
    assert len(found) == 1
    assert found[0].startswith("plan_for_clear_task[1]: takes up the 'meat' the clear task replaced by 'beef'")


def test_the_kind_after_the_thing_is_the_thing_again(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Go to the fridge", "Take out the beef steak", "Preheat the oven", "Cook the meat in the oven until done"]
    assert mismatch(plan) == []
