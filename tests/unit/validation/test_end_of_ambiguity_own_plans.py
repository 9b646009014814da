"""end_of_ambiguity on plans of their own: a step before the index where the ambiguous plan takes the thing up
by the kind the question asks to choose while the clear plan names the intended one; and a clear plan with a
step more, whose resolving step is the ambiguous step at the index (no flag)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "stove, pot, chef's knife, cutting board, chicken breast, pork loin, chicken broth, carrots, milk, saucepan"


@pytest.fixture()
def eoa(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        row = {"id": "1", **environment(ENV), "amb_shortlist": "", "variants": "", **cells}
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["end_of_ambiguity"])]

    return run


POACH = dict(
    ambiguity_type="preferences",
    amb_shortlist="chicken breast, pork loin",
    unambiguous_direct="Poach the chicken breast in the chicken broth with the carrots.",
    ambiguous_task="Poach the meat in the chicken broth with the carrots.",
    question="Which meat should I poach?",
    answer="The chicken breast.",
    user_intent="chicken",
    plan_for_clear_task="1. Trim the chicken breast with the chef's knife.\n2. Poach it in the chicken broth."
    "\n3. Add the carrots.",
    plan_for_amb_task="1. Trim the meat with the chef's knife.\n2. Poach it in the chicken broth.\n3. Add the carrots.",
)


def test_the_kind_taken_up_before_the_index(eoa) -> None:  # type: ignore[no-untyped-def]
    found = eoa(**POACH, end_of_ambiguity="1")
    assert found == [
        "plan_for_amb_task[0]: leaves open the meat the question asks, where the clear step names the intended "
        "'chicken', before end_of_ambiguity 1: \"Trim the meat with the chef's knife.\""
    ]


def test_the_index_at_that_step_is_right(eoa) -> None:  # type: ignore[no-untyped-def]
    assert eoa(**POACH, end_of_ambiguity="0") == []


WARM = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Warm the milk in the saucepan over low heat and pour it into the pot.",
    ambiguous_task="Warm the milk in the saucepan and pour it into the pot.",
    question="What heat should I use for the milk?",
    answer="Low heat.",
    user_intent="low",
    # the clear plan has one step more before: its step 2 is the ambiguous plan's step 1
    plan_for_clear_task="1. Wipe the saucepan.\n2. Pour the milk into the saucepan.\n"
    "3. Put the saucepan on the stove over low heat.\n4. Pour the milk into the pot.",
    plan_for_amb_task="1. Pour the milk into the saucepan.\n2. Put the saucepan on the stove and turn on the heat."
    "\n3. Pour the milk into the pot.",
)


def test_a_clear_plan_with_a_step_more_resolves_at_the_ambiguous_index(eoa) -> None:  # type: ignore[no-untyped-def]
    assert eoa(**WARM, end_of_ambiguity="1") == []


def test_an_index_before_the_step_that_resolves_is_still_flagged(eoa) -> None:  # type: ignore[no-untyped-def]
    found = eoa(**WARM, end_of_ambiguity="0")
    assert len(found) == 1 and "after end_of_ambiguity 0" in found[0]
