"""shortlist: the options are two or more of the kitchen's things that answer the question. One option, an
amount ("three", "a teaspoon of oil"), a way of doing ("do not heat up") or a bare attribute ("spicy") is no
list of things to choose among, and a thing of another kind than the question asks for ("cutting board" for
"Which knife ...?") does not answer it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "bread knife, paring knife, butter knife, cutting board, tomato, white bread, olive oil"


@pytest.fixture()
def shortlist(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(options: str, question: str = "Which knife should I use to slice the bread?") -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "unambiguous_direct": "Slice the white bread with the bread knife on the cutting board.",
            "ambiguity_type": "preferences",
            "amb_shortlist": options,
            "ambiguous_task": "Slice the white bread with a knife on the cutting board.",
            "question": question,
            "answer": "The bread knife.",
            "plan_for_clear_task": "1. Take the bread knife.\n2. Slice the white bread on the cutting board.",
            "plan_for_amb_task": "1. Take a knife.\n2. Slice the white bread on the cutting board.",
            "end_of_ambiguity": "0",
            "user_intent": "bread knife",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["shortlist"])]

    return run


def test_kitchen_things_of_the_asked_kind_pass(shortlist) -> None:  # type: ignore[no-untyped-def]
    assert shortlist("bread knife, paring knife, butter knife") == []


def test_one_option_even_written_twice_is_no_choice(shortlist) -> None:  # type: ignore[no-untyped-def]
    flags = shortlist("bread knife, bread knife")
    assert len(flags) == 1 and "has one option" in flags[0]


@pytest.mark.parametrize(
    ("options", "what"),
    [
        ("one, two, three", "an amount"),
        ("teaspoon of oil, tablespoon of oil", "an amount"),
        ("heat up, do not heat up", "a way of doing"),
        ("spicy, mild", "an attribute"),
    ],
)
def test_amounts_ways_and_attributes_are_no_objects(shortlist, options: str, what: str) -> None:  # type: ignore[no-untyped-def]
    flags = shortlist(options, question="How should I prepare the bread?")
    assert flags and all(what in f for f in flags)


def test_a_container_of_a_food_is_an_object_not_an_amount(shortlist) -> None:  # type: ignore[no-untyped-def]
    assert not [
        f for f in shortlist("bottle of olive oil, white bread", question="What should I take?") if "amount" in f
    ]


def test_a_thing_of_another_kind_than_asked_does_not_answer(shortlist) -> None:  # type: ignore[no-untyped-def]
    flags = shortlist("bread knife, paring knife, cutting board")
    assert flags == ["amb_shortlist: 'cutting board' is no knife, which the question asks for"]
    assert shortlist("bread knife, paring knife, cutting board", question="What should I use to slice the bread?") == []


def test_a_thing_outside_the_asked_category_does_not_answer(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    def flags(options: str) -> list[str]:
        row = {
            "id": "1",
            **environment("honey, tomato, cucumber, carrot, knife"),
            "unambiguous_direct": "Make a salad of the tomato and the cucumber.",
            "ambiguity_type": "preferences",
            "amb_shortlist": options,
            "ambiguous_task": "Make a vegetable salad.",
            "question": "Which vegetables should I use for the salad?",
            "answer": "The tomato and the cucumber.",
            "plan_for_clear_task": "1. Chop the tomato and the cucumber.\n2. Mix them in a bowl.",
            "plan_for_amb_task": "1. Chop the vegetables.\n2. Mix them in a bowl.",
            "end_of_ambiguity": "0",
            "user_intent": "tomato, cucumber",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["shortlist"])]

    assert flags("tomato, cucumber, carrot, honey") == [
        "amb_shortlist: 'honey' is no vegetable, which the question asks for"
    ]
    assert flags("tomato, cucumber, carrot") == []
