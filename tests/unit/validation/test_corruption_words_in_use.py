"""corruption's misspelled-word and doubled-word checks read words of other kitchens as words: a word a broad
English frequency list has seen in use, a word the row writes in three groups of cells written apart, and a
doubled name the kitchen's list holds. Each reading: a row it must leave alone and a near row it must flag."""

from __future__ import annotations

from pathlib import Path

from ambiforge.validation.spelling import in_use
from tests.unit.validation.ambik_rows import corruption_errors

ENV = "pressure cooker, chickpeas, mahi mahi fillets, lemon, knife, cutting board, serving plate, stove"


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return corruption_errors(tmp_path, catalog, ENV, **cells)


def test_a_word_in_english_use_is_no_misspelling(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Cook them at 15 psi.\n3. Add lemon."}
    assert _errors(tmp_path, catalog, **cells) == []


def test_a_readers_typo_beside_it_is_still_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Put the chickpeas in the pressure cooker with watter.\n2. Cook them at 15 psi."}
    assert _errors(tmp_path, catalog, **cells) == ["plan_for_clear_task[0]: misspelled word 'watter' ('water'?)"]


def test_the_named_misspellings_stay_out_of_use() -> None:
    assert not any(in_use(w) for w in ("watter", "burito", "smoth", "carots", "microwve", "skilet", "untill"))
    assert in_use("psi") and in_use("latkes") and in_use("untasted")
    assert not in_use("unpealed")  # "un-" makes words of participles in use only


def test_a_word_the_row_writes_in_three_places_is_its_own(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "unambiguous_direct": "Cook the chickpeas for the chaat in the pressure cooker and add the lemon.",
        "ambiguous_task": "Cook the chickpeas for the chaat in the pressure cooker and season them.",
        "question": "How should I season the chaat?",
        "plan_for_clear_task": "1. Fill the pressure cooker.\n2. Cook them.\n3. Squeeze lemon over the chaat.",
    }
    assert _errors(tmp_path, catalog, **cells) == []


def test_a_word_in_two_places_only_stays_a_typo(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "ambiguous_task": "Cook the chickpeas with chaat in the pressure cooker and season them.",
        "plan_for_clear_task": "1. Fill the pressure cooker.\n2. Cook them.\n3. Squeeze lemon over the chaat.",
    }
    found = _errors(tmp_path, catalog, **cells)
    assert found and all("misspelled word 'chaat'" in f for f in found)


def test_a_doubled_name_of_the_kitchen_is_no_doubled_word(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Put the mahi mahi fillets on the cutting board.\n2. Add the lemon."}
    assert _errors(tmp_path, catalog, **cells) == []


def test_a_doubled_word_the_kitchen_does_not_name_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Put the the fillets on the cutting board.\n2. Add the lemon."}
    assert _errors(tmp_path, catalog, **cells) == ["plan_for_clear_task[0]: doubled word 'the the'"]


def test_a_plural_in_os_of_an_oes_word_is_misspelled(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Add the tomatos.\n3. Add lemon."}
    assert _errors(tmp_path, catalog, **cells) == ["plan_for_clear_task[1]: misspelled word 'tomatos' ('tomato'?)"]


def test_a_plural_in_os_of_a_word_without_oes_is_right(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Add the avocados and the tomatoes.\n3. Stir."}
    assert _errors(tmp_path, catalog, **cells) == []


def test_two_nouns_one_edit_from_a_kitchen_word_are_its_typo(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Wrap the chickpeas in a sandwitch bag."}
    assert _errors(tmp_path, catalog, **cells) == ["plan_for_clear_task[1]: misspelled word 'sandwitch' ('sandwich'?)"]


def test_two_nouns_far_from_any_kitchen_word_are_a_compound(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Wipe the limescale off the lid."}
    assert _errors(tmp_path, catalog, **cells) == []
