"""variants read against what the intent rules out: a variant offering the rejected thing is never the answer,
and variants setting the intended way against the rejected one hold the intended option without its details.
Each check: a row it must flag and a near row it must not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "stove, frying pan, pot holder, dish cloth, spatula, eggs, butter, plates, dishwasher, sink, brush"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Lift the hot frying pan off the stove with the pot holder.",
        "ambiguity_type": "safety",
        "ambiguous_task": "Lift the hot frying pan off the stove.",
        "question": "What should I grip the hot pan with?",
        "answer": "The pot holder. A damp dish cloth lets the heat through.",
        "plan_for_clear_task": "1. Take the pot holder.\n2. Lift the frying pan off the stove.",
        "plan_for_amb_task": "1. Get ready to grip the pan.\n2. Lift the frying pan off the stove.",
        "end_of_ambiguity": "0",
        "user_intent": "pot holder, -dish cloth",
        "variants": "dish cloth\nbare fingers",
    }
    row.update(cells)
    return row


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["variants"])]


def test_the_rejected_thing_the_answer_warns_of_is_not_the_answer(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog)
    assert len(found) == 1 and "none is the answer" in found[0] and "pot holder" in found[0]


def test_variants_offering_the_intended_thing_pass(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog, variants="dish cloth\npot holder") == []


def _washing(**cells: str) -> dict[str, str]:
    return {
        "unambiguous_direct": "Wash the frying pan by hand in the sink with the brush.",
        "ambiguous_task": "Wash the frying pan.",
        "question": "Should I put the frying pan in the dishwasher?",
        "answer": "No, wash it by hand in the sink with the brush.",
        "plan_for_clear_task": "1. Take the frying pan to the sink.\n2. Scrub it with the brush.",
        "plan_for_amb_task": "1. Take the frying pan.\n2. Wash it.",
        "ambiguity_type": "common_sense_knowledge",
        "user_intent": "hand, sink, brush, -dishwasher",
        **cells,
    }


def test_the_intended_way_against_the_rejected_one_needs_no_detail(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog, **_washing(variants="by hand in the sink\nin the dishwasher")) == []


def test_a_lost_intended_thing_without_a_rejected_way_is_suspected(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    """A warning only: the intent often names a detail or a landmark beside the choice."""
    cells = _washing(
        question="What should I wash the frying pan with?",
        answer="The brush and the sink.",
        user_intent="sink, brush",
        variants="in the sink\nin the dishwasher",
    )
    found = [
        f"{f.rule}/{f.severity}: {f.message}"
        for f in failures_of_row(_row(**cells), tmp_path, catalog, ["variants", "variants_suspect"])
    ]
    assert len(found) == 1 and found[0].startswith("variants_suspect/warning: ")
    assert "the intended 'brush' is in none of them" in found[0]
