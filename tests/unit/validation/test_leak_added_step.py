"""answer_leak: a step before end_of_ambiguity where the ambiguous plan says an intended concept that the clear
plan's same step does not: the plan adds the answer before the question."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "pork chops, fridge, freezer, cutting board, chef's knife, plate, grocery bags"


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(amb_step: str) -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "ambiguity_type": "common_sense_knowledge",
            "amb_shortlist": "",
            "unambiguous_direct": "Put the raw pork chops on the lowest rack of the fridge.",
            "ambiguous_task": "Put the raw pork chops in the fridge.",
            "question": "Which rack of the fridge should the pork chops go on?",
            "answer": "The lowest rack, so nothing drips on the rest.",
            "plan_for_clear_task": "1. Take the pork chops out of the grocery bags.\n2. Open the fridge.\n"
            "3. Put the pork chops on the lowest rack.\n4. Close the fridge.",
            "plan_for_amb_task": f"1. Take the pork chops out of the grocery bags.\n2. {amb_step}\n"
            "3. Put the pork chops on a rack.\n4. Close the fridge.",
            "end_of_ambiguity": "2",
            "user_intent": "lowest rack|bottom rack",
            "variants": "",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["answer_leak"])]

    return run


def test_a_step_adding_the_intended_concept_is_a_leak(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak("Open the fridge and make room on the lowest rack.")
    assert len(found) == 1 and "says the intended 'lowest rack', which the clear plan's step 1 does not" in found[0]


def test_a_step_doing_what_the_clear_step_does_is_not_a_leak(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak("Open the fridge and make some room.") == []
