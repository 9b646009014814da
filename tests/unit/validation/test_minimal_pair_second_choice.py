"""minimal_pair on an ambiguous task that names by its head noun alone a thing the clear task names by its kind
("a ceramic bowl" -> "a bowl") while the kitchen has several of that head: a second choice left open beside
the one the question asks. With a row it must flag and near rows it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "pineapple, chef's knife, bread knife, paring knife, metal bowl, ceramic bowl, plastic bowl, cutting board"


def _row(**cells: str) -> dict[str, str]:
    plan = "Take the pineapple\nSlice the pineapple with the chef's knife\nPlace the pieces in the bowl"
    row = {
        "id": "1",
        **environment(cells.pop("env", ENV)),
        "unambiguous_direct": "Slice the pineapple using the chef's knife and place the pieces in a ceramic bowl.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "chef's knife, bread knife, paring knife",
        "ambiguous_task": "Slice the pineapple using a knife and place the pieces in a bowl.",
        "question": "Which type of knife should I use to slice the pineapple?",
        "answer": "The chef's knife.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan.replace("the chef's knife", "a knife"),
        "end_of_ambiguity": "1",
        "user_intent": "chef's knife",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["minimal_pair"])]

    return run


def test_a_kind_dropped_from_a_thing_the_kitchen_has_several_of_is_a_second_choice(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags()
    assert len(found) == 1
    assert "leaves a second choice open: 'ceramic bowl' of the clear task is only 'bowl'" in found[0]
    assert "ceramic bowl, metal bowl, plastic bowl" in found[0]


@pytest.mark.parametrize(
    "cells",
    [
        # the kitchen has one bowl: "a bowl" is that bowl
        {"env": "pineapple, chef's knife, bread knife, paring knife, ceramic bowl, cutting board"},
        # the ambiguous task keeps the bowl's kind
        {"ambiguous_task": "Slice the pineapple using a knife and place the pieces in a ceramic bowl."},
        # the bowl is what the question asks about
        {
            "amb_shortlist": "metal bowl, ceramic bowl, plastic bowl",
            "question": "Which bowl should I put the pieces in?",
            "answer": "The ceramic bowl.",
            "user_intent": "ceramic bowl",
            "unambiguous_direct": "Slice the pineapple using a knife and place the pieces in a ceramic bowl.",
        },
    ],
)
def test_one_choice_left_open_is_not_flagged(flags, cells: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    assert not [m for m in flags(**cells) if "second choice" in m]


def test_a_thing_named_by_its_modifier_alone_is_a_second_choice(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "env": "chicken wings, chicken thighs, chicken broth, jasmine rice, oven, kitchen table, plate",
        "unambiguous_direct": "Take the chicken wings from the fridge, cook them in the oven and serve them on the "
        "kitchen table.",
        "ambiguous_task": "Take the chicken from the fridge, cook it in the oven and serve it.",
        "amb_shortlist": "",
        "question": "Where should I serve the food?",
        "answer": "On the kitchen table.",
        "user_intent": "kitchen table",
    }
    found = flags(**cells)
    assert len(found) == 1
    assert "'chicken wings' of the clear task is only 'chicken'" in found[0]
    assert "chicken broth, chicken thighs, chicken wings" in found[0]
    # the ambiguous task keeps the kind: one choice left open
    kept = flags(**{**cells, "ambiguous_task": "Take the chicken wings from the fridge, cook them and serve them."})
    assert not [m for m in kept if "second choice" in m]
