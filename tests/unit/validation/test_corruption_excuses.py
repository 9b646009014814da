"""What excuses a word from corruption's misspelled-word and doubled-word checks, and what does not: a wrong
"-os" plural stays wrong beside the kitchen's singular, a doubled pair is excused only as a whole name of the
kitchen, a word the row writes in three groups excuses itself and not its tails, and "un-" makes words of
participles only. Each: a row or word the check must flag and a near one it must leave alone."""

from __future__ import annotations

from pathlib import Path

from ambiforge.validation.spelling import in_use
from tests.unit.validation.ambik_rows import corruption_errors, environment

ENV = "pressure cooker, chickpeas, tomato, mahi mahi fillets, lemon, knife, cutting board, stove"


def _errors(tmp_path: Path, catalog, env: dict[str, str] | None = None, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return corruption_errors(tmp_path, catalog, ENV, **(env or {}), **cells)


def test_an_os_plural_of_the_kitchens_oes_word_is_misspelled(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Add the tomatos.\n3. Add lemon."}
    assert _errors(tmp_path, catalog, **cells) == ["plan_for_clear_task[1]: misspelled word 'tomatos' ('tomato'?)"]


def test_the_oes_plural_of_the_kitchens_word_is_right(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Fill the pressure cooker.\n2. Add the tomatoes.\n3. Add lemon."}
    assert _errors(tmp_path, catalog, **cells) == []


#: the kitchen's full text says "lemon on a plate": "on on" is inside it, though no name of it doubles "on"
ENV_LEMON_ON = {**environment(ENV), "environment_full": "a pressure cooker, chickpeas, a lemon on a plate, a knife"}


def test_a_doubled_word_inside_the_kitchens_text_but_no_name_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Put the fillets on on the cutting board.\n2. Add the lemon."}
    found = _errors(tmp_path, catalog, ENV_LEMON_ON, **cells)
    assert found == ["plan_for_clear_task[0]: doubled word 'on on'"]


def test_a_doubled_name_of_the_kitchen_stays_excused(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Put the mahi mahi fillets on the cutting board.\n2. Add the lemon."}
    assert _errors(tmp_path, catalog, ENV_LEMON_ON, **cells) == []


def test_a_doubled_word_after_an_excused_name_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {"plan_for_clear_task": "1. Put the mahi mahi fillets on the the cutting board.\n2. Add the lemon."}
    assert _errors(tmp_path, catalog, **cells) == ["plan_for_clear_task[0]: doubled word 'the the'"]


#: "stir" in the task, the question and a plan: three groups of cells, so the row's own word
STIR = {
    "unambiguous_direct": "Cook the chickpeas in the pressure cooker, stir and squeeze the lemon over them.",
    "question": "Should I stir in lemon or something else?",
    "plan_for_clear_task": "1. Fill the pressure cooker.\n2. Cook them and stir.\n3. Squeeze the lemon over them.",
}


def test_the_tail_of_a_word_of_the_row_is_misspelled(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Fill the pressure cooker.\n2. Cook them, then tir."
    found = _errors(tmp_path, catalog, **STIR, plan_for_amb_task=plan)
    assert len(found) == 1 and found[0].startswith("plan_for_amb_task[1]: misspelled word 'tir'")


def test_a_word_of_the_row_and_its_plural_are_known(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    cells = {
        "unambiguous_direct": "Cook the chickpeas for the chaat in the pressure cooker and add the lemon.",
        "ambiguous_task": "Cook the chickpeas for the chaat in the pressure cooker and season them.",
        "question": "How should I season the chaat?",
        "plan_for_clear_task": "1. Fill the pressure cooker.\n2. Cook them.\n3. Squeeze lemon over the chaat.",
        "answer": "With the lemon, as for other chaats.",
    }
    assert _errors(tmp_path, catalog, **cells) == []


def test_un_makes_words_of_participles_only() -> None:
    assert not any(in_use(w) for w in ("unseed", "unneed", "unbed", "unred"))
    assert in_use("untasted") and in_use("unpeeled") and in_use("unstirred")
