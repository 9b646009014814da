"""corruption reads a word cut short against the scene's whole words, and two words run together around a
short word. Each check: a row it must flag and a near row it must not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "grill, tongs, bratwurst, hot dog buns, sauerkraut, mustard, plates"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Grill the bratwurst and serve it in a hot dog bun with mustard.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "mustard, sauerkraut",
        "ambiguous_task": "Grill the bratwurst and serve it in a hot dog bun with a topping.",
        "question": "Which topping would you like?",
        "answer": "Mustard, please.",
        "plan_for_clear_task": "1. Grill the bratwurst with the tongs.\n2. Put it in a hot dog bun with mustard.",
        "plan_for_amb_task": "1. Grill the bratwurst with the tongs.\n2. Put it in a hot dog bun with a topping.",
        "end_of_ambiguity": "1",
        "user_intent": "mustard",
        "variants": "",
    }
    row.update(cells)
    return row


def _flags(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    found = failures_of_row(_row(**cells), tmp_path, catalog, ["corruption"])
    return [f"{f.rule}: {f.message}" for f in found]


def test_the_start_of_a_scene_word_is_a_word_cut_short(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(
        tmp_path, catalog, plan_for_clear_task="1. Grill the bratwurst with the tongs.\n2. Put it in a bun with mustar"
    )
    assert found == ["corruption: plan_for_clear_task[1]: a word cut short 'mustar' (of 'mustard')"]


def test_the_end_of_a_scene_name_is_a_word_of_its_own(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog, plan_for_clear_task="1. Grill the wurst.\n2. Put it in a bun with mustard.") == []


def test_a_short_word_run_into_the_next_is_corruption(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, plan_for_amb_task="1. Grill thebratwurst.\n2. Put it in a bun with a topping.")
    assert found == ["corruption: plan_for_amb_task[0]: words run together 'thebratwurst' ('the bratwurst')"]


def test_two_content_words_run_together_are_a_name(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, plan_for_amb_task="1. Set a placemat.\n2. Put the bratwurst in a bun.")
    assert found == []
