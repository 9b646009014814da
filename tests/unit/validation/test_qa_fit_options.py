"""qa_fit reads whether the answer takes up the choice the row offers: one of its options or the intent, the
amount a measure question asks for, and an intent among the options the question itself offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "apple juice, orange juice, grape juice, glass, fridge, pantry shelf, apples, oven, baking tray, stove"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "preferences",
        "unambiguous_direct": "Pour a glass of orange juice.",
        "ambiguous_task": "Pour a glass of juice.",
        "question": "Which juice would you like?",
        "answer": "Orange juice, please.",
        "plan_for_clear_task": "1. Take the orange juice from the fridge.\n2. Pour it into the glass.",
        "plan_for_amb_task": "1. Take the juice from the fridge.\n2. Pour it into the glass.",
        "end_of_ambiguity": "0",
        "user_intent": "orange juice",
        "amb_shortlist": "apple juice, orange juice, grape juice",
        "variants": "apple juice\norange juice\ngrape juice",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["qa_fit"])]

    return run


@pytest.mark.parametrize("answer", ["Only half full, thanks.", "Make it cold, please."])
def test_an_answer_taking_up_none_of_the_options_is_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer=answer)
    assert len(found) == 1 and "takes up none of the options" in found[0]


@pytest.mark.parametrize(
    "answer", ["Orange juice, please.", "The orange one.", "Orange.", "Either is fine.", "The juice.", "Oragne juice."]
)
def test_an_answer_naming_an_option_its_mark_or_only_the_question_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(answer=answer) == []


def test_a_yes_no_question_offering_no_options_is_left_alone(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="Should I chill the juice first?", answer="Only half full, thanks.") == []


_BAKE = {
    "ambiguity_type": "common_sense_knowledge",
    "unambiguous_direct": "Bake the apples on the baking tray in the oven for 25 minutes.",
    "ambiguous_task": "Bake the apples on the baking tray in the oven.",
    "question": "How long should I bake the apples?",
    "plan_for_clear_task": "1. Put the apples on the baking tray.\n2. Bake them in the oven for 25 minutes.",
    "plan_for_amb_task": "1. Put the apples on the baking tray.\n2. Bake them in the oven.",
    "end_of_ambiguity": "1",
    "user_intent": "25 minutes",
    "amb_shortlist": "",
    "variants": "",
}


def test_a_measure_question_answered_with_no_amount_against_a_measured_intent_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(**_BAKE, answer="Until they look soft.")
    assert len(found) == 1 and "gives no amount" in found[0] and "'25 minutes'" in found[0]


@pytest.mark.parametrize("answer", ["About twenty-five minutes.", "25 minutes.", "A few minutes longer than pears."])
def test_a_measure_question_answered_with_an_amount_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(**_BAKE, answer=answer) == []


def test_an_intent_the_question_does_not_offer_among_the_listed_options_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {"question": "Should I pour the apple juice or the grape juice?", "answer": "Orange."}
    found = flags(**cells)
    assert len(found) == 1 and "while the intent is another option of the list ('orange juice')" in found[0]
    offered = {"question": "Should I pour the apple juice or the orange juice?", "answer": "Orange."}
    assert flags(**offered) == []
    assert flags(question=cells["question"], user_intent="grape juice", answer="Grape.") == []


def test_an_intent_outside_a_shortlist_that_answers_another_question_is_the_shortlists_defect(flags) -> None:  # type: ignore[no-untyped-def]
    shortlist = "glass, fridge, pantry shelf"
    assert flags(amb_shortlist=shortlist, variants="apple juice\norange juice\ngrape juice") == []
    found = flags(amb_shortlist="apple juice, grape juice", variants="", answer="Orange juice.")
    assert len(found) == 1 and "'orange juice' is none of the options" in found[0]


def test_an_answer_picking_another_option_by_its_mark_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer="Grape, please.")
    assert len(found) == 1 and "picks the option 'grape juice' by its mark" in found[0]
    assert flags(answer="Not grape; orange, please.") == []
    assert flags(answer="No grape, please.") == []


def test_a_description_that_may_be_an_option_in_other_words_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(answer="The sweetest one.") == []


@pytest.mark.parametrize("answer", ["The orange juice, please.", "Juice of oranges.", "Oragne juice, please."])
def test_the_answer_warning_reads_the_intent_in_other_order_inflection_or_spelling(
    tmp_path: Path,
    catalog,  # type: ignore[no-untyped-def]
    answer: str,
) -> None:
    assert failures_of_row(_row(answer=answer), tmp_path, catalog, ["answer"]) == []
    found = failures_of_row(_row(answer="Apple juice."), tmp_path, catalog, ["answer"])
    assert len(found) == 1 and "mentions no intent concept" in found[0].message


def test_an_option_the_answer_rules_out_is_not_the_one_it_picks(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer="The apple juice.")
    assert len(found) == 1 and "picks the option 'apple juice'" in found[0]
    assert flags(answer="Not the apple juice.") == []


def test_options_that_answer_another_question_leave_the_answer_alone(flags) -> None:  # type: ignore[no-untyped-def]
    places = {"amb_shortlist": "", "variants": "fridge\npantry shelf"}
    assert flags(**places, answer="A glass of juice, cold.") == []  # the variants miss the question, not the answer
    found = flags(answer="A glass of juice, cold.")
    assert len(found) == 1 and "takes up none of the options" in found[0]


def test_all_of_something_else_takes_up_no_option(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer="Scrape out all the pulp with a spoon.")
    assert len(found) == 1 and "takes up none of the options" in found[0]


@pytest.mark.parametrize("answer", ["All of them, please.", "Both the apple and the orange.", "Any kind is fine."])
def test_all_or_both_of_the_options_takes_them_together(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(answer=answer) == []


_MUGS = dict(
    **environment("ceramic mugs, dishwasher, upper cupboard, open shelf, dish rack, toaster"),
    unambiguous_direct="Put the ceramic mugs on the open shelf beside the toaster.",
    ambiguous_task="Put the ceramic mugs away.",
    question="Where should I put the ceramic mugs?",
    answer="On the open shelf beside the toaster.",
    plan_for_clear_task="1. Take the ceramic mugs.\n2. Put them on the open shelf beside the toaster.",
    plan_for_amb_task="1. Take the ceramic mugs.\n2. Put them away.",
    end_of_ambiguity="1",
    amb_shortlist="upper cupboard, open shelf, dish rack",
    variants="In the upper cupboard\nOn the open shelf\nOn the dish rack",
)


def test_an_intent_outside_the_options_is_flagged_unless_another_intended_thing_is_one(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(user_intent="toaster", **_MUGS)
    assert found == ["user_intent: 'toaster' is none of the options (upper cupboard, open shelf, dish rack)"]
    assert flags(user_intent="open shelf, toaster", **_MUGS) == []  # the shelf is chosen; the toaster says where
