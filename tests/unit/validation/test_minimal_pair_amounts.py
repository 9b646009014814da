"""minimal_pair on a pair that changes more than its open point by an amount, or whose clear task leaves the same
choice open: the clear task's counts and measures dropped beside the open point, a clear task that adds words
naming none of the intended things. Each check: a row it must flag and a near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "teapot, green tea, black tea, mint tea, kettle, ceramic cup, saucer, biscuits, honey, lemon, fridge, cupboard"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(cells.pop("env", ENV)),
        "ambiguity_type": "preferences",
        "unambiguous_direct": "Brew a pot of mint tea in the teapot, then set three biscuits on the saucer.",
        "ambiguous_task": "Brew a pot of tea in the teapot, then set three biscuits on the saucer.",
        "question": "Which tea should I brew?",
        "answer": "The mint tea.",
        "user_intent": "mint",
        "amb_shortlist": "green tea, black tea, mint tea",
        "variants": "green tea\nblack tea\nmint tea",
        "plan_for_clear_task": "Boil water in the kettle.\nPut mint tea in the teapot.\nPour the water in.\n"
        "Set three biscuits on the saucer.",
        "plan_for_amb_task": "Boil water in the kettle.\nPut tea in the teapot.\nPour the water in.\n"
        "Set three biscuits on the saucer.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["minimal_pair"])]

    return run


def test_the_pair_that_changes_only_the_tea_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags() == []


def test_a_count_dropped_beside_the_open_point_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(ambiguous_task="Brew a pot of tea in the teapot, then set some biscuits on the saucer.")
    assert len(found) == 1 and "drops the amounts 'three biscuits'" in found[0]


def test_a_count_said_in_digits_is_kept(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(ambiguous_task="Brew a pot of tea in the teapot, then set 3 biscuits on the saucer.") == []


def test_a_count_the_question_asks_for_is_the_open_point(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        ambiguous_task="Brew a pot of mint tea in the teapot, then set some biscuits on the saucer.",
        question="How many biscuits should I set out?",
        answer="Three, please.",
        user_intent="three|3",
        amb_shortlist="",
        variants="",
    )
    assert not any("drops the amounts" in f for f in found)


def test_a_number_in_brackets_or_a_pronoun_is_no_amount(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Brew a pot of mint tea at 80°C (176°F), then set the biscuits on each one of the saucers.",
        ambiguous_task="Brew a pot of tea at 80°C, then set the biscuits on the saucers.",
    )
    assert not any("drops the amounts" in f for f in found)


def test_a_clear_task_that_names_none_of_the_intent_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Brew a pot of herbal tea in the teapot, then set three biscuits on the saucer.",
        question="Which tea should I brew?",
    )
    assert len(found) == 1 and found[0].startswith("unambiguous_direct: says no word of 'mint'")


def test_a_clear_task_that_adds_the_answers_word_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "fresh" is how the answer tells the tea: the intent string, not the pair, is what is off
    found = flags(
        unambiguous_direct="Brew a pot of fresh tea in the teapot, then set three biscuits on the saucer.",
        answer="The fresh mint one.",
        amb_shortlist="",
        variants="",
    )
    assert not any("says no word of" in f for f in found)


def test_a_clear_task_naming_a_kitchen_thing_whole_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "the ceramic cup" picks a thing of the kitchen; the intent 'mint' is what is off
    found = flags(
        unambiguous_direct="Pour the tea into the ceramic cup.",
        ambiguous_task="Pour the tea into the cup.",
        question="Which cup should I use?",
        amb_shortlist="",
        variants="",
    )
    assert not any("says no word of" in f for f in found)


def test_an_intent_kept_in_place_leaves_nothing_to_ask(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(ambiguous_task="Brew a pot of mint tea in the teapot, then set three biscuits on the saucer now.")
    assert any("still names every intent concept ('mint')" in f for f in found)


def test_an_intent_kept_when_the_question_asks_a_measure_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "How hot ...?" is not answered by the kept 'mint': the intent string is what is off
    found = flags(
        ambiguous_task="Brew a pot of mint tea in the teapot, then set three biscuits on the saucer now.",
        question="How hot should the water be?",
    )
    assert not any("still names every intent concept" in f for f in found)
