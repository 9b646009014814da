"""variants reads a swap as a kin named by the same noun (a sprig of the shortlisted herb is that herb), and a
choice of numbers by the number (the minutes every variant says are not the answer's ten). Each: a row
flagged, a near row not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "gin, tonic water, fresh basil, lemons, limes, ice cubes, tumblers, paring knife, cutting board"


def _garnish(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Pour two gin and tonics over ice in the tumblers and garnish each with a lime wedge.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "fresh basil, lemons, limes",
        "ambiguous_task": "Pour two gin and tonics over ice in the tumblers and garnish each.",
        "question": "What should I garnish the drinks with?",
        "answer": "A wedge of lime.",
        "user_intent": "lime",
        "variants": "basil leaf\nlemon wheel\nlime wedge",
        "plan_for_clear_task": "1. Fill the tumblers with ice.\n2. Pour the gin and tonic.\n3. Add a lime wedge.",
        "plan_for_amb_task": "1. Fill the tumblers with ice.\n2. Pour the gin and tonic.\n3. Add the garnish.",
        "end_of_ambiguity": "2",
    }
    row.update(cells)
    return row


def _errors(row: dict[str, str], tmp_path: Path, catalog) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(row, tmp_path, catalog, ["variants"])]


def test_a_portion_of_a_shortlisted_thing_is_no_swap(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(_garnish(), tmp_path, catalog) == []


def test_a_kin_by_the_same_noun_in_place_of_a_shortlisted_one_is_a_swap(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(_garnish(variants="purple basil\nlemon wheel\nlime wedge"), tmp_path, catalog)
    assert len(found) == 1 and "'purple basil' is offered instead of the shortlisted 'fresh basil'" in found[0]


def _soak(**cells: str) -> dict[str, str]:
    row = {
        "id": "2",
        **environment("basmati rice, large bowl, water, sieve, saucepan, stove, timer"),
        "unambiguous_direct": "Soak the basmati rice in the large bowl of water for thirty minutes, then drain it.",
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "ambiguous_task": "Soak the basmati rice in the large bowl of water, then drain it.",
        "question": "How long should the rice soak?",
        "answer": "Thirty minutes, no longer.",
        "user_intent": "30 minutes",
        "variants": "10 minutes\n15 minutes",
        "plan_for_clear_task": "1. Put the rice in the large bowl.\n2. Cover with water for 30 minutes.\n3. Drain.",
        "plan_for_amb_task": "1. Put the rice in the large bowl.\n2. Cover with water.\n3. Drain.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


def test_variants_of_other_numbers_than_the_answer_are_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(_soak(), tmp_path, catalog)
    assert len(found) == 1 and "none is the answer 'Thirty minutes, no longer.'" in found[0]


def test_variants_offering_the_answer_number_are_not_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(_soak(variants="15 minutes\n30 minutes"), tmp_path, catalog) == []


def test_a_number_in_words_is_that_number(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    # "fifteen" and "forty-five" are 15 and 45, as "thirty" is 30
    row = _soak(
        unambiguous_direct="Soak the basmati rice in the large bowl of water for fifteen minutes, then drain it.",
        answer="Fifteen minutes, no longer.",
        user_intent="15 minutes",
    )
    assert _errors({**row, "variants": "15 minutes\n45 minutes"}, tmp_path, catalog) == []
    found = _errors({**row, "variants": "10 minutes\n45 minutes"}, tmp_path, catalog)
    assert len(found) == 1 and "none is the answer 'Fifteen minutes, no longer.'" in found[0]
