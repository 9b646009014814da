"""qa_fit reads the kind of answer a question asks for: a place for "where", an amount for "how many / how
much", a yes, a no or a statement about what is asked for a yes/no question."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "eggs, apples, bowl, fridge, oven, sugar, paring knife, cutting board"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Put the eggs in the fridge.",
        "ambiguous_task": "Put the eggs away.",
        "plan_for_clear_task": "Take the eggs.\nPut the eggs in the fridge.",
        "plan_for_amb_task": "Take the eggs.\nPut the eggs away.",
        "end_of_ambiguity": "1",
        "amb_shortlist": "",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["qa_fit"])]

    return run


def test_a_where_question_answered_with_the_thing_to_place_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Where should I put the eggs?", answer="The brown eggs.", user_intent="fridge")
    assert len(found) == 1 and "asks where, and the answer names only food" in found[0]
    found = flags(question="Where should I put the eggs?", answer="The apples.", user_intent="fridge")
    assert len(found) == 1 and "asks where, and the answer names only food" in found[0]
    found = flags(question="Where should I put the eggs?", answer="Yes, wash them first.", user_intent="fridge")
    assert len(found) == 1 and "a yes or no with no place" in found[0]


def test_a_where_question_putting_a_food_into_another_may_be_answered_by_the_dish(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Where should I add the eggs?", answer="The apples.", user_intent="fridge")
    assert not [f for f in found if "asks where" in f]


def test_a_where_question_answered_with_an_amount_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Where should I put the eggs?", answer="Two dozen.", user_intent="fridge")
    assert len(found) == 1 and "gives an amount, no place" in found[0]


@pytest.mark.parametrize("answer", ["In the fridge.", "The fridge.", "Use the bowl.", "Fridge"])
def test_a_where_question_answered_with_a_place_or_holder_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="Where should I put the eggs?", answer=answer, user_intent="fridge|bowl") == []


def test_a_how_many_question_answered_with_no_amount_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="How many eggs should I put away?", answer="Put them in the fridge.", user_intent="fridge")
    assert len(found) == 1 and "gives no amount" in found[0]


@pytest.mark.parametrize(
    "answer", ["Six.", "A dozen.", "Half of them.", "Add a teaspoon.", "Equal parts.", "Fill the bowl."]
)
def test_a_how_many_question_answered_with_an_amount_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="How many eggs should I put away?", answer=answer, user_intent="fridge") == []


def test_a_yes_no_question_answered_with_something_else_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Should I wash the eggs first?", answer="The red bowl.", user_intent="fridge")
    assert len(found) == 1 and "asks a yes or no" in found[0]


@pytest.mark.parametrize(
    "answer",
    [
        "Yes, wash them.",
        "Do not wash the eggs.",
        "Wash them under cold water.",
        "Never, eggs stay dry.",
        "Apples need a rinse.",
    ],
)
def test_a_yes_no_question_answered_by_a_side_or_its_own_words_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="Should I wash the eggs first?", answer=answer, user_intent="wash|rinse") == []


KNIFE = dict(
    unambiguous_direct="Cut the apples with the paring knife.",
    ambiguous_task="Cut the apples with a knife.",
    plan_for_clear_task="Take the paring knife.\nCut the apples.",
    plan_for_amb_task="Take a knife.\nCut the apples.",
    end_of_ambiguity="0",
    question="Which knife should I use to cut the apples?",
)


def test_a_which_tool_question_answered_with_another_kind_of_tool_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(**KNIFE, answer="The cutting board.", user_intent="paring knife")
    assert len(found) == 1 and "asks which knife, and the answer names no knife" in found[0]


@pytest.mark.parametrize("answer", ["The paring knife.", "Use the knife on the cutting board.", "The sharp one."])
def test_a_which_tool_question_answered_with_that_tool_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(**KNIFE, answer=answer, user_intent="paring knife") == []


def test_a_cutting_board_shortlisted_as_an_option_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        **KNIFE,
        answer="The cutting board.",
        user_intent="cutting board",
        amb_shortlist="paring knife, cutting board",
    )
    assert not [f for f in found if "asks which knife" in f]


def test_an_intent_none_of_the_offered_things_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        question="Should I put the eggs in the bowl or in the oven?",
        answer="Put them in the pantry.",
        user_intent="pantry",
    )
    assert len(found) == 1 and "'pantry' is none of the things the question offers" in found[0]


@pytest.mark.parametrize(
    "question",
    ["Should I put the eggs in the fridge or in the bowl?", "Should I put the eggs in the bowl or somewhere else?"],
)
def test_an_intent_among_the_offered_things_or_an_open_list_is_not_flagged(flags, question: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(question=question, answer="In the fridge.", user_intent="fridge") == []


MUG = dict(
    environment_short="glass mug, ceramic mug, tea bags, kettle",
    environment_full="a glass mug, a ceramic mug, tea bags, a kettle",
    unambiguous_direct="Make tea in the ceramic mug.",
    ambiguous_task="Make tea in a mug.",
    plan_for_clear_task="Take the ceramic mug.\nMake tea in it.",
    plan_for_amb_task="Take a mug.\nMake tea in it.",
    end_of_ambiguity="0",
    question="Which mug should I use?",
    user_intent="ceramic mug",
)


def test_an_answer_naming_another_thing_of_the_intended_kind_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(**MUG, answer="The glass mug.")
    assert len(found) == 1 and "picks 'glass mug', another of the kind the intent names ('ceramic mug')" in found[0]


@pytest.mark.parametrize("answer", ["The ceramic mug.", "Use the ceramic one, not the glass mug."])
def test_an_answer_naming_the_intended_thing_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags(**MUG, answer=answer) == []


COFFEE = dict(
    environment_short="coffee pods, coffee machine, almond milk, oat milk, ceramic mug, sugar",
    environment_full="coffee pods, a coffee machine, almond milk, oat milk, a ceramic mug, sugar",
    unambiguous_direct="Make a coffee in the ceramic mug with two spoons of sugar.",
    ambiguous_task="Make a coffee in the ceramic mug with some sugar.",
    plan_for_clear_task="Make a coffee with the coffee machine.\nAdd two spoons of sugar.",
    plan_for_amb_task="Make a coffee with the coffee machine.\nAdd sugar.",
    end_of_ambiguity="1",
    question="Should I add almond milk or oat milk?",
    answer="Oat milk, please.",
    user_intent="oat milk",
)


def test_a_question_about_things_the_pair_never_mentions_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(**COFFEE)
    assert len(found) == 1 and "asks about 'almond milk', 'oat milk', which neither task nor plan" in found[0]


def test_a_question_about_a_thing_the_pair_uses_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**COFFEE, "unambiguous_direct": "Make a coffee in the ceramic mug with oat milk."}
    row["ambiguous_task"] = "Make a coffee in the ceramic mug with milk."
    row["plan_for_clear_task"] = "Make a coffee with the coffee machine.\nAdd the oat milk."
    row["plan_for_amb_task"] = "Make a coffee with the coffee machine.\nAdd milk."
    assert flags(**row) == []


@pytest.mark.parametrize("answer", ["Eggs keep in about three weeks.", "Eggs come out in one piece."])
def test_a_where_answer_whose_preposition_takes_a_time_or_a_count_gives_no_place(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Where should I put the eggs?", answer=answer, user_intent="fridge")
    assert len(found) == 1 and "names only food" in found[0]


@pytest.mark.parametrize("answer", ["Take the eggs out of the box.", "Keep the eggs in the fridge for three weeks."])
def test_a_where_answer_with_a_preposition_taking_a_thing_gives_a_place(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert not [
        f
        for f in flags(question="Where should I put the eggs?", answer=answer, user_intent="fridge")
        if "asks where" in f
    ]


def test_a_where_answer_naming_no_place_and_no_thing_says_how_not_where(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Where should I put the eggs?", answer="Handle them gently so they do not crack.")
    assert len(found) == 1 and "names no place and no thing" in found[0]


@pytest.mark.parametrize("answer", ["Somewhere cool.", "Use the bowl.", "Beside the board.", "Cutting board, please."])
def test_a_where_answer_saying_a_vague_place_or_naming_a_holder_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Where should I put the eggs?", answer=answer, user_intent="fridge")
    assert not [f for f in found if "asks where" in f]
