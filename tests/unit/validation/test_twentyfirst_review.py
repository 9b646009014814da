"""Review of the twenty-first round (issue 43): a safety answer's own clause is a reason only when it says what
can go wrong ("Glass can shatter", not "That is what I want"); a thing kept from someone is an allergen
("nut-free", "contains peanuts"), not any "-free" or "contains"; "bin" is the trash only standing alone ("the
bin"), not "the recycling bin"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = "onion, knife, cutting board, pot, sugar, jar, cloth, recycling bin, compost bin, trash can, banana peels"


@pytest.fixture()
def run(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


def _safety(run, question: str, answer: str, intent: str = "peel") -> list[str]:  # type: ignore[no-untyped-def]
    found = run(
        "type",
        ambiguity_type="safety",
        unambiguous_direct="Peel the onion and put it in the pot.",
        ambiguous_task="Put the onion in the pot.",
        question=question,
        answer=answer,
        user_intent=intent,
        plan_for_clear_task="1. Peel the onion.\n2. Put the onion in the pot.",
        plan_for_amb_task="1. Put the onion in the pot.",
        end_of_ambiguity="0",
    )
    return [m for m in found if "name no hazard" in m]


@pytest.mark.parametrize(
    "answer", ["Yes.", "Yes. That is what I want.", "Yes, it is for the soup.", "Yes please. The soup will need it."]
)
def test_a_clause_giving_no_harm_is_no_reason(run, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, "Should I peel the onion?", answer)


@pytest.mark.parametrize(
    "answer",
    [
        "Yes. The papery skin can tip the pot when it falls in.",
        "Yes, the dry skin can make a guest sick.",
        "Only the onion, the almonds are tree nuts.",
        "Yes, so no one knocks the pot over.",
    ],
)
def test_a_clause_saying_what_can_go_wrong_may_be_the_reason(run, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, "Should I peel the onion?", answer) == []


@pytest.mark.parametrize(
    "question",
    [
        "Which jar contains the sugar?",
        "Should I use the streak-free cloth?",
        "Is the sugar-free jam fine?",
        "Should I use the German mustard?",
    ],
)
def test_free_and_contains_without_an_allergen_name_no_hazard(run, question: str) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, question, "The left one.", "jar")


@pytest.mark.parametrize(
    "question",
    [
        "Which jar contains almonds?",
        "Should I use the gluten-free flour?",
        "Does the sauce contain any dairy?",
        "Will germs spread from the cloth?",
    ],
)
def test_free_and_contains_with_an_allergen_name_one(run, question: str) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, question, "The left one.", "jar") == []


def _variants(run, variants: str) -> list[str]:  # type: ignore[no-untyped-def]
    return run(
        "variants",
        ambiguity_type="common_sense_knowledge",
        variants=variants,
        unambiguous_direct="Throw the banana peels in the trash can.",
        ambiguous_task="Throw the banana peels away.",
        question="Where should the banana peels go?",
        answer="In the trash can.",
        user_intent="trash can",
        plan_for_clear_task="1. Put the banana peels in the trash can.",
        plan_for_amb_task="1. Put the banana peels in the trash can.",
        end_of_ambiguity="0",
    )


def test_a_bin_of_a_kind_is_not_the_trash(run) -> None:  # type: ignore[no-untyped-def]
    assert _variants(run, "the recycling bin\nthe compost bin")


def test_a_bin_standing_alone_is_the_trash(run) -> None:  # type: ignore[no-untyped-def]
    assert _variants(run, "the bin\nthe compost bin") == []
