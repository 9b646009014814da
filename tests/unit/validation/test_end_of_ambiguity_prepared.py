"""end_of_ambiguity: a clear step before the index that only gets the intended thing ready ("Set the colander in
the sink") while the clear step at the index uses it again is no proof that the choice came earlier; the flag
stays when the ambiguous step there already takes up the thing to choose, or the step at the index uses none of
it. And a step at the index that names any part of a longer intended phrase ("the jar" of "glass jar of water")
takes part in the choice."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = "colander, sink, pot, stove, spaghetti, plate, mug, glass jar, counter, fridge, kitchen scissors, fresh mint"


@pytest.fixture()
def eoa(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return partial(rule_messages(ENV, tmp_path, catalog), "end_of_ambiguity")


DRAIN = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Boil the spaghetti in the pot and drain it in the colander.",
    ambiguous_task="Boil the spaghetti in the pot and drain it.",
    question="What should I drain the spaghetti in?",
    answer="In the colander.",
    user_intent="colander",
    end_of_ambiguity="2",
)


def test_a_step_that_readies_the_thing_the_index_uses_is_no_proof(eoa) -> None:  # type: ignore[no-untyped-def]
    row = dict(
        DRAIN,
        plan_for_clear_task="1. Boil the spaghetti in the pot on the stove.\n2. Set the colander in the sink.\n"
        "3. Drain the spaghetti in the colander.\n4. Put it on the plate.",
        plan_for_amb_task="1. Boil the spaghetti in the pot on the stove.\n2. Turn off the stove.\n"
        "3. Drain the spaghetti.\n4. Put it on the plate.",
    )
    assert eoa(**row) == []


def test_the_index_on_a_step_that_uses_none_of_it_is_flagged(eoa) -> None:  # type: ignore[no-untyped-def]
    row = dict(
        DRAIN,
        plan_for_clear_task="1. Boil the spaghetti in the pot on the stove.\n2. Set the colander in the sink.\n"
        "3. Drain the spaghetti in the colander.\n4. Put it on the plate.",
        plan_for_amb_task="1. Boil the spaghetti in the pot on the stove.\n2. Turn off the stove.\n"
        "3. Drain the spaghetti.\n4. Put it on the plate.",
        end_of_ambiguity="3",
    )
    found = eoa(**row)
    assert len(found) == 1 and "already names the intended 'colander'" in found[0]


def test_an_ambiguous_step_that_takes_up_the_thing_to_choose_keeps_the_flag(eoa) -> None:  # type: ignore[no-untyped-def]
    row = dict(
        DRAIN,
        unambiguous_direct="Rinse the mint in the glass jar of water and then fill the glass jar to the top.",
        ambiguous_task="Rinse the mint in some water and then fill the jar to the top.",
        question="Which jar should I use?",
        answer="The glass jar.",
        user_intent="glass jar",
        plan_for_clear_task="1. Fill the glass jar with water.\n2. Rinse the mint in it.\n"
        "3. Fill the glass jar to the top.",
        plan_for_amb_task="1. Fill the jar with water.\n2. Rinse the mint in it.\n3. Fill the jar to the top.",
    )
    found = eoa(**row)
    assert len(found) == 1 and "plan_for_clear_task[0]: already names the intended 'glass jar'" in found[0]


STORE = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Trim the fresh mint with the kitchen scissors and stand it in the glass jar of water on the "
    "counter.",
    ambiguous_task="Trim the fresh mint with the kitchen scissors and store it.",
    question="How should I store the mint?",
    answer="Standing in the glass jar of water on the counter.",
    user_intent="glass jar of water, counter",
    # the ambiguous plan has a step of its own before the index, so the plans part before it
    plan_for_clear_task="1. Trim the fresh mint with the kitchen scissors.\n2. Fill the jar with water.\n"
    "3. Stand the mint in the jar.\n4. Put the jar on the counter.",
    plan_for_amb_task="1. Trim the fresh mint with the kitchen scissors.\n2. Wipe the kitchen scissors.\n"
    "3. Store the mint.\n4. Leave it there.",
)


def test_a_step_naming_part_of_the_intended_phrase_takes_part(eoa) -> None:  # type: ignore[no-untyped-def]
    assert eoa(**STORE, end_of_ambiguity="2") == []


def test_an_index_before_any_part_is_named_is_still_flagged(eoa) -> None:  # type: ignore[no-untyped-def]
    found = eoa(**STORE, end_of_ambiguity="0")
    assert len(found) == 1 and "after end_of_ambiguity 0" in found[0]
