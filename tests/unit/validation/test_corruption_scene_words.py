"""corruption and fragment read the kitchen's own words: a plural of a scene word is no misspelling, and a
reply in lower case that starts with a word is no fragment. Each check: a row it must flag and a near row it
must not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "grill, tongs, veggie patties, hamburger buns, relish, plates"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Grill the veggie patties and put each on a hamburger bun with relish.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "relish, plates",
        "ambiguous_task": "Grill the veggies and put each on a bun with relish.",
        "question": "What should I put them on?",
        "answer": "Hamburger buns.",
        "plan_for_clear_task": "1. Grill the veggie patties.\n2. Put each on a hamburger bun.",
        "plan_for_amb_task": "1. Grill the veggie patties.\n2. Put each on a bun.",
        "end_of_ambiguity": "1",
        "user_intent": "hamburger bun",
        "variants": "",
    }
    row.update(cells)
    return row


def _flags(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    found = failures_of_row(_row(**cells), tmp_path, catalog, ["corruption", "fragment"])
    return [f"{f.rule}: {f.message}" for f in found]


def test_a_plural_of_a_scene_word_is_no_misspelling(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog) == []


def test_a_word_one_edit_from_a_scene_word_is_a_misspelling(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, ambiguous_task="Grill the veggie patties and put each on a bun with relsh.")
    assert found == ["corruption: ambiguous_task: misspelled word 'relsh' ('relish'?)"]


def test_a_reply_starting_with_a_word_in_lower_case_is_no_fragment(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _flags(tmp_path, catalog, answer="put them on the hamburger buns") == []


def test_a_reply_starting_with_no_word_is_a_fragment(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, answer="d like the hamburger buns")
    assert len(found) == 1 and found[0].startswith("fragment: answer: starts mid-sentence")


def test_a_cooking_word_is_no_misspelling(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    """'roux' is one edit from 'rout' but a word of the kitchen (the kitchen word list holds it)."""
    assert _flags(tmp_path, catalog, answer="Hamburger buns, with a roux-free relish.") == []
    assert _flags(tmp_path, catalog, answer="Hamburger buns; make a roux for the gravy.") == []


def test_a_word_one_edit_from_a_cooking_word_is_still_misspelled(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _flags(tmp_path, catalog, answer="Hamburger buns; make a rpux for the gravy.")
    assert len(found) == 1 and "misspelled word 'rpux'" in found[0]
