"""type: a common-sense or safety item whose question asks the user's taste ("Which style would you prefer?")
is a preferences item, and a safety item whose question and answer name no hazard ("Should I peel and chop
the onion before blending it?") is another type."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "frying pan, spatula, eggs, butter, onion, blender, knife"


@pytest.fixture()
def item_type(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(kind: str, question: str, answer: str, intent: str) -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "unambiguous_direct": "Fry two eggs over easy in the frying pan with butter.",
            "ambiguity_type": kind,
            "ambiguous_task": "Fry two eggs in the frying pan with butter.",
            "question": question,
            "answer": answer,
            "plan_for_clear_task": "1. Melt butter in the frying pan.\n2. Fry two eggs over easy.",
            "plan_for_amb_task": "1. Melt butter in the frying pan.\n2. Fry two eggs.",
            "end_of_ambiguity": "1",
            "user_intent": intent,
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["type"])]

    return run


def test_a_common_sense_question_asking_the_users_taste_is_a_preference(item_type) -> None:  # type: ignore[no-untyped-def]
    flags = item_type("common_sense_knowledge", "Which style of eggs would you prefer?", "Over easy.", "over easy")
    assert len(flags) == 1 and "asks the user's taste" in flags[0]
    assert item_type("common_sense_knowledge", "How long should I fry the eggs?", "Three minutes.", "3|three") == []


def test_a_safety_item_naming_no_hazard_is_another_type(item_type) -> None:  # type: ignore[no-untyped-def]
    question = "Should I peel and chop the onion before blending it?"
    flags = item_type("safety", question, "Yes, peel and chop it first.", "peel, chop")
    assert len(flags) == 1 and "name no hazard" in flags[0]
    safe = "Should I let the frying pan cool before washing it?"
    assert item_type("safety", safe, "Yes, a hot pan can burn you.", "cool") == []


@pytest.mark.parametrize("answer", ["Personally, over easy.", "It doesn't matter, any of them is fine.", "Up to you."])
def test_a_common_sense_answer_that_says_taste_decides_is_a_preference(item_type, answer: str) -> None:  # type: ignore[no-untyped-def]
    flags = item_type("common_sense_knowledge", "How should I fry the eggs?", answer, "over easy")
    assert len(flags) == 1 and "asks the user's taste" in flags[0]


def test_a_common_sense_answer_giving_knowledge_is_kept(item_type) -> None:  # type: ignore[no-untyped-def]
    assert (
        item_type("common_sense_knowledge", "How should I fry the eggs?", "Over easy, in melted butter.", "over easy")
        == []
    )
