"""end_of_ambiguity on copied plans, read by where the plan says the open point: a step before the index that
already says the intended count, the step just before it naming the thing a which-question asks to choose, and
the one step that does the question's action with its thing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "eggs, pot, glass bowl, metal bowl, frying pan, whisk, lemons, oranges, sugar, jug"


def _row(steps: list[str], **cells: str) -> dict[str, str]:
    plan = "\n".join(steps)
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,  # copied: the two plans are the same
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(steps: list[str], rules: tuple[str, ...] = ("end_of_ambiguity",), **cells: str) -> list[str]:
        found = failures_of_row(_row(steps, **cells), tmp_path, catalog, list(rules))
        return [f"{f.rule}: {f.message}" for f in found]

    return run


BOIL = dict(
    unambiguous_direct="Boil the eggs for eight minutes and peel them.",
    ambiguous_task="Boil the eggs and peel them.",
    question="How long should I boil the eggs?",
    answer="Boil them for 8 minutes.",
    user_intent="8|eight, minutes",
)
BOIL_STEPS = [
    "Fill the pot with water and bring it to a boil.",
    "Lower the eggs into the water and boil for 8 minutes.",
    "Move the eggs into cold water.",
    "Peel the eggs and serve.",
]


def test_a_count_said_before_the_index_is_the_index_not_a_leak(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(BOIL_STEPS, ("end_of_ambiguity", "answer_leak"), end_of_ambiguity="2", **BOIL)
    assert len(found) == 1
    assert found[0].startswith("end_of_ambiguity: plan_for_clear_task[1]: already says the intended count '8'")


def test_an_index_on_the_step_that_says_the_count_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(BOIL_STEPS, end_of_ambiguity="1", **BOIL) == []


WHISK = dict(
    unambiguous_direct="Whisk the eggs in the glass bowl and fry them.",
    ambiguous_task="Whisk the eggs in a bowl and fry them.",
    question="Which bowl should I use to whisk the eggs?",
    answer="The glass bowl.",
    user_intent="glass bowl",
)
WHISK_STEPS = [
    "Crack the eggs into a bowl.",
    "Whisk the eggs well.",
    "Pour the eggs into the hot frying pan.",
]


def test_the_asked_thing_named_just_before_an_index_that_names_no_option(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(WHISK_STEPS, end_of_ambiguity="1", **WHISK)
    assert found == [
        "end_of_ambiguity: plan_for_clear_task[0]: names the bowl the question asks to choose, just before "
        "end_of_ambiguity 1, whose step names no option: 'Crack the eggs into a bowl.' / 'Whisk the eggs well.'"
    ]


def test_an_index_on_the_step_naming_the_asked_thing_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(WHISK_STEPS, end_of_ambiguity="0", **WHISK) == []


JUICE = dict(
    unambiguous_direct="Make lemonade with the lemons and sugar.",
    ambiguous_task="Make lemonade with a citrus fruit and sugar.",
    question="Which fruit should I squeeze for the lemonade?",
    answer="Squeeze the lemons.",
    user_intent="lemon",
)
JUICE_STEPS = [
    "Take out the citrus press and the jug.",
    "Stir the sugar into cold water in the jug.",
    "Squeeze one fruit into the jug.",
    "Stir and serve.",
]


def test_the_one_step_doing_the_questions_action_is_where_the_point_is(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(JUICE_STEPS, end_of_ambiguity="1", **JUICE)
    assert len(found) == 1
    assert "plan_for_clear_task[2]: does what the question asks about ('squeeze' the fruit) after" in found[0]


def test_an_index_on_the_step_doing_the_action_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(JUICE_STEPS, end_of_ambiguity="2", **JUICE) == []
