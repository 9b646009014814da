"""type read on what the options and the answer are: a preferences item whose one listed option is the
intended thing, with nothing else of its kind in the kitchen, and a common-sense or safety item whose answer's
reason is the user's own liking."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


def _row(env: str, **cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(env),
        "unambiguous_direct": "Wash the teapot and put it on the shelf.",
        "ambiguous_task": "Wash the teapot and put it away.",
        "plan_for_clear_task": "1. Wash the teapot in the sink.\n2. Put it on the shelf.",
        "plan_for_amb_task": "1. Wash the teapot in the sink.\n2. Put it away.",
        "end_of_ambiguity": "1",
        "question": "Where should I put the teapot?",
        "answer": "On the shelf.",
        "user_intent": "shelf",
    }
    row.update(cells)
    return row


@pytest.fixture()
def item_type(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(env: str, **cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(env, **cells), tmp_path, catalog, ["type"])]

    return run


KITCHEN = "teapot, sink, shelf, sponge, kettle"


def test_a_preferences_item_with_one_option_and_nothing_else_of_its_kind(item_type) -> None:  # type: ignore[no-untyped-def]
    found = item_type(KITCHEN, ambiguity_type="preferences", amb_shortlist="shelf", variants="shelf")
    assert found == [
        "ambiguity_type: 'preferences', but the only option listed is the intended 'shelf' and the kitchen has no "
        "other: there is no choice to prefer: 'Where should I put the teapot?'"
    ]


def test_two_options_or_another_of_its_kind_leave_a_choice(item_type) -> None:  # type: ignore[no-untyped-def]
    assert item_type(KITCHEN, ambiguity_type="preferences", amb_shortlist="shelf, sink", variants="shelf") == []
    shelves = "teapot, sink, shelf, top shelf, sponge, kettle"
    assert item_type(shelves, ambiguity_type="preferences", amb_shortlist="shelf", variants="shelf") == []


@pytest.mark.parametrize(
    "answer",
    [
        "On the shelf, I just like it there.",
        "The shelf, we love how it looks.",
        "Wherever; whatever looks nice to you.",
    ],
)
def test_a_common_sense_answer_whose_reason_is_liking(item_type, answer: str) -> None:  # type: ignore[no-untyped-def]
    found = item_type(KITCHEN, ambiguity_type="common_sense_knowledge", answer=answer)
    assert len(found) == 1 and "the answer's reason is the user's taste" in found[0]


def test_a_common_sense_answer_with_a_kitchen_reason_is_kept(item_type) -> None:  # type: ignore[no-untyped-def]
    answer = "On the shelf, so it dries and stays out of the way."
    assert item_type(KITCHEN, ambiguity_type="common_sense_knowledge", answer=answer) == []
    assert (
        item_type(KITCHEN, ambiguity_type="common_sense_knowledge", answer="Whatever you do, let it dry first.") == []
    )


def test_a_preferences_answer_whose_reason_is_harm(item_type) -> None:  # type: ignore[no-untyped-def]
    answer = "The glass jar, because the plastic tub is not safe for hot tea."
    found = item_type(KITCHEN, ambiguity_type="preferences", amb_shortlist="shelf, sink", answer=answer)
    assert found == [
        f"ambiguity_type: 'preferences', but the answer's reason is harm or damage, which no taste decides: {answer!r}"
    ]


def test_a_preferences_answer_whose_reason_is_taste_is_kept(item_type) -> None:  # type: ignore[no-untyped-def]
    answer = "On the shelf, because it looks nice there."
    assert item_type(KITCHEN, ambiguity_type="preferences", amb_shortlist="shelf, sink", answer=answer) == []


def test_liking_beside_a_reason_of_harm_is_no_taste_answer(item_type) -> None:  # type: ignore[no-untyped-def]
    answer = "On the shelf; I like it there because the sink is not safe for the teapot."
    assert item_type(KITCHEN, ambiguity_type="common_sense_knowledge", answer=answer) == []
    assert item_type(KITCHEN, ambiguity_type="preferences", amb_shortlist="shelf, sink", answer=answer) == []
