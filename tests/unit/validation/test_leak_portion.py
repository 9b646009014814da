"""answer_leak: a step that says the intended word only as a portion of something else ("two slices of bread")
makes no choice the question offers, so outside a shortlist it is no certain leak."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "rye bread, cucumber, cream cheese, ham slices, butter knife, chef's knife, cutting board, plate"


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(first_step: str) -> list[tuple[str, str]]:
        row = {
            "id": "1",
            **environment(ENV),
            "ambiguity_type": "common_sense_knowledge",
            "amb_shortlist": "",
            "unambiguous_direct": "Make a rye bread sandwich with cream cheese and cucumber slices.",
            "ambiguous_task": "Make a rye bread sandwich with cream cheese and cucumber.",
            "question": "Should I add the cucumber whole or slice it first?",
            "answer": "Slice it thinly.",
            "plan_for_clear_task": f"1. {first_step}\n2. Spread the cheese.\n3. Slice the cucumber.\n4. Close it.",
            "plan_for_amb_task": f"1. {first_step}\n2. Spread the cheese.\n3. Prepare the cucumber.\n4. Close it.",
            "end_of_ambiguity": "2",
            "user_intent": "slice|slices",
            "variants": "",
        }
        found = failures_of_row(row, tmp_path, catalog, ["answer_leak", "answer_leak_suspect"])
        return [(f.rule, f.message) for f in found]

    return run


def test_a_portion_of_another_thing_is_only_a_suspicion(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak("Lay two slices of rye bread on the cutting board.")
    assert [rule for rule, _ in found] == ["answer_leak_suspect"]


def test_the_intended_word_said_of_the_asked_thing_is_a_leak(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak("Lay two slices of cucumber on the cutting board.")
    assert [rule for rule, _ in found] == ["answer_leak"]
