"""corruption's misspelled-word check reads the name of the dish a task makes as a name: dish names are
loanwords and coinages no dictionary here holds. A typo elsewhere in the same row is still one."""

from __future__ import annotations

from pathlib import Path

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "basmati rice, whole milk, sugar, cardamom, saucepan, wooden spoon, stove, serving bowls"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Make kheer in the saucepan with the basmati rice, whole milk and sugar.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "sugar, cardamom",
        "ambiguous_task": "Make kheer in the saucepan with the basmati rice and whole milk, sweetened.",
        "question": "What should I sweeten the kheer with?",
        "answer": "Sugar.",
        "plan_for_clear_task": "1. Simmer the rice in the milk.\n2. Stir in the sugar.\n3. Pour the kheer into bowls.",
        "plan_for_amb_task": "1. Simmer the rice in the milk.\n2. Stir in the sweetener.\n3. Pour the kheer.",
        "end_of_ambiguity": "1",
        "user_intent": "sugar",
        "variants": "sugar\ncardamom",
    }
    row.update(cells)
    return row


def _errors(tmp_path: Path, catalog, **cells: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["corruption"])]


def test_the_dish_a_task_makes_is_no_misspelling(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    assert _errors(tmp_path, catalog) == []


def test_a_typo_beside_the_made_dish_is_still_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(
        tmp_path,
        catalog,
        plan_for_amb_task="1. Simmer the rice in the milk untill soft.\n2. Stir in the sweetener.\n3. Pour the kheer.",
    )
    assert found == ["plan_for_amb_task[0]: misspelled word 'untill' ('until'?)"]


def test_the_same_word_in_a_task_that_makes_something_else_is_flagged(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(
        tmp_path,
        catalog,
        unambiguous_direct="Cook the basmati rice in the saucepan with whole milk and sugar.",
        ambiguous_task="Cook the basmati rice in the saucepan with whole milk, sweetened.",
    )
    assert found and all("misspelled word 'kheer'" in f for f in found)


def test_the_dish_a_task_is_done_for_is_no_misspelling(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    found = _errors(
        tmp_path,
        catalog,
        unambiguous_direct="Cook the basmati rice in the saucepan with whole milk and sugar for the kheer.",
        ambiguous_task="Cook the basmati rice in the saucepan with whole milk, sweetened, for the kheer.",
    )
    assert found == []
