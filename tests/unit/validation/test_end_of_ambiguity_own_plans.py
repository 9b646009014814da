"""end_of_ambiguity on plans of their own: a step before the index where the ambiguous plan takes the thing up
by the kind the question asks to choose while the clear plan names the intended one; and a clear plan with a
step more, whose resolving step is the ambiguous step at the index (no flag)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = "stove, pot, chef's knife, cutting board, chicken breast, pork loin, chicken broth, carrots, milk, saucepan"


@pytest.fixture()
def eoa(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return partial(rule_messages(ENV, tmp_path, catalog), "end_of_ambiguity")


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


STEEP = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Simmer the carrots in the chicken broth for 10 minutes, then pour it into the pot.",
    ambiguous_task="Simmer the carrots in the chicken broth, then pour it into the pot.",
    question="How long should the carrots simmer?",
    answer="About 10 minutes.",
    user_intent="10 minutes",
    plan_for_clear_task="1. Heat the chicken broth in the saucepan.\n2. Add the carrots.\n3. Simmer for 10 minutes."
    "\n4. Pour it into the pot.\n5. Wash the saucepan.",
    plan_for_amb_task="1. Heat the chicken broth in the saucepan.\n2. Add the carrots.\n3. Let it simmer."
    "\n4. Pour it into the pot.\n5. Wash the saucepan.",
)


def test_an_amount_said_before_the_index(eoa) -> None:  # type: ignore[no-untyped-def]
    found = eoa(**STEEP, end_of_ambiguity="3")
    assert found == [
        "plan_for_clear_task[2]: already names the intended '10 minutes', which the ambiguous step lacks, before "
        "end_of_ambiguity 3: 'Simmer for 10 minutes.'"
    ]
    assert eoa(**STEEP, end_of_ambiguity="2") == []


def test_the_only_step_apart_is_where_the_choice_is(eoa) -> None:  # type: ignore[no-untyped-def]
    cells = {**STEEP, "user_intent": "gently"}  # an intent the steps do not say: only where the plans part tells
    found = eoa(**cells, end_of_ambiguity="4")
    assert found == [
        "plan_for_clear_task[2]: the only step where the plans differ, not end_of_ambiguity 4: "
        "'Simmer for 10 minutes.' / 'Let it simmer.'"
    ]
    assert eoa(**cells, end_of_ambiguity="2") == []


def test_steps_on_one_line_leave_the_index_to_the_corruption_rule(eoa) -> None:  # type: ignore[no-untyped-def]
    clear = "1. Heat the chicken broth in the saucepan. 2. Add the carrots.\n3. Simmer for 10 minutes.\n4. Pour it."
    amb = "1. Heat the chicken broth in the saucepan. 2. Add the carrots.\n3. Let it simmer.\n4. Pour it."
    cells = {**STEEP, "plan_for_clear_task": clear, "plan_for_amb_task": amb}
    assert eoa(**cells, end_of_ambiguity="2") == []  # the writer's step 3 is line 1: no index defect shown
