"""answer_leak: a rewritten open point that keeps an intended cue, a part of the name only the intended option
has, and a distance said before end_of_ambiguity."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import leak_messages

ENV = "sourdough bread, toaster, butter, butter knife, steel tin with green lid, tin box with yellow lid, plate, oven"
PLAN = "1. Take the bread.\n2. Do the task.\n3. Serve it."


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return leak_messages(ENV, PLAN, tmp_path, catalog)


TOAST = dict(
    unambiguous_direct="Toast the sourdough bread until the crust turns crisp and the edges are golden, then butter.",
    question="How do I know the toast is done?",
    answer="When the crust is crisp and the edges are golden.",
    user_intent="crisp, golden|edge",
)


def test_a_rewritten_open_point_keeping_a_cue_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak(ambiguous_task="Toast the sourdough bread until it is crispy enough, then butter.", **TOAST)
    assert len(found) == 1 and "rewrites the open point" in found[0] and "'crisp'" in found[0]


def test_a_single_intended_cue_kept_in_the_rewrite_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {**TOAST, "user_intent": "crisp"}
    found = leak(ambiguous_task="Toast the sourdough bread until it is crispy enough, then butter.", **cells)
    assert len(found) == 1 and "still says the intended 'crisp'" in found[0]


def test_a_cue_the_question_itself_names_leaks_nothing(leak) -> None:  # type: ignore[no-untyped-def]
    cells = {**TOAST, "user_intent": "crisp", "question": "How crisp should the toast be?"}
    assert leak(ambiguous_task="Toast the sourdough bread until it is crispy enough, then butter.", **cells) == []


def test_a_rewritten_open_point_without_the_cue_leaks_nothing(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak(ambiguous_task="Toast the sourdough bread until it is done, then butter.", **TOAST) == []


TINS = dict(
    ambiguity_type="preferences",
    amb_shortlist="steel tin with green lid, tin box with yellow lid",
    unambiguous_direct="Put the sourdough bread in the steel tin and press on the green lid.",
    question="Which tin should I keep the bread in?",
    answer="The steel one.",
    user_intent="steel",
    variants="Steel tin\nTin box",
)


def test_a_part_only_the_intended_option_has_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    found = leak(ambiguous_task="Put the sourdough bread in a tin and press on the green lid.", **TINS)
    assert found == ["ambiguous_task: names 'green lid', which only the intended 'steel tin with green lid' has"]


def test_a_part_every_option_has_leaks_nothing(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak(ambiguous_task="Put the sourdough bread in a tin and press on the lid.", **TINS) == []


SPACING = dict(
    unambiguous_direct="Lay the bread slices 3 inches apart on the tray and toast them in the oven.",
    ambiguous_task="Lay the bread slices on the tray and toast them in the oven.",
    question="How far apart should the slices be?",
    answer="About 3 inches apart.",
    user_intent="3 inches|three inches",
    end_of_ambiguity="2",
)


def test_a_distance_said_before_the_question_leaks_it(leak) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Heat the oven.\n2. Leave room for rows 3 inches apart on the tray.\n3. Lay the slices on the tray."
    found = leak(plan_for_amb_task=plan, **SPACING)
    assert len(found) == 1 and "already says the intended measure '3'" in found[0]


def test_a_plan_that_says_no_distance_leaks_nothing(leak) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Heat the oven.\n2. Line the tray.\n3. Lay the slices on the tray."
    assert leak(plan_for_amb_task=plan, **SPACING) == []
