"""minimal_pair: a choice among things whose clear task names none of the intended things while the ambiguous
task only adds words to it leaves the same choice open in both tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

OPEN = "names none of the intended things"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment("apple, pear, banana, knife, bowl"),
        "ambiguity_type": "preferences",
        "ambiguous_task": "Make a fruit salad with the fruit in the kitchen.",
        "question": "Which fruit should I use for the fruit salad?",
        "answer": "Use the apple and the pear.",
        "user_intent": "apple, pear",
        "plan_for_clear_task": "Take out the apple and the pear.\nCut them into the bowl.",
        "plan_for_amb_task": "Take out the fruit.\nCut them into the bowl.",
        "end_of_ambiguity": "0",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["minimal_pair"])]

    return run


def test_a_clear_task_as_open_as_the_ambiguous_one(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(unambiguous_direct="Make a fruit salad.")
    assert len(found) == 1 and found[0].startswith(f"unambiguous_direct: {OPEN} (apple, pear)")


def test_a_clear_task_naming_the_intended_things_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert not any(OPEN in f for f in flags(unambiguous_direct="Make a fruit salad with the apple and the pear."))
