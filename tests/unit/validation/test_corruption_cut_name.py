"""corruption reads a text that stops inside the last word of a kitchen name it is saying, even when the piece
left is a word of its own ("kitchen tow" of the kitchen towels). A singular of the name is no cut."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "cast iron skillet, kitchen towels, dish soap, sponge, sink, vegetable oil"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Wash the cast iron skillet with a drop of dish soap and dry it with a kitchen towel.",
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "ambiguous_task": "Wash the cast iron skillet and dry it.",
        "question": "How should I dry the skillet?",
        "answer": "With a kitchen towel, right away.",
        "plan_for_clear_task": "1. Scrub the skillet with the sponge.\n2. Dry it with a kitchen tow",
        "plan_for_amb_task": "1. Scrub the skillet with the sponge.\n2. Dry it.",
        "end_of_ambiguity": "1",
        "user_intent": "kitchen towel",
        "variants": "",
    }
    row.update(cells)
    return row


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["corruption"])]


def test_a_step_that_stops_inside_a_kitchen_name_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(tmp_path, catalog)
    assert found == ["plan_for_clear_task[1]: ends inside a word 'kitchen tow' (of the kitchen's 'kitchen towels')"]


def test_a_step_that_ends_on_the_name_in_the_singular_is_not_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Scrub the skillet with the sponge.\n2. Dry it with a kitchen towel"
    assert _errors(tmp_path, catalog, plan_for_clear_task=plan) == []
