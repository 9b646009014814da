"""type: a preferences item asking "which X" in a kitchen with one X only has no choice to prefer."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


@pytest.fixture()
def item_type(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(env: str, shortlist: str = "") -> list[str]:
        row = {
            "id": "1",
            **environment(env),
            "unambiguous_direct": "Crack the eggs into the glass bowl.",
            "ambiguity_type": "preferences",
            "amb_shortlist": shortlist,
            "ambiguous_task": "Crack the eggs into a bowl.",
            "question": "Which bowl should I crack the eggs into?",
            "answer": "The glass bowl.",
            "plan_for_clear_task": "1. Take the glass bowl.\n2. Crack the eggs into it.",
            "plan_for_amb_task": "1. Take a bowl.\n2. Crack the eggs into it.",
            "end_of_ambiguity": "0",
            "user_intent": "glass bowl",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["type"])]

    return run


def test_a_kitchen_with_one_bowl_leaves_no_choice(item_type) -> None:  # type: ignore[no-untyped-def]
    flags = item_type("eggs, glass bowl, whisk, frying pan")
    assert len(flags) == 1 and "the kitchen has one bowl only (glass bowl)" in flags[0]


def test_a_kitchen_with_two_bowls_leaves_a_choice(item_type) -> None:  # type: ignore[no-untyped-def]
    assert item_type("eggs, glass bowl, metal bowl, whisk", "glass bowl, metal bowl") == []
    assert item_type("eggs, glass bowl, metal bowl, whisk") == []


@pytest.fixture()
def safety(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(shortlist: str) -> list[str]:
        row = {
            "id": "1",
            **environment("yogurt cup, paring knife, bread knife, butter knife"),
            "unambiguous_direct": "Cut the top off the yogurt cup with the paring knife.",
            "ambiguity_type": "safety",
            "amb_shortlist": shortlist,
            "ambiguous_task": "Cut the top off the yogurt cup with a knife.",
            "question": "Which knife should I use to cut the top off the yogurt cup?",
            "answer": "The paring knife.",
            "plan_for_clear_task": "1. Take the paring knife.\n2. Cut the top off the yogurt cup.",
            "plan_for_amb_task": "1. Take a knife.\n2. Cut the top off the yogurt cup.",
            "end_of_ambiguity": "0",
            "user_intent": "paring knife",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["type"])]

    return run


def test_a_safety_choice_among_things_alike_in_safety_is_no_safety_matter(safety) -> None:  # type: ignore[no-untyped-def]
    flags = safety("paring knife, bread knife")
    assert len(flags) == 1 and "alike in every safety respect" in flags[0]


def test_a_safety_choice_between_a_sharp_and_a_blunt_knife_is_kept(safety) -> None:  # type: ignore[no-untyped-def]
    assert safety("paring knife, butter knife") == []
