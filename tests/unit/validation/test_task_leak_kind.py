"""answer_leak on an ambiguous task that says the intended option in other words: what tells it from the other
options ("spelt" of spelt flour, "frozen" of the freezer) said of no kitchen thing of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "bread maker, spelt flour, rye flour, yeast, salt, water, fridge, freezer, deli containers, lentil soup, peas"


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "ambiguity_type": "preferences",
            "unambiguous_direct": "Put the spelt flour, yeast, salt and water into the bread maker and start it.",
            "ambiguous_task": "Put the flour, yeast, salt and water into the bread maker and start it.",
            "amb_shortlist": "spelt flour, rye flour",
            "variants": "spelt flour\nrye flour",
            "question": "Which flour should I use?",
            "answer": "Spelt, please.",
            "plan_for_clear_task": "1. Put the spelt flour into the bread maker.\n2. Add the yeast, salt and water.\n"
            "3. Start the bread maker.",
            "plan_for_amb_task": "1. Put the flour into the bread maker.\n2. Add the yeast, salt and water.\n"
            "3. Start the bread maker.",
            "end_of_ambiguity": "0",
            "user_intent": "spelt flour",
            **cells,
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["answer_leak"])]

    return run


def test_a_task_naming_the_intended_kind_about_something_else_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    task = "Put the flour, yeast, salt and water into the bread maker and start the spelt cycle."
    found = leak(ambiguous_task=task)
    assert len(found) == 1 and "says 'spelt', which tells the intended 'spelt flour'" in found[0]
    assert leak() == []


def test_a_kind_said_of_a_food_or_beside_another_option_is_no_leak(leak) -> None:  # type: ignore[no-untyped-def]
    toast = "Put the flour, yeast and water into the bread maker and toast the spelt bread left from yesterday."
    assert leak(ambiguous_task=toast) == []  # a food of its own, which may be of another flour
    both = "Put the flour, yeast and water into the bread maker and start the spelt or the rye cycle."
    assert leak(ambiguous_task=both) == []


_SOUP = {
    "unambiguous_direct": "Pour the lentil soup into the deli containers and put them in the freezer.",
    "amb_shortlist": "fridge, freezer",
    "variants": "fridge\nfreezer",
    "question": "Should the soup go in the fridge or the freezer?",
    "answer": "The freezer.",
    "plan_for_clear_task": "1. Pour the lentil soup into the deli containers.\n2. Put them in the freezer.",
    "plan_for_amb_task": "1. Pour the lentil soup into the deli containers.\n2. Put them away.",
    "end_of_ambiguity": "1",
    "user_intent": "freezer",
}


def test_a_word_of_the_intended_options_family_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    task = "Pour the lentil soup into the deli containers, mark them 'frozen' and put them away."
    found = leak(**_SOUP, ambiguous_task=task)
    assert len(found) == 1 and "says 'frozen', which tells the intended 'freezer'" in found[0]
    assert leak(**_SOUP, ambiguous_task="Pour the lentil soup into the deli containers and put them away.") == []
    peas = "Pour the lentil soup into the deli containers, add the frozen peas and put them away."
    assert leak(**_SOUP, ambiguous_task=peas) == []


def test_a_quality_an_option_has_is_said_of_many_things_and_leaks_nothing(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {"amb_shortlist": "large deli containers, small deli containers", "variants": "", "user_intent": "large"}
    task = "Pour the lentil soup, a large batch, into the deli containers and put them away."
    assert leak(**_SOUP | cells | {"ambiguous_task": task}) == []
