"""variants when the intent wants several things together and the variants offer them one by one and nothing
else: they offer no choice, a warning (the held-back reader did not confirm it as an error). With other things
beside, the list is AmbiK's multi-choice form and is not flagged. With rows it must flag and near rows it must
not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "strawberries, raspberries, cherries, blueberries, sink, paper towels, ceramic bowl"


def _row(**cells: str) -> dict[str, str]:
    plan = "Take the berries from the fridge\nWash the berries in the sink\nDry them with paper towels"
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Wash and dry the strawberries, raspberries and cherries.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "strawberries, raspberries, cherries, blueberries",
        "ambiguous_task": "Wash and dry the berries.",
        "question": "Which specific berries should be washed and dried?",
        "answer": "Strawberries, raspberries, and cherries.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,
        "end_of_ambiguity": "0",
        "user_intent": "strawberries, raspberries, cherries",
        "variants": "Strawberries\nRaspberries\nCherries",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        failures = failures_of_row(_row(**cells), tmp_path, catalog, ["variants", "variants_suspect"])
        assert all(f.severity == "warning" for f in failures if "intended set" in f.message)
        return [f"{f.rule}/{f.severity}: {f.message}" for f in failures]

    return run


def test_variants_that_are_each_one_intended_thing_offer_no_choice(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags()
    assert len(found) == 1 and found[0].startswith("variants_suspect/warning: ")
    assert "every one is a single intended thing (strawberries, raspberries, cherries)" in found[0]


def test_single_variants_with_another_thing_beside_are_a_multi_choice_list(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(variants="Strawberries\nRaspberries\nCherries\nBlueberries") == []


@pytest.mark.parametrize(
    "cells",
    [
        # one intended thing: a single-thing variant is the option
        {"user_intent": "raspberries", "answer": "Raspberries.", "variants": "Strawberries\nRaspberries"},
        # a variant holds the whole set
        {"variants": "Strawberries, raspberries and cherries\nBlueberries"},
        # yes or no variants answer another question
        {"variants": "Yes, wash them\nNo, do not wash them"},
    ],
)
def test_variants_that_hold_the_intended_option_are_left_alone(flags, cells: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    assert not [m for m in flags(**cells) if "intended set" in m or "single intended thing" in m]
