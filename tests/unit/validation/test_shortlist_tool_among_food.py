"""shortlist reads a dish or tool listed among the foods a question asks to choose from ("Which bread ...?"
with the soup bowls among its options): no food at all answers a question about one. A package that holds the
food ("a pudding cup", "tea bags") may be the food itself and is left alone."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "potato chips, pretzels, pudding cup, lunch box, dessert plate, apple"


def _flags(tmp_path: Path, catalog, shortlist: str) -> list[str]:  # type: ignore[no-untyped-def]
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Pack the pretzels and an apple in the lunch box.",
        "ambiguity_type": "preferences",
        "amb_shortlist": shortlist,
        "ambiguous_task": "Pack a snack and an apple in the lunch box.",
        "question": "Which snack should I pack?",
        "answer": "The pretzels.",
        "plan_for_clear_task": "1. Put the pretzels in the lunch box.\n2. Add the apple.",
        "plan_for_amb_task": "1. Put the snack in the lunch box.\n2. Add the apple.",
        "end_of_ambiguity": "0",
        "user_intent": "pretzels",
        "variants": "",
    }
    return [f.message for f in failures_of_row(row, tmp_path, catalog, ["shortlist"])]


def test_a_plate_among_the_snacks_is_no_snack(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog, "potato chips, pretzels, dessert plate") == [
        "amb_shortlist: 'dessert plate' is no snack, which the question asks for"
    ]


def test_a_snack_sold_in_a_cup_is_a_snack(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog, "potato chips, pretzels, pudding cup") == []
