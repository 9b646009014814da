"""Nineteenth round, qa_fit and answer_leak: a question's "or" may offer a thing the kitchen lacks, read by the
head it shares with the kitchen thing on the other side; a place a step takes something out of is not where the
question asks the thing to go."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

COCOA = "saucepan, stove, whole milk, almond milk, cocoa powder, sugar, mug, spoon, whisk"


@pytest.fixture()
def qa(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(question: str, answer: str, intent: str = "almond milk") -> list[str]:
        row = {
            "id": "1",
            **environment(COCOA),
            "ambiguity_type": "preferences",
            "unambiguous_direct": f"Warm a mug of cocoa with {intent} in the saucepan.",
            "ambiguous_task": "Warm a mug of cocoa with milk in the saucepan.",
            "question": question,
            "answer": answer,
            "plan_for_clear_task": f"1. Pour the {intent} into the saucepan.\n2. Whisk in the cocoa powder.",
            "plan_for_amb_task": "1. Pour the milk into the saucepan.\n2. Whisk in the cocoa powder.",
            "end_of_ambiguity": "0",
            "user_intent": intent,
            "amb_shortlist": "whole milk, almond milk",
            "variants": "whole milk\nalmond milk",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["qa_fit"])]

    return run


@pytest.mark.parametrize(
    "question", ["Do you want the whole milk or the soy milk?", "Do you want the soy milk or the whole milk?"]
)
def test_an_offered_thing_the_kitchen_lacks_still_leaves_the_intent_out(qa, question: str) -> None:  # type: ignore[no-untyped-def]
    found = qa(question, "The almond milk, please.")
    assert len(found) == 1 and "none of the things the question offers" in found[0]
    assert "'soy milk'" in found[0]


def test_an_intent_among_the_offered_things_is_not_flagged(qa) -> None:  # type: ignore[no-untyped-def]
    assert qa("Do you want the almond milk or the soy milk?", "The almond milk, please.") == []


def test_a_word_of_another_head_after_the_or_offers_nothing(qa) -> None:  # type: ignore[no-untyped-def]
    assert qa("Do you want the whole milk or something sweeter?", "The almond milk, please.") == []


DESSERT = "freezer, fridge, counter, vanilla ice cream, ice cream scoop, dessert bowls, strawberries"


@pytest.fixture()
def leak(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(first_step: str) -> list[str]:
        row = {
            "id": "1",
            **environment(DESSERT),
            "ambiguity_type": "common_sense_knowledge",
            "amb_shortlist": "",
            "unambiguous_direct": "Scoop the vanilla ice cream into the dessert bowls and put the tub in the freezer.",
            "ambiguous_task": "Scoop the vanilla ice cream into the dessert bowls and put the tub away.",
            "question": "Where should the tub go after scooping?",
            "answer": "Back into the freezer.",
            "plan_for_clear_task": f"1. {first_step}\n2. Scoop it into the dessert bowls.\n"
            "3. Put the tub in the freezer.\n4. Top with strawberries.",
            "plan_for_amb_task": f"1. {first_step}\n2. Scoop it into the dessert bowls.\n"
            "3. Put the tub away.\n4. Top with strawberries.",
            "end_of_ambiguity": "2",
            "user_intent": "freezer",
            "variants": "",
        }
        return [f.rule for f in failures_of_row(row, tmp_path, catalog, ["answer_leak", "answer_leak_suspect"])]

    return run


def test_the_place_a_thing_is_taken_out_of_is_only_a_suspicion(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak("Take the vanilla ice cream out of the freezer.") == ["answer_leak_suspect"]


def test_a_step_putting_the_thing_in_the_intended_place_is_a_leak(leak) -> None:  # type: ignore[no-untyped-def]
    assert leak("Clear a space for the tub in the freezer.") == ["answer_leak"]


TOAST = "toaster, bagels, butter knife, cutting board, plates, kitchen towel"


@pytest.fixture()
def around(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(answer: str, intent: str) -> list[str]:
        row = {
            "id": "1",
            **environment(TOAST),
            "ambiguity_type": "safety",
            "amb_shortlist": "",
            "unambiguous_direct": "Switch off the toaster at the wall, then tip it over the board to free the bagel.",
            "ambiguous_task": "Free the bagel stuck in the toaster.",
            "question": "Do I dig it out with the butter knife or with my fingers?",
            "answer": answer,
            "plan_for_clear_task": "1. Switch off the toaster at the wall.\n2. Tip it over the cutting board.",
            "plan_for_amb_task": "1. Look at the toaster.\n2. Tip it over the cutting board.",
            "end_of_ambiguity": "0",
            "user_intent": intent,
            "variants": "butter knife\nfingers",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["qa_fit"])]

    return run


def test_an_intent_outside_the_variants_the_question_offers_is_flagged(around) -> None:  # type: ignore[no-untyped-def]
    found = around("Switch it off at the wall first, then tip it over the board.", "switch off")
    assert len(found) == 1 and "as the variants do" in found[0]


def test_an_answer_taking_up_an_offered_variant_is_not_flagged(around) -> None:  # type: ignore[no-untyped-def]
    assert around("Use the butter knife, once it is switched off.", "butter knife") == []


SUGAR = "measuring cups, mixing bowl, brown sugar, flour, spoon"


@pytest.fixture()
def added(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(question: str) -> list[str]:
        row = {
            "id": "1",
            **environment(SUGAR),
            "ambiguity_type": "common_sense_knowledge",
            "amb_shortlist": "",
            "unambiguous_direct": "Measure a cup of brown sugar, pressed down firmly, into the mixing bowl.",
            "ambiguous_task": "Measure a cup of brown sugar into the mixing bowl.",
            "question": question,
            "answer": "Pressed down firmly.",
            "plan_for_clear_task": "1. Take a cup from the measuring cups.\n2. Press the brown sugar firmly into it."
            "\n3. Tip it into the mixing bowl.",
            "plan_for_amb_task": "1. Take a cup from the measuring cups for pressing the brown sugar.\n"
            "2. Fill it with brown sugar.\n3. Tip it into the mixing bowl.",
            "end_of_ambiguity": "1",
            "user_intent": "pressed|firmly",
            "variants": "",
        }
        return [f.rule for f in failures_of_row(row, tmp_path, catalog, ["answer_leak"])]

    return run


def test_a_step_adding_an_option_the_question_offers_with_or_leaks_it(added) -> None:  # type: ignore[no-untyped-def]
    assert added("Should the sugar be pressed into the cup or spooned in loosely?") == ["answer_leak"]


def test_a_step_saying_what_the_question_asks_about_does_not_leak(added) -> None:  # type: ignore[no-untyped-def]
    assert added("How should the sugar be pressed into the cup?") == []


CHICKEN = "chicken breast, olive oil, frying pan, meat thermometer, tongs, plate, stove"


@pytest.fixture()
def done(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(answer: str) -> list[str]:
        row = {
            "id": "1",
            **environment(CHICKEN),
            "ambiguity_type": "common_sense_knowledge",
            "amb_shortlist": "",
            "unambiguous_direct": "Fry the chicken breast in olive oil until the meat thermometer reads 165°F.",
            "ambiguous_task": "Fry the chicken breast in olive oil until it is done.",
            "question": "How can I tell when the chicken is done?",
            "answer": answer,
            "plan_for_clear_task": "1. Heat the olive oil in the frying pan.\n2. Fry the chicken breast.\n"
            "3. Push the meat thermometer into the chicken.\n4. Take it off when it reads 165°F.",
            "plan_for_amb_task": "1. Heat the olive oil in the frying pan.\n2. Fry the chicken breast.\n"
            "3. Push the meat thermometer into the chicken.\n4. Take it off when it is done.",
            "end_of_ambiguity": "3",
            "user_intent": "thermometer|165",
            "variants": "",
        }
        return [f.rule for f in failures_of_row(row, tmp_path, catalog, ["answer_leak", "answer_leak_suspect"])]

    return run


def test_a_tool_the_answer_gives_beside_a_number_is_leaked_by_an_earlier_step(done) -> None:  # type: ignore[no-untyped-def]
    assert done("Check it with the meat thermometer; it is done at 165°F.") == ["answer_leak"]


def test_a_tool_the_answer_does_not_give_is_only_a_suspicion(done) -> None:  # type: ignore[no-untyped-def]
    assert done("It is done at 165°F in the thickest part.") == ["answer_leak_suspect"]
