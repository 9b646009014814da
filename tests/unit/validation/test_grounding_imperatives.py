"""grounding on a request whose first verb is also a kitchen noun ("juice the navel orange in the juicer"): the
verb is no missing object, whether a comma (gone from the words) or a sequence word comes before it; the same
word as a noun (a determiner or an amount before it) is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "juicer, navel orange, yellow carrot, red apple, glass, tablespoon, cutting board"
#: Nothing a juice could be made from, and no eggs.
PLAIN = "glass, tablespoon, cutting board, olive oil, frying pan"


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(task: str, env: str = ENV, word: str = "juice") -> list[str]:
        row = {
            "id": "1",
            **environment(env),
            "unambiguous_direct": task,
            "ambiguity_type": "preferences",
            "ambiguous_task": task.replace("navel orange", "orange"),
            "question": "Which orange?",
            "answer": "The navel orange.",
            "plan_for_clear_task": "1. Take the navel orange.\n2. Put it on the cutting board.",
            "plan_for_amb_task": "1. Take the navel orange.\n2. Put it on the cutting board.",
            "end_of_ambiguity": "0",
            "user_intent": "navel orange",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["grounding"]) if f"'{word}'" in f.message]

    return run


@pytest.mark.parametrize(
    "task",
    [
        "Robot, juice the navel orange in the juicer for me.",
        "Put the glass on the cutting board, and last juice this navel orange in the juicer.",
        "Hello robot, juice my red apple in the juicer.",
        "Excuse me, let's juice the yellow carrot in the juicer.",
    ],
)
def test_a_verb_that_is_also_a_kitchen_noun_is_no_missing_object(grounding, task: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(task) == []


@pytest.mark.parametrize(
    ("task", "word"),
    [
        ("Pour some juice into the glass.", "juice"),  # a determiner before it
        ("Fry two eggs, a tablespoon of olive oil and the frying pan.", "eggs"),  # an amount before it
    ],
)
def test_the_same_word_as_a_noun_is_still_missing(grounding, task: str, word: str) -> None:  # type: ignore[no-untyped-def]
    found = grounding(task, PLAIN, word)
    assert found and "not in the environment" in found[0]


# -- answer_leak: an intent word inside a fixture's name ----------------------------------------------------

TOWELS = "kitchen towel, dish towel, cucumber, chef's knife, cutting board"


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(step: str) -> list[str]:
        plan = "\n".join(["Take the cucumber.", step, "Slice the cucumber with the chef's knife.", "Take the towel."])
        row = {
            "id": "1",
            **environment(TOWELS),
            "unambiguous_direct": "Slice the cucumber and clean the table with the kitchen towel.",
            "ambiguity_type": "preferences",
            "amb_shortlist": "kitchen towel, dish towel",
            "ambiguous_task": "Slice the cucumber and clean the table with a towel.",
            "question": "Do you mean the kitchen towel or the dish towel?",
            "answer": "The kitchen towel.",
            "plan_for_clear_task": plan.replace("Take the towel.", "Take the kitchen towel."),
            "plan_for_amb_task": plan,
            "end_of_ambiguity": "3",
            "user_intent": "kitchen",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["answer_leak"])]

    return run


def test_the_intent_word_in_a_fixtures_name_does_not_give_the_answer_away(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak("Put the cucumber on the kitchen table.") == []


def test_the_intended_option_named_before_the_question_still_does(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak("Put the kitchen towel on the cutting board.")
    assert found and "already names the intended 'kitchen'" in found[0]
