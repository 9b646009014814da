"""qa_fit: an answer that takes up nothing the row is about, an intent outside the kinds a question offers when
the offered things share their head word, and an intent that is the quality a how-question grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "frozen waffles, toaster, oven, honey, jam, beef curry, chicken curry, lentil curry, pot, bowl, spoon, plate"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "plan_for_clear_task": "Take out the things.\nDo the task.",
        "plan_for_amb_task": "Take out the things.\nDo the task.",
        "end_of_ambiguity": "0",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["qa_fit"])]

    return run


WAFFLES = dict(
    unambiguous_direct="Warm two frozen waffles in the toaster until crisp and put them on the plate with honey.",
    ambiguous_task="Warm two frozen waffles and put them on the plate with honey.",
    question="How should I warm the waffles?",
    user_intent="toaster, crisp",
)


def test_an_answer_about_something_else_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer="Add a generous spoon of jam on top.", **WAFFLES)
    assert len(found) == 1 and found[0].startswith("answer: takes up nothing the row is about")


def test_an_answer_in_the_clear_tasks_words_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(answer="Pop them in until they are crisp.", **WAFFLES) == []


def test_an_answer_only_restating_the_task_adds_nothing_else(flags) -> None:  # type: ignore[no-untyped-def]
    """It takes up nothing new, so it is not this check's; that it says no word of the intent is."""
    found = flags(answer="Warm the waffles, please.", **WAFFLES)
    assert len(found) == 1 and found[0].startswith("answer: says no word of the intent")


def test_a_yes_no_question_is_left_to_the_other_checks(flags) -> None:  # type: ignore[no-untyped-def]
    """Not this check's; the answer says no word of the intent, which the intent reading flags."""
    cells = {**WAFFLES, "question": "Should I use the oven for the waffles?"}
    found = flags(answer="Add a generous spoon of jam on top.", **cells)
    assert len(found) == 1 and found[0].startswith("answer: says no word of the intent")


CURRY = dict(
    ambiguity_type="preferences",
    amb_shortlist="beef curry, lentil curry",
    unambiguous_direct="Heat the lentil curry in the pot and serve it in the bowl.",
    ambiguous_task="Heat the curry in the pot and serve it in the bowl.",
    answer="The lentil curry.",
    user_intent="lentil curry",
)


def test_an_intent_outside_the_offered_things_of_one_kind_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Which curry should I heat, the beef curry or the chicken curry?", **CURRY)
    assert len(found) == 1 and found[0].startswith("user_intent: 'lentil curry' is none of the things the question")


def test_an_intent_among_the_offered_things_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="Which curry should I heat, the beef curry or the lentil curry?", **CURRY) == []


TOAST = dict(
    unambiguous_direct="Toast the waffles until very brown.",
    ambiguous_task="Toast the waffles.",
    answer="Very brown, almost burnt.",
    user_intent="brown",
)


def test_the_graded_quality_as_intent_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="How brown should the waffles be?", **TOAST) == []


def test_the_asked_thing_as_intent_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {**TOAST, "user_intent": "waffles"}
    found = flags(question="How brown should the waffles be?", **cells)
    assert len(found) == 1 and "is what the question already says" in found[0]


@pytest.fixture()
def answer_warnings(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["answer"])]

    return run


def test_a_side_taken_on_a_yes_no_question_is_no_answer_warning(answer_warnings) -> None:  # type: ignore[no-untyped-def]
    cells = {**WAFFLES, "question": "Should I use the oven for the waffles?", "user_intent": "toaster"}
    assert answer_warnings(answer="No, not for frozen ones.", **cells) == []


def test_a_yes_to_a_question_offering_two_things_keeps_the_warning(answer_warnings) -> None:  # type: ignore[no-untyped-def]
    cells = {**WAFFLES, "question": "Should I use the oven or the toaster?", "user_intent": "toaster"}
    found = answer_warnings(answer="Yes, please.", **cells)
    assert len(found) == 1 and found[0].startswith("answer: mentions no intent concept")
