"""qa_fit on an intent that only repeats the question, and end_of_ambiguity on a copied plan whose index and
every step before it take no part in the choice: each with a row it must flag and near misses it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = "oven, stove, frying pan, griddle, flour, sugar, eggs, milk, butter, bread knife, fettuccine, pot, coffee machine"


def _row(**cells: str) -> dict[str, str]:
    plan = cells.pop("plan", "Take out the bread\nBake the bread")
    row = {
        "id": "1",
        **environment(ENV),
        "unambiguous_direct": "Bake the bread in the oven at 350 degrees.",
        "ambiguity_type": "common_sense_knowledge",
        "amb_shortlist": "",
        "ambiguous_task": "Bake the bread in the oven.",
        "question": "What should I do?",
        "answer": "As the clear task says.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,  # copied: the two plans are the same
        "end_of_ambiguity": "0",
        "user_intent": "350",
        "variants": "",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(rule: str, **cells: str) -> list[str]:
        return [f.message for f in failures_of_row(_row(**cells), tmp_path, catalog, [rule])]

    return run


# -- qa_fit: the intent is what the question already says -------------------------------------------------


def test_an_intent_that_repeats_the_question_is_not_its_answer(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "qa_fit",
        question="What temperature should I preheat the oven to?",
        answer="Preheat the oven to 350 degrees.",
        user_intent="preheat",
    )
    assert len(found) == 1 and "'preheat' is what the question already says" in found[0]
    where = flags(
        "qa_fit",
        unambiguous_direct="Heat the frying pan on the stove and fry the eggs.",
        ambiguous_task="Fry the eggs.",
        question="Where should I heat the frying pan?",
        answer="On the stove.",
        user_intent="frying pan",
    )
    assert len(where) == 1 and "'frying pan' is what the question already says" in where[0]


@pytest.mark.parametrize(
    ("question", "answer", "intent"),
    [
        # the intent's words are in the question, but not as the intent: the answer it names is new
        ("Which knife should I use to cut the bread?", "Use the bread knife.", "bread knife"),
        # the intent is said only as the modifier of another thing
        ("What drink is made with the coffee machine?", "Coffee.", "coffee"),
        # a question that lists its options: the intent is one of them
        ("Which should I use: the oven or the stove?", "The stove.", "stove"),
        ("Should I use the oven to bake the bread?", "Yes, use the oven.", "oven"),
    ],
)
def test_an_intent_the_question_names_otherwise_is_left_alone(flags, question: str, answer: str, intent: str) -> None:  # type: ignore[no-untyped-def]
    found = flags("qa_fit", question=question, answer=answer, user_intent=intent)
    assert not [m for m in found if "what the question already says" in m], found


# -- end_of_ambiguity: nothing up to the index takes part, a later step does ----------------------------------

GRIDDLE = dict(
    unambiguous_direct="Make pancakes with flour, sugar, eggs and milk on the griddle heated to medium.",
    ambiguous_task="Make pancakes with flour, sugar, eggs and milk on the griddle.",
    question="What temperature should I heat the griddle to?",
    answer="Heat the griddle to medium.",
    user_intent="griddle, medium",
)
GRIDDLE_PLAN = [
    "Combine the flour and sugar in a bowl",
    "Whisk the eggs and milk into the bowl",
    "Heat the griddle and grease it with butter",
    "Pour the batter onto the griddle",
]


def test_an_index_before_any_step_that_takes_part_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("end_of_ambiguity", plan="\n".join(GRIDDLE_PLAN), end_of_ambiguity="0", **GRIDDLE)
    assert len(found) == 1 and found[0].startswith("plan_for_clear_task[2]: the first step that takes part")


def test_an_index_at_the_step_that_takes_part_is_right(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("end_of_ambiguity", plan="\n".join(GRIDDLE_PLAN), end_of_ambiguity="2", **GRIDDLE) == []


def test_an_index_at_a_step_that_goes_to_the_options_is_left_alone(flags) -> None:  # type: ignore[no-untyped-def]
    plan = ["Open the cupboard", *GRIDDLE_PLAN]
    assert flags("end_of_ambiguity", plan="\n".join(plan), end_of_ambiguity="0", **GRIDDLE) == []


def test_a_step_naming_the_asked_thing_respelled_takes_part(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "end_of_ambiguity",
        unambiguous_direct="Boil the fettuccine, then bake it in the oven.",
        ambiguous_task="Bake the fettuccine in the oven.",
        question="Should I boil the fettucine before baking?",
        answer="Yes.",
        user_intent="boil",
        plan="Preheat the oven\nTake out the fettuccine\nBoil the fettuccine in a pot\nBake it in the oven",
        end_of_ambiguity="1",
    )
    assert found == []


# -- end_of_ambiguity: the question quotes a step that is not the one at the index ----------------------------

UNTIL_DONE = dict(
    unambiguous_direct="Make pancakes with flour, eggs and milk.",
    ambiguous_task="Make pancakes with flour, eggs and milk and cook until done.",
    question="What does 'cook until done' mean for pancakes?",
    answer="Until bubbles form and the underside is golden, about two minutes a side.",
    user_intent="golden, bubbles",
)


def test_an_index_away_from_the_quoted_step_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    plan = [
        "Mix the flour, eggs and milk into a pancake batter",
        "Heat the pan",
        "Pour the batter into the pan",
        "Cook until done",
    ]
    found = flags("end_of_ambiguity", plan="\n".join(plan), end_of_ambiguity="1", **UNTIL_DONE)
    assert len(found) == 1 and found[0].startswith("plan_for_clear_task[3]: says 'cook until done'")


@pytest.mark.parametrize(
    ("plan", "index"),
    [
        # the index is the quoted step
        (
            [
                "Mix the flour, eggs and milk into a pancake batter",
                "Heat the pan",
                "Pour the batter into the pan",
                "Cook until done",
            ],
            "3",
        ),
        # two steps say the phrase: either may be the one asked about
        (["Heat the pan", "Cook until done", "Flip the pancake", "Cook until done"], "1"),
    ],
)
def test_an_index_at_a_quoted_step_is_left_alone(flags, plan: list[str], index: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("end_of_ambiguity", plan="\n".join(plan), end_of_ambiguity=index, **UNTIL_DONE) == []
