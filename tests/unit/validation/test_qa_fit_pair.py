"""qa_fit read against the pair: an intent that is not what the answer says, a question whose options the clear
task uses all, a how-many question about another thing than the clear task counts, an intent the question names
beside the rejected option, and a safety question about the step the ambiguous task adds."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "raspberries, blackberries, carrots, cheddar, parmesan, brie, gouda, potatoes, eggs, pot, bowl, knife"


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "preferences",
        "amb_shortlist": "",
        "plan_for_clear_task": "Take out the things.\nDo the task.",
        "plan_for_amb_task": "Take out the things.\nDo the task.",
        "end_of_ambiguity": "0",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(**cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, ["qa_fit"])]

    return run


BERRIES = dict(
    unambiguous_direct="Make a smoothie with raspberries and blackberries.",
    ambiguous_task="Make a smoothie with berries.",
    question="Which berries should I put in the smoothie?",
    answer="Use the raspberries and blackberries.",
)


def test_an_intent_that_is_not_what_the_answer_says(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(user_intent="carrots, celery", **BERRIES)
    assert len(found) == 1 and found[0].startswith("user_intent: 'carrots, celery' is not what the answer says")


def test_an_intent_the_answer_says_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(user_intent="raspberries, blackberries", **BERRIES) == []


CHEESE = dict(
    ambiguous_task="Make pasta with cheese.",
    question="Which cheese should I grate - cheddar or parmesan?",
    answer="Grate the cheddar.",
    user_intent="cheddar",
)


def test_a_choice_between_options_the_clear_task_uses_all(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(unambiguous_direct="Make pasta with cheddar and parmesan.", **CHEESE)
    assert len(found) == 1 and found[0].startswith("answer: picks 'cheddar' of the question's options, while the clear")


def test_a_clear_task_using_the_picked_option_only_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(unambiguous_direct="Make pasta with cheddar.", **CHEESE) == []


def test_a_count_of_another_thing_than_the_clear_task_counts(flags) -> None:  # type: ignore[no-untyped-def]
    count = dict(question="How many potatoes should I peel?", answer="Peel four potatoes.", user_intent="4|four")
    found = flags(
        unambiguous_direct="Bake three pies with potatoes.", ambiguous_task="Bake pies with potatoes.", **count
    )
    assert found == [
        "question: asks how many potatoes, while the clear task adds the count of something else ('three pies')"
    ]
    same = flags(
        unambiguous_direct="Bake a pie with four potatoes.", ambiguous_task="Bake a pie with potatoes.", **count
    )
    assert same == []
    described = flags(
        unambiguous_direct="Bake a pie with two large potatoes.", ambiguous_task="Bake a pie with potatoes.", **count
    )
    assert described == []


def test_a_question_naming_the_rejected_option_too_offers_a_choice(flags) -> None:  # type: ignore[no-untyped-def]
    brie = dict(
        unambiguous_direct="Make a toast with brie.",
        ambiguous_task="Make a toast with cheese.",
        answer="Please use the brie for the toast.",
    )
    offered = "Which cheese should I use? There is brie and gouda in the fridge."
    assert flags(question=offered, user_intent="brie, -gouda", **brie) == []
    echoed = flags(question="Which cheese should I use? The brie is in the fridge.", user_intent="brie", **brie)
    assert len(echoed) == 1 and echoed[0].startswith("user_intent: 'brie' is what the question already says")


def test_a_safety_question_about_the_step_the_ambiguous_task_adds(flags, tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    soup = dict(
        ambiguity_type="safety",
        unambiguous_direct="Make a potato soup with the potatoes and eggs",
        question="Which bowl should I use for safety?",
        answer="Use a microwave-safe bowl.",
        user_intent="microwave-safe",
    )
    added = flags(ambiguous_task="Make a potato soup with the potatoes and eggs. Heat the soup until hot.", **soup)
    assert added == []
    changed = _row(ambiguous_task="Make a potato soup with the potatoes. Heat the soup until hot.", **soup)
    assert flags(ambiguous_task=changed["ambiguous_task"], **soup) == []  # a suspicion, not a qa_fit error
    found = [f.message for f in failures_of_row(changed, tmp_path, catalog, ["qa_off_point"])]
    assert len(found) == 1 and found[0].startswith("question: asks about what the pair does not leave open")
