"""qa_fit: an answer that says no word of the intent, an answer that gives the intent by a kitchen thing the
question's "or" does not offer, and "each" in an answer, which distributes rather than takes the options."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "butter, sourdough bread, toaster, wooden board, marble slab, slate tray, goat cheese, tall glasses, short glasses"
)


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(ENV),
        "ambiguity_type": "common_sense_knowledge",
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


BUTTER = dict(
    unambiguous_direct="Leave the butter out until it is soft, then spread it on the toasted sourdough bread.",
    ambiguous_task="Spread the butter on the toasted sourdough bread.",
    question="What should I do with the butter before spreading it?",
    user_intent="soft, room temperature",
)


def test_an_answer_saying_nothing_of_the_intent_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer="Spread it on the toasted sourdough bread.", **BUTTER)
    assert len(found) == 1 and found[0].startswith("answer: says no word of the intent (soft, room temperature)")


def test_an_answer_saying_a_word_of_the_intent_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(answer="Let it get soft on the counter first.", **BUTTER) == []


def test_a_yes_no_question_answered_beside_the_point_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {**BUTTER, "question": "Should the butter go on straight from the fridge?"}
    found = flags(answer="Butter tastes lovely on warm sourdough.", **cells)
    assert len(found) == 1 and found[0].startswith("answer: says no word of the intent")


@pytest.mark.parametrize("answer", ["No.", "No, that is too hard to spread.", "Never straight from the fridge."])
def test_a_side_taken_on_a_yes_no_question_is_not_flagged(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    cells = {**BUTTER, "question": "Should the butter go on straight from the fridge?"}
    assert flags(answer=answer, **cells) == []


CHEESE = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Put the goat cheese on the slate tray.",
    ambiguous_task="Put the goat cheese out to serve.",
    answer="Use the slate tray.",
    user_intent="slate tray",
)


def test_an_answer_beside_the_offered_things_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(question="Should I put the goat cheese on the wooden board or on the marble slab?", **CHEESE)
    assert len(found) == 1 and found[0].startswith("answer: gives the intent by 'slate tray', none of the things")


def test_an_answer_among_the_offered_things_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="Should I put the goat cheese on the wooden board or on the slate tray?", **CHEESE) == []


def test_a_question_offering_actions_offers_no_things(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(question="Should I slice the goat cheese or leave it whole?", **CHEESE) == []


GLASSES = dict(
    ambiguity_type="preferences",
    amb_shortlist="tall glasses, short glasses",
    unambiguous_direct="Pour the lemonade into the tall glasses.",
    ambiguous_task="Pour the lemonade into the glasses.",
    question="Which glasses should I pour the lemonade into?",
    user_intent="tall glasses",
)


def test_each_in_an_answer_does_not_take_the_options_together(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(answer="Pour it cold, with a mint leaf in each.", **GLASSES)
    assert len(found) == 1 and found[0].startswith("answer: takes up none of the options")


def test_either_takes_the_options_together(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(answer="Either is fine, with a mint leaf in each.", **GLASSES) == []
