"""shortlist on a preferences item that lists nothing: an error when it asks which thing (nothing lists the
options), none when it asks an amount, a place or a way of doing, whatever its intent names (no things to
list; a wrong type is the type rule's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "frying pan, spatula, eggs, butter, white bread, sourdough bread"


@pytest.fixture()
def shortlist(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(question: str, answer: str, intent: str) -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "unambiguous_direct": "Fry three eggs in the frying pan with butter.",
            "ambiguity_type": "preferences",
            "ambiguous_task": "Fry eggs in the frying pan with butter.",
            "question": question,
            "answer": answer,
            "plan_for_clear_task": "1. Crack three eggs into the frying pan.\n2. Fry them with butter.",
            "plan_for_amb_task": "1. Crack eggs into the frying pan.\n2. Fry them with butter.",
            "end_of_ambiguity": "0",
            "user_intent": intent,
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["shortlist"])]

    return run


@pytest.mark.parametrize(
    ("question", "answer", "intent"),
    [
        ("How many eggs should I fry?", "Three, with the butter.", "3|three, butter"),
        ("Where should I put the eggs when they are done?", "On the sourdough bread.", "sourdough bread"),
    ],
)
def test_an_amount_or_a_place_asked_lists_no_things(shortlist, question: str, answer: str, intent: str) -> None:  # type: ignore[no-untyped-def]
    assert shortlist(question, answer, intent) == []


def test_which_thing_asked_with_nothing_listed_is_an_error(shortlist) -> None:  # type: ignore[no-untyped-def]
    flags = shortlist("Which bread should I serve the eggs on?", "The sourdough bread.", "sourdough bread")
    assert len(flags) == 1 and "nothing lists the options" in flags[0]
