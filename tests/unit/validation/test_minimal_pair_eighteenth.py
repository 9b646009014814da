"""minimal_pair's readings of the open point's own clause (eighteenth round): the clause whose verb a how-question
asks about, a clause the answer spells out, and an amount both tasks say alike. Each check: a row it must flag and
a near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "cast iron pan, bacon, olive oil, paper towels, tea towel, stove, hook, sink, sponge, teapot, mint tea, green tea, "
    "biscuits, saucer, kettle"
)


PAN_WASHED = (
    "Wash the cast iron pan with hot water, dry it over a low flame with the tea towel, and hang it on the hook."
)


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(cells.pop("env", ENV)),
        "ambiguity_type": "safety",
        "unambiguous_direct": "Heat the olive oil in the cast iron pan, fry the bacon in batches, and drain it on the "
        "paper towels.",
        "ambiguous_task": "Heat the olive oil in the cast iron pan, fry the bacon until crisp, and drain it on the "
        "paper towels.",
        "question": "How should I fry the bacon?",
        "answer": "A few strips at a time, so the fat does not spit over the edge.",
        "user_intent": "few strips",
        "amb_shortlist": "",
        "variants": "",
        "plan_for_clear_task": "Heat the oil in the pan.\nFry a few strips of bacon.\nDrain them on the paper towels.",
        "plan_for_amb_task": "Heat the oil in the pan.\nFry the bacon.\nDrain it on the paper towels.",
        "end_of_ambiguity": "1",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["minimal_pair"])]

    return run


def test_a_replacement_in_the_clause_the_how_question_asks_about_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "in batches" -> "until crisp" is how the frying is done: what the question asks
    assert flags() == []


def test_the_same_replacement_under_a_question_about_another_step_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Is it safe to fill the whole pan with bacon?")
    assert len(found) == 1 and "changes more than the open point: drops batch" in found[0]


def test_a_clause_the_answer_spells_out_is_the_open_point(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct=PAN_WASHED,
        ambiguous_task="Clean the cast iron pan and hang it on the hook.",
        question="Can the cast iron pan soak in the sink?",
        answer="No, rinse it with hot water and dry it over a low flame so it does not rust.",
        user_intent="hot water, -soak",
    )
    assert found == []


def test_a_clause_the_answer_leaves_alone_is_another_change(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct=PAN_WASHED,
        ambiguous_task="Clean the cast iron pan and hang it on the hook.",
        question="Can the cast iron pan soak in the sink?",
        answer="No, rinse it with hot water so it does not rust.",
        user_intent="hot water, -soak",
    )
    assert len(found) == 1 and "changes more than the open point" in found[0] and "towel" in found[0]


def _tea(**cells: str) -> dict[str, str]:
    return {
        "ambiguity_type": "preferences",
        "unambiguous_direct": "Brew one pot of mint tea, then set one biscuit on the saucer.",
        "question": "Which tea should I brew?",
        "answer": "The mint tea.",
        "user_intent": "mint",
        "amb_shortlist": "mint tea, green tea",
        "variants": "mint tea\ngreen tea",
        **cells,
    }


def test_an_amount_both_tasks_say_alike_is_kept(flags) -> None:  # type: ignore[no-untyped-def]
    # "one pot" goes with the open point (the mint tea); "one biscuit" is said in both tasks
    assert flags(**_tea(ambiguous_task="Brew a pot of tea, then set one biscuit on the saucer.")) == []


def test_an_amount_dropped_beside_the_open_point_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(**_tea(ambiguous_task="Brew a pot of tea, then set a biscuit on the saucer."))
    assert len(found) == 1 and "drops the amounts 'one biscuit'" in found[0]


def _salad(**cells: str) -> dict[str, str]:
    return {
        "env": "romaine lettuce, salad spinner, tea towel, wooden salad bowl, chef's knife",
        "ambiguity_type": "common_sense_knowledge",
        "unambiguous_direct": "Rinse the romaine lettuce and dry it well, then put it in the wooden salad bowl.",
        "ambiguous_task": "Rinse the romaine lettuce and dry it, then put it in the wooden salad bowl.",
        "question": "What should I use to dry the lettuce?",
        "answer": "The salad spinner.",
        "user_intent": "salad spinner",
        **cells,
    }


def test_a_clear_task_that_says_no_more_about_the_tool_asked_for_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "well" names no tool; "salad" of the salad bowl is another thing's word
    found = flags(**_salad())
    assert len(found) == 1 and "the clear task leaves the same choice open" in found[0]


def test_a_clear_task_that_names_the_tool_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Rinse the romaine lettuce and dry it in the salad spinner, then put it in the wooden salad bowl."
    assert flags(**_salad(unambiguous_direct=clear)) == []


@pytest.fixture()
def warnings(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        tea = {
            "env": "teapot, mint tea, green tea, biscuits, saucer, kettle, cupboard",
            "ambiguity_type": "preferences",
            "question": "Which tea should I brew?",
            "answer": "The mint tea.",
            "user_intent": "mint",
            "amb_shortlist": "mint tea, green tea",
            "variants": "mint tea\ngreen tea",
            **cells,
        }
        found = failures_of_row(_row(**tea), tmp_path, catalog, ["rewrite"])
        return [f.message for f in found if "content words of the clear task that neither" in f.message]

    return run


def test_details_dropped_beside_the_open_point_are_a_suspicion(warnings) -> None:  # type: ignore[no-untyped-def]
    found = warnings(
        unambiguous_direct="Brew the mint tea in the teapot, then put the saucer on the cupboard and lay the biscuits "
        "around its rim.",
        ambiguous_task="Brew the tea in the teapot, then lay the biscuits.",
    )
    assert len(found) == 1 and "(cupboard, rim, saucer)" in found[0]


def test_words_of_the_open_points_own_clause_are_not(warnings) -> None:  # type: ignore[no-untyped-def]
    # "with freshly boiled water" is how the mint tea is brewed: the open point said more generally
    found = warnings(
        unambiguous_direct="Brew the mint tea in the teapot with freshly boiled water, then lay the biscuits.",
        ambiguous_task="Brew the tea in the teapot, then lay the biscuits.",
    )
    assert found == []


def test_a_thing_named_less_exactly_in_the_open_points_clause_is_a_suspicion(warnings) -> None:  # type: ignore[no-untyped-def]
    found = warnings(
        unambiguous_direct="Brew the mint tea in the big blue ceramic teapot, then lay the biscuits.",
        ambiguous_task="Brew the tea in the teapot, then lay the biscuits.",
    )
    assert len(found) == 1 and "ceramic" in found[0]
