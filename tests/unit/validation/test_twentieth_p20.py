"""Twentieth-round changes to type and plan_mismatch, read on the pooled fresh rows: each a row the check must
flag and a near row it must leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = (
    "clean dish cloths, laundry basket, upper drawer, lower drawer, sink, crackers, raw chicken, fridge, "
    "wholemeal bread, almond spread, sunflower spread, butter knife, lunch box, baby spinach, colander, salad bowl, "
    "beef roast, roasting pan, meat thermometer, oven, toaster, butter, orange marmalade, plate, "
    "red potatoes, shallots, paper sack, wire basket, pantry, grill pan, tofu patties, turkey burgers, buns, lettuce"
)


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


# type: a hazard word counts only where a word starts with it ("raw" of "drawer" is no raw food, "crack" of
# "crackers" no crack), and a thing kept from a group ("nut-free", "contains nuts") is an allergy hazard.
DRAWER = dict(
    ambiguity_type="safety",
    unambiguous_direct="Fold the clean dish cloths from the laundry basket and put them in the upper drawer.",
    ambiguous_task="Fold the clean dish cloths from the laundry basket and put them in a drawer.",
    plan_for_clear_task="1. Fold the dish cloths.\n2. Put them in the upper drawer.",
    plan_for_amb_task="1. Fold the dish cloths.\n2. Put them in a drawer.",
    end_of_ambiguity="1",
    user_intent="upper drawer",
    variants="upper drawer\nlower drawer",
)


def test_a_drawer_question_names_no_hazard(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **DRAWER, question="Which drawer should the dish cloths go in?", answer="The upper drawer.")
    assert len(found) == 1 and "name no hazard" in found[0]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which shelf should the raw chicken go on?", "The bottom one."),  # "raw" as a word
        ("Which drawer, away from the crackers?", "The upper one, the lower one is cracked."),  # "cracked"
        ("Which drawer should the dish cloths go in?", "The upper one, with the antibacterial spray."),  # a prefix
    ],
)
def test_hazard_words_said_whole_keep_the_safety_type(flags, question: str, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("type", **DRAWER, question=question, answer=answer) == []


def test_crackers_are_no_crack(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **DRAWER, question="Which drawer do the crackers go in?", answer="The upper drawer.")
    assert len(found) == 1 and "name no hazard" in found[0]


LUNCH = dict(
    ambiguity_type="safety",
    unambiguous_direct="Make a sandwich of wholemeal bread with sunflower spread and put it in the lunch box.",
    ambiguous_task="Make a sandwich of wholemeal bread with a spread and put it in the lunch box.",
    plan_for_clear_task="1. Spread sunflower spread on the bread.\n2. Put the sandwich in the lunch box.",
    plan_for_amb_task="1. Spread a spread on the bread.\n2. Put the sandwich in the lunch box.",
    end_of_ambiguity="0",
    user_intent="sunflower spread",
)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Which spread may go to a nut-free class?", "The sunflower spread."),
        ("Which spread should I use?", "The sunflower one; the other contains almonds."),
    ],
)
def test_a_thing_kept_from_someone_is_a_safety_concern(flags, question: str, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("type", **LUNCH, question=question, answer=answer) == []


def test_a_spread_chosen_with_no_reason_names_no_hazard(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **LUNCH, question="Which spread should I use?", answer="The sunflower one.")
    assert len(found) == 1 and "name no hazard" in found[0]


# type: a preferences row asking a yes or no, its options only a yes and a no, has nothing to prefer; an answer
# that refuses and names another thing offers that thing instead.
SPINACH = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Rinse the baby spinach in the colander and put it in the salad bowl.",
    ambiguous_task="Put the baby spinach in the salad bowl.",
    question="Should I rinse the baby spinach first?",
    plan_for_clear_task="1. Rinse the baby spinach in the colander.\n2. Put it in the salad bowl.",
    plan_for_amb_task="1. Take the baby spinach.\n2. Put it in the salad bowl.",
    end_of_ambiguity="0",
    user_intent="rinse, colander",
    variants="Yes, rinse it\nNo, use it as it is",
)


def test_yes_and_no_options_are_no_things_to_prefer(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **SPINACH, answer="Yes, rinse it in the colander.")
    assert len(found) == 1 and "asks for a yes or no" in found[0]


def test_a_refusing_answer_that_names_another_thing_leaves_a_choice(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("type", **SPINACH, answer="No, wipe it with the dish cloths instead.") == []


# type: a liking of what the question already fixes ("for medium") is no taste asked.
ROAST = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Roast the beef roast until the meat thermometer reads 140°F.",
    ambiguous_task="Roast the beef roast until it is medium.",
    question="What should the meat thermometer read for a medium roast?",
    plan_for_clear_task="1. Put the beef roast in the roasting pan.\n2. Roast until the meat thermometer reads 140°F.",
    plan_for_amb_task="1. Put the beef roast in the roasting pan.\n2. Roast until it is medium.",
    end_of_ambiguity="1",
    user_intent="140",
)


def test_liking_what_the_question_fixes_is_no_taste(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("type", **ROAST, answer="Medium means a little pink inside, that is how we like it.") == []


def test_liking_what_the_answer_gives_is_a_taste(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **ROAST, answer="A little pink inside, that is how we like it.")
    assert len(found) == 1 and "the answer's reason is the user's taste" in found[0]


# plan_mismatch: a food's kind said only as a step's verb ("spread" of the marmalade) does not take the food up.
TOAST = dict(
    ambiguity_type="preferences",
    question="Which bread should I toast?",
    answer="The wholemeal bread.",
    user_intent="wholemeal bread",
    unambiguous_direct="Toast the wholemeal bread and spread butter and orange marmalade on it.",
    ambiguous_task="Toast some bread and spread butter and orange marmalade on it.",
    plan_for_clear_task="1. Toast the wholemeal bread in the toaster.\n2. Spread butter and orange marmalade on it.\n"
    "3. Put it on the plate.",
    end_of_ambiguity="0",
)


def test_a_kind_said_only_as_the_verb_does_not_take_the_food_up(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **TOAST,
        plan_for_amb_task="1. Toast the bread in the toaster.\n2. Spread butter on it.\n3. Put it on the plate.",
    )
    assert any("plan_for_amb_task: never takes up the orange marmalade" in m for m in found)


def test_a_food_said_by_its_own_name_is_taken_up(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **TOAST,
        plan_for_amb_task="1. Toast the bread in the toaster.\n2. Spread butter and the marmalade on it.\n"
        "3. Put it on the plate.",
    )
    assert found == []


# plan_mismatch: a place the task puts things in, named by the kitchen list though the catalog does not know it.
STORE = dict(
    ambiguity_type="common_sense_knowledge",
    question="Where should the paper sack of red potatoes go?",
    answer="In the pantry.",
    user_intent="pantry",
    unambiguous_direct="Put the red potatoes in the paper sack and store it in the pantry, and put the shallots in "
    "the wire basket.",
    ambiguous_task="Put the red potatoes in the paper sack and store it, and put the shallots in the wire basket.",
    plan_for_clear_task="1. Put the red potatoes in the paper sack.\n2. Put the sack in the pantry.\n"
    "3. Put the shallots in the wire basket.",
    end_of_ambiguity="1",
)


def test_a_plan_that_puts_things_elsewhere_than_the_kitchen_place_its_task_names(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **STORE,
        plan_for_amb_task="1. Put the red potatoes in the paper sack.\n2. Store the sack.\n"
        "3. Put the shallots in the paper sack too.",
    )
    assert any("plan_for_amb_task: never puts things on or in the wire basket" in m for m in found)


def test_a_plan_that_puts_things_in_the_kitchen_place_its_task_names(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **STORE,
        plan_for_amb_task="1. Put the red potatoes in the paper sack.\n2. Store the sack.\n"
        "3. Put the shallots in the wire basket.",
    )
    assert found == []


# plan_mismatch: a task naming a thing by a word and a head no kitchen name joins ("tofu burgers"), whose plan
# names whole the kitchen thing of that head with another word ("turkey burgers").
BURGER = dict(
    ambiguity_type="preferences",
    question="Which buns should I use?",
    answer="The buns on the counter.",
    user_intent="buns",
    ambiguous_task="Grill the tofu burgers in the grill pan and serve them on buns with lettuce.",
    unambiguous_direct="Grill the tofu burgers in the grill pan and serve them on the buns with lettuce.",
    plan_for_amb_task="1. Heat the grill pan.\n2. Grill the tofu patties.\n3. Serve them on buns with lettuce.",
    end_of_ambiguity="2",
)


def test_a_plan_using_another_thing_of_the_unlisted_kind_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **BURGER,
        plan_for_clear_task="1. Heat the grill pan.\n2. Grill the turkey burgers.\n"
        "3. Serve them on the buns with lettuce.",
    )
    assert any("uses the turkey burgers where its task names the tofu burger" in m for m in found)


def test_a_plan_using_the_thing_the_word_sets_apart_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **BURGER,
        plan_for_clear_task="1. Heat the grill pan.\n2. Grill the tofu patties.\n"
        "3. Serve them on the buns with lettuce.",
    )
    assert found == []


def test_a_task_thing_the_kitchen_lacks_may_be_done_with_another_of_its_head(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run = rule_messages("serving spoon, glass bowl, eggs, whisk", tmp_path, catalog)
    found = run(
        "plan_mismatch",
        ambiguity_type="preferences",
        question="How many eggs should I whisk?",
        answer="Three.",
        user_intent="3|three",
        unambiguous_direct="Whisk three eggs in the serving bowl.",
        ambiguous_task="Whisk some eggs in the serving bowl.",
        plan_for_clear_task="1. Crack three eggs into the glass bowl.\n2. Whisk them with the whisk.",
        plan_for_amb_task="1. Crack some eggs into the glass bowl.\n2. Whisk them with the whisk.",
        end_of_ambiguity="0",
    )
    assert found == []
