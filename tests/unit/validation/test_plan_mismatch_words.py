"""plan_mismatch on copied clear plans: what the clear task adds must be in the plan as itself, not as the use
of a tool ("oven mitts" names no oven), and an intended action the clear task adds must be done."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "apples, pears, knife, cutting board, oven mitts, garlic bread, canned beans, bowl"


def _row(clear: str, amb: str, intent: str, plan: list[str]) -> dict[str, str]:
    return {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": clear,
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "ambiguous_task": amb,
        "question": "What should I do?",
        "answer": "As the clear task says.",
        "plan_for_clear_task": "\n".join(plan),
        "plan_for_amb_task": "\n".join(plan),  # copied: the two plans are the same
        "end_of_ambiguity": "0",
        "user_intent": intent,
        "variants": "",
    }


@pytest.fixture()
def mismatch(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(clear: str, amb: str, intent: str, plan: list[str]) -> list[str]:
        return [
            f.message for f in failures_of_row(_row(clear, amb, intent, plan), tmp_path, catalog, ["plan_mismatch"])
        ]

    return run


OVEN = (
    "Preheat the oven to 180 degrees and heat the garlic bread in it.",
    "Preheat an appliance to 180 degrees and heat the garlic bread in it.",
    "oven",
)


def test_a_tool_named_for_the_oven_is_not_the_oven(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Preheat the appliance to 180 degrees", "Put the garlic bread in using oven mitts"]
    assert mismatch(*OVEN, plan) == [
        "plan_for_clear_task: never names what the clear task adds to the ambiguous one ('oven')"
    ]


def test_a_plan_that_names_the_oven_too_does_the_task(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Preheat the oven to 180 degrees", "Put the garlic bread in the oven using oven mitts"]
    assert mismatch(*OVEN, plan) == []


PEEL = ("Peel an apple and a pear, then slice them.", "Cut an apple and a pear, then slice them.", "peel")


def test_an_intended_action_the_plan_never_does(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Take an apple and a pear", "Prepare them with the knife", "Slice them on the cutting board"]
    assert mismatch(*PEEL, plan) == [
        "plan_for_clear_task: never does or says the intended 'peel', which the clear task adds"
    ]


def test_an_intended_action_the_plan_does_in_another_form(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Take an apple and a pear", "Peeling them with the knife", "Slice them on the cutting board"]
    assert mismatch(*PEEL, plan) == []


def test_an_action_the_intent_does_not_ask_is_not_judged(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Take an apple and a pear", "Prepare them with the knife", "Slice them on the cutting board"]
    assert mismatch(PEEL[0], PEEL[1], "apple", plan) == []


BAKE = (
    "Bake the apples in the oven at 350 degrees for 25 minutes.",
    "Bake the apples in the oven until soft.",
    "minutes, degrees",
)


def test_each_amount_the_clear_task_adds_is_said(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Preheat the oven to 350 degrees", "Put the apples in the oven", "Bake until soft"]
    assert mismatch(*BAKE, plan) == [
        "plan_for_clear_task: never says the amount the clear task adds to the ambiguous one ('25')"
    ]


def test_a_plan_saying_every_amount(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Preheat the oven to 350 degrees", "Put the apples in the oven", "Bake for 25 minutes"]
    assert mismatch(*BAKE, plan) == []


def test_a_tool_the_task_names_too_says_its_modifier(mismatch) -> None:  # type: ignore[no-untyped-def]
    plan = ["Take the oven mitts", "Put the garlic bread on the tray"]
    clear, amb = "Take the oven mitts and warm the garlic bread.", "Take something and warm the garlic bread."
    assert mismatch(clear, amb, "oven mitts", plan) == []
