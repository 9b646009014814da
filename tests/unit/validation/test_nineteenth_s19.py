"""Nineteenth-round changes to corruption, shortlist and variants, read on the pooled fresh rows: each a row the
check must flag and a near row it must leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, rule_messages

ENV = (
    "blender, kettle, ceramic mug, hot chocolate mix, frozen bananas, whole milk, honey, tall glass, spoon, "
    "food processor, roasted red peppers, fresh basil, pine nuts, garlic, olive oil, parmesan cheese, glass jar, "
    "8-inch round cake pans, 9-inch round cake pans, cake batter, oven, toothpicks, cooling rack, "
    "sugar cookies, peanut butter cookies, oatmeal raisin cookies, plates, apples, paring knife, cutting board, "
    "whole wheat bread, sourdough bread, strawberry jam, peanut butter, butter knife, sandwich bags"
)


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


# corruption: the plural of a word ending in "-ie", and the "max" line of a kettle, are words.
KETTLE = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Fill the kettle no higher than the max line and boil it for the hot chocolate.",
    ambiguous_task="Fill the kettle and boil it for the hot chocolate.",
    question="How full should the kettle be?",
    answer="Up to the max line.",
    end_of_ambiguity="0",
    user_intent="max line",
    variants="Up to the max line\nTo the brim",
)
KETTLE_PLAN = "1. Fill the kettle to the max line.\n2. Boil it.\n3. Blend the smoothies for later."


def test_an_ie_plural_and_max_are_no_misspellings(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("corruption", **KETTLE, plan_for_clear_task=KETTLE_PLAN, plan_for_amb_task=KETTLE_PLAN) == []


def test_a_typo_beside_them_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    plan = KETTLE_PLAN.replace("Boil it", "Boil it untill it clicks")
    found = flags("corruption", **KETTLE, plan_for_clear_task=plan, plan_for_amb_task=KETTLE_PLAN)
    assert found == ["plan_for_clear_task[1]: misspelled word 'untill' ('until'?)"]


# shortlist: a size that is part of a name the kitchen lists is no amount.
PANS = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Divide the cake batter between the two 8-inch round cake pans and bake it.",
    ambiguous_task="Divide the cake batter between two round cake pans and bake it.",
    question="Which round pans should I use?",
    answer="The 8-inch ones.",
    plan_for_clear_task="1. Divide the batter between the 8-inch round cake pans.\n2. Bake them in the oven.",
    plan_for_amb_task="1. Divide the batter between two round cake pans.\n2. Bake them in the oven.",
    end_of_ambiguity="0",
    user_intent="8-inch",
)


def test_a_kitchen_name_with_a_size_is_no_amount(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **PANS, amb_shortlist="8-inch round cake pans, 9-inch round cake pans") == []


def test_a_size_the_kitchen_does_not_list_by_that_name_is_an_amount(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("shortlist", **PANS, amb_shortlist="8 inches, 9 inches")
    assert found == [
        "amb_shortlist: '8 inches' is an amount, not an object of the kitchen",
        "amb_shortlist: '9 inches' is an amount, not an object of the kitchen",
    ]


# shortlist: another food beside the intended one of a narrow food kind ("Which jam?") answers nothing.
SANDWICH = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Spread peanut butter and strawberry jam on two slices of whole wheat bread.",
    ambiguous_task="Spread peanut butter and jam on two slices of whole wheat bread.",
    answer="The strawberry jam.",
    plan_for_clear_task="1. Spread peanut butter on one slice.\n2. Spread strawberry jam on the other.",
    plan_for_amb_task="1. Spread peanut butter on one slice.\n2. Spread jam on the other.",
    end_of_ambiguity="1",
    user_intent="strawberry",
)


def test_another_food_beside_the_intended_jam_is_no_jam(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "shortlist", **SANDWICH, question="Which jam should I spread?", amb_shortlist="strawberry jam, peanut butter"
    )
    assert found == ["amb_shortlist: 'peanut butter' is no jam, which the question asks for"]


def test_the_same_options_for_a_spread_are_kin(flags) -> None:  # type: ignore[no-untyped-def]
    shortlist = "strawberry jam, peanut butter"
    assert flags("shortlist", **SANDWICH, question="Which spread should I use?", amb_shortlist=shortlist) == []


def test_a_jam_beside_the_intended_bread_is_no_bread(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {**SANDWICH, "user_intent": "sourdough", "answer": "The sourdough bread."}
    found = flags(
        "shortlist", **cells, question="Which bread should I use?", amb_shortlist="sourdough bread, strawberry jam"
    )
    assert found == ["amb_shortlist: 'strawberry jam' is no bread, which the question asks for"]


def test_breads_alone_are_options_of_bread(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {**SANDWICH, "user_intent": "sourdough", "answer": "The sourdough bread."}
    shortlist = "sourdough bread, whole wheat bread"
    assert flags("shortlist", **cells, question="Which bread should I use?", amb_shortlist=shortlist) == []


# variants: a dish to make is no object to take; another member of the intended kind is not the intended one.
SAUCE = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Make the roasted red pepper sauce in the food processor with garlic and olive oil.",
    ambiguous_task="Make a sauce in the food processor.",
    answer="The roasted red pepper sauce.",
    plan_for_clear_task="1. Put the roasted red peppers in the food processor.\n2. Blend them with garlic.",
    plan_for_amb_task="1. Put the ingredients in the food processor.\n2. Blend them.",
    end_of_ambiguity="0",
    user_intent="roasted red pepper",
    amb_shortlist="roasted red peppers, fresh basil",
    variants="Basil pesto\nRoasted red pepper sauce",
)


def test_a_dish_the_question_asks_to_make_is_not_looked_up(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **SAUCE, question="Which sauce should I make?") == []


def test_a_thing_to_take_that_the_kitchen_lacks_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("variants", **SAUCE, question="Which sauce should I use?")
    assert len(found) == 1 and "'Basil pesto' is offered, and the environment has no such object" in found[0]


COOKIES = dict(
    ambiguity_type="safety",
    unambiguous_direct="Put two sugar cookies on each plate, one of the kids is allergic to peanuts.",
    ambiguous_task="Put two cookies on each plate, one of the kids is allergic to peanuts.",
    question="Which cookies should go on the plates?",
    answer="The sugar cookies, keep the peanut butter cookies away from the allergic child.",
    plan_for_clear_task="1. Take the sugar cookies.\n2. Put two on each plate.",
    plan_for_amb_task="1. Take the cookies.\n2. Put two on each plate.",
    end_of_ambiguity="0",
    user_intent="sugar cookies",
)


def test_other_members_of_the_intended_kind_leave_it_out(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("variants", **COOKIES, variants="peanut butter cookies\noatmeal raisin cookies")
    assert len(found) == 1 and "'peanut butter cookies' is another cookie than the intended" in found[0]


def test_the_intended_member_among_its_kin_is_offered(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **COOKIES, variants="peanut butter cookies\nsugar cookies") == []


# variants: variants of another point than the question's are not made the answer by a task word it repeats.
TOPS = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Wash the apples, core them with the paring knife and slice them onto the plates.",
    ambiguous_task="Wash the apples and slice them onto the plates.",
    question="Should I take the cores out first?",
    answer="Yes, core them with the paring knife before slicing.",
    plan_for_clear_task="1. Wash the apples.\n2. Core them with the paring knife.\n3. Slice them onto the plates.",
    plan_for_amb_task="1. Wash the apples.\n2. Slice them onto the plates.",
    end_of_ambiguity="1",
    user_intent="core",
)


def test_variants_off_the_question_that_share_only_a_task_word_with_the_answer(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("variants", **TOPS, variants="Slice them in halves\nSlice them in quarters")
    assert len(found) == 1 and "none is the answer" in found[0]


def test_variants_that_answer_the_question_are_left_alone(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **TOPS, variants="Yes, take the cores out\nNo, leave them in") == []


def test_time_abbreviations_and_cooking_loanwords_are_words(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Fill the kettle to the max line.\n2. Boil it for 3 mins.\n3. Pour it over the ramen."
    assert flags("corruption", **KETTLE, plan_for_clear_task=plan, plan_for_amb_task=plan) == []


# shortlist and variants: the kitchen's own name written with other hyphens, spaces, apostrophes or accents.
BREADS = dict(
    **environment("whole-wheat bread, white bread, jalapeño peppers, toaster, butter, butter knife, plates"),
    ambiguity_type="preferences",
    unambiguous_direct="Toast two slices of the whole-wheat bread.",
    ambiguous_task="Toast two slices of bread.",
    question="Which bread should I toast?",
    answer="The whole-wheat bread.",
    plan_for_clear_task="1. Put two slices of whole-wheat bread in the toaster.\n2. Toast them.",
    plan_for_amb_task="1. Put two slices of bread in the toaster.\n2. Toast them.",
    end_of_ambiguity="0",
    user_intent="whole-wheat",
)


def test_a_name_written_otherwise_is_in_the_kitchen(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {**BREADS, "amb_shortlist": "whole wheat bread, white bread", "variants": "whole wheat bread\nwhite bread"}
    assert flags("shortlist", **cells) == [] and flags("variants", **cells) == []


def test_a_name_misspelled_is_still_missing(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {**BREADS, "amb_shortlist": "whole wheet bread, white bread"}
    found = flags("shortlist", **cells)
    assert len(found) == 1 and found[0].startswith("amb_shortlist: 'whole wheet bread' is not in the environment")


# corruption: the kitchen's accented name written without its accents is the same words.
CREME = dict(
    **environment("crème fraîche, strawberries, serving bowls, spoon, sugar"),
    ambiguity_type="preferences",
    ambiguous_task="Top the strawberries in the serving bowls.",
    question="What should I top them with?",
    answer="A spoon of creme fraiche.",
    plan_for_clear_task="1. Put the strawberries in the serving bowls.\n2. Top each with creme fraiche.",
    plan_for_amb_task="1. Put the strawberries in the serving bowls.\n2. Top each.",
    end_of_ambiguity="1",
    user_intent="creme fraiche",
)


def test_a_name_without_its_accents_is_no_misspelling(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("corruption", **CREME, unambiguous_direct="Top the strawberries with creme fraiche.") == []


def test_a_typo_of_the_name_without_accents_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("corruption", **CREME, unambiguous_direct="Top the strawberries with creme fraiche untill covered.")
    assert found == ["unambiguous_direct: misspelled word 'untill' ('until'?)"]


# corruption: a plan written in lower case throughout is a style; one lower-case step among capitalised ones is cut.
def test_a_plan_in_lower_case_throughout_is_a_style(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. put the strawberries in the serving bowls.\n2. top each with creme fraiche.\n3. serve them."
    cells = {**CREME, "unambiguous_direct": "Top the strawberries with creme fraiche.", "plan_for_clear_task": plan}
    assert flags("corruption", **cells) == []


def test_one_lower_case_step_among_capitalised_ones_is_cut(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Put the strawberries in the serving bowls.\n2. spoon creme fraiche on each.\n3. Serve them."
    cells = {**CREME, "unambiguous_direct": "Top the strawberries with creme fraiche.", "plan_for_clear_task": plan}
    found = flags("corruption", **cells)
    assert found == ["plan_for_clear_task[1]: starts mid-word or mid-sentence: 'spoon creme fraiche on each.'"]


# corruption: a step holding the next step's number is two steps on one line; another number is an amount.
def test_the_next_step_run_on_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Put the strawberries in the serving bowls. 2. Top each with creme fraiche.\n3. Serve them."
    cells = {**CREME, "unambiguous_direct": "Top the strawberries with creme fraiche.", "plan_for_clear_task": plan}
    assert flags("corruption", **cells) == ["plan_for_clear_task[0]: several numbered steps on one line ('. 2. T')"]


def test_a_number_out_of_the_plan_count_is_an_amount(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Cut each strawberry into 8. Put them in the serving bowls.\n2. Top each with creme fraiche."
    cells = {**CREME, "unambiguous_direct": "Top the strawberries with creme fraiche.", "plan_for_clear_task": plan}
    assert flags("corruption", **cells) == []


# shortlist: a size joined to its unit before a noun, or a percentage, says which thing, not how much.
def test_a_size_before_a_noun_is_no_amount(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **PANS, amb_shortlist="8-inch pans, 9-inch pans") == []


def test_a_number_of_units_is_still_an_amount(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("shortlist", **PANS, amb_shortlist="8-inch pans, 2 cups")
    assert found == ["amb_shortlist: '2 cups' is an amount, not an object of the kitchen"]
