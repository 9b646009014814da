"""Twentieth-round changes to qa_fit, corruption, shortlist and minimal_pair, read on the pooled fresh rows: each a
row the check must flag or leave alone, and a near row with the other outcome."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = (
    "cilantro, parsley, "
    "paring knife, vegetable peeler, dishwasher, sink, scrub brush, dish soap, tea towel, knife block, kettle, "
    "white vinegar, measuring jug, washing machine, frying pan, stove, oat milk, whole milk, soy milk, blender, "
    "bananas, tall glass, pancakes, plate, maple syrup, golden syrup, apples, shrimp, colander, glass mug, travel mug"
)


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


def _plan(*steps: str) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1))


# qa_fit: an intent that rules out one thing the question offers takes the other side of its "or".
PEELER = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Wash the paring knife by hand with the scrub brush and dish soap, then put it in the block.",
    ambiguous_task="Wash the paring knife and put it in the knife block.",
    question="Should the paring knife go in the dishwasher or be washed by hand?",
    answer="By hand with the scrub brush; the dishwasher blunts it.",
    plan_for_clear_task=_plan("Scrub the paring knife with the brush and dish soap.", "Put it in the knife block."),
    plan_for_amb_task=_plan("Wash the paring knife.", "Put it in the knife block."),
    end_of_ambiguity="0",
)


def test_an_intent_ruling_out_an_offered_thing_is_among_the_offers(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **PEELER, user_intent="scrub brush, -dishwasher") == []


def test_an_intent_of_another_thing_is_still_outside_the_offers(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**PEELER, "answer": "Use the tea towel.", "user_intent": "tea towel"}
    assert flags("qa_fit", **row) == [
        "user_intent: 'tea towel' is none of the things the question offers: "
        "'Should the paring knife go in the dishwasher or be washed by hand?'"
    ]


# qa_fit: the answer says the very word the intent adds to the question ("Up." for 'handle up').
KETTLE = dict(
    ambiguity_type="safety",
    unambiguous_direct="Stand the paring knife in the dishwasher basket with the handle up.",
    ambiguous_task="Stand the paring knife in the dishwasher basket.",
    question="Which way should the handle of the paring knife face in the basket?",
    plan_for_clear_task=_plan("Open the dishwasher.", "Stand the paring knife in the basket, handle up."),
    plan_for_amb_task=_plan("Open the dishwasher.", "Stand the paring knife in the basket."),
    end_of_ambiguity="1",
    user_intent="handle up",
)


def test_an_answer_saying_what_the_intent_adds_answers(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **KETTLE, answer="Up, so the blade stays out of reach of fingers.") == []


def test_an_answer_about_something_else_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **KETTLE, answer="Run the eco wash afterwards.") != []


# corruption: two nouns written as one are a word, not a typo of the word one edit away.
DESCALE = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Fill the kettle with white vinegar and water to shift the limescale, boil it and rinse it.",
    ambiguous_task="Fill the kettle with something that shifts limescale, boil it and rinse it.",
    question="What should I put in the kettle against the limescale?",
    answer="White vinegar with water.",
    end_of_ambiguity="0",
    user_intent="white vinegar",
)
DESCALE_PLAN = _plan("Pour white vinegar and water into the kettle.", "Boil it.", "Rinse it twice.")


def test_a_closed_compound_is_no_misspelling(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("corruption", **DESCALE, plan_for_clear_task=DESCALE_PLAN, plan_for_amb_task=DESCALE_PLAN) == []


def test_a_word_cut_at_its_start_is_no_compound(flags) -> None:  # type: ignore[no-untyped-def]
    plan = DESCALE_PLAN.replace("Pour white vinegar", "Pour two ablespoons of white vinegar")
    found = flags("corruption", **DESCALE, plan_for_clear_task=plan, plan_for_amb_task=DESCALE_PLAN)
    assert found == ["plan_for_clear_task[0]: misspelled word 'ablespoons' ('tablespoons'?)"]


# shortlist: options that are kinds of a setting the question asks for ("Which cycle ...?") are no kitchen things.
CYCLE = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Put the tea towel in the washing machine and run the delicate cycle.",
    ambiguous_task="Put the tea towel in the washing machine and run it.",
    question="Which cycle should I run the washing machine on?",
    answer="The delicate cycle.",
    plan_for_clear_task=_plan("Put the tea towel in the washing machine.", "Run the delicate cycle."),
    plan_for_amb_task=_plan("Put the tea towel in the washing machine.", "Run the washing machine."),
    end_of_ambiguity="1",
    user_intent="delicate",
    variants="delicate cycle\nquick cycle",
)


def test_settings_asked_by_their_kind_are_not_looked_up(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **CYCLE, amb_shortlist="delicate cycle, quick cycle") == []


def test_things_of_a_kitchen_kind_are_still_looked_up(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**CYCLE, "question": "Which pan should I use?", "amb_shortlist": "frying pan, copper pan"}
    assert "amb_shortlist: 'copper pan' is not in the environment" in flags("shortlist", **row)


# shortlist: a past participle alone ("peeled") is a state, not a thing.
APPLES = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Slice the apples onto the plate.",
    ambiguous_task="Slice some fruit onto the plate.",
    question="Which fruit should I slice?",
    answer="The apples.",
    plan_for_clear_task=_plan("Slice the apples.", "Put them on the plate."),
    plan_for_amb_task=_plan("Slice the fruit.", "Put it on the plate."),
    end_of_ambiguity="0",
    user_intent="apples",
    variants="apples\nbananas",
)


def test_a_participle_option_is_an_attribute(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **APPLES, amb_shortlist="apples, bananas, peeled") == [
        "amb_shortlist: 'peeled' is an attribute, not an object of the kitchen"
    ]


def test_a_thing_named_with_its_state_is_a_thing(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **APPLES, amb_shortlist="apples, bananas, peeled shrimp") == []


# minimal_pair: the clear task says the same things as the ambiguous one, or only the word every option shares.
SMOOTHIE = dict(
    ambiguity_type="preferences",
    ambiguous_task="Blend a cup of ice, two bananas and some milk and pour it into the tall glass.",
    question="Which milk should I use?",
    answer="Oat milk.",
    plan_for_clear_task=_plan("Blend the bananas with a cup of oat milk.", "Pour it into the tall glass."),
    plan_for_amb_task=_plan("Blend the bananas with some milk.", "Pour it into the tall glass."),
    end_of_ambiguity="0",
    user_intent="oat milk",
    amb_shortlist="oat milk, whole milk, soy milk",
    variants="oat milk\nwhole milk\nsoy milk",
)


def test_a_clear_task_with_the_same_content_leaves_the_choice_open(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Blend a cup of ice, two bananas and a cup of milk and pour it into the tall glass."
    assert flags("minimal_pair", **SMOOTHIE, unambiguous_direct=clear) == [
        "unambiguous_direct: says the same things as the ambiguous task, only in other small words, and names none "
        "of the intent (oat milk): the clear task leaves the same choice open"
    ]


def test_a_clear_task_naming_the_intent_is_minimal(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Blend a cup of ice, two bananas and a cup of oat milk and pour it into the tall glass."
    assert flags("minimal_pair", **SMOOTHIE, unambiguous_direct=clear) == []


SYRUP = dict(
    ambiguity_type="preferences",
    ambiguous_task="Put the pancakes on the plate and drizzle something sweet over them.",
    question="Which syrup should I drizzle over the pancakes?",
    answer="The maple syrup.",
    plan_for_clear_task=_plan("Put the pancakes on the plate.", "Drizzle the syrup over them."),
    plan_for_amb_task=_plan("Put the pancakes on the plate.", "Drizzle something sweet over them."),
    end_of_ambiguity="1",
    user_intent="maple syrup",
    amb_shortlist="maple syrup, golden syrup",
    variants="maple syrup\ngolden syrup",
)


def test_a_clear_task_saying_only_the_shared_word_leaves_the_choice_open(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Put the pancakes on the plate and drizzle syrup over them."
    assert flags("minimal_pair", **SYRUP, unambiguous_direct=clear) == [
        "unambiguous_direct: says no word of 'maple syrup', and what it says beyond the ambiguous task (syrup) "
        "names none of the intent: the clear task leaves the same choice open"
    ]


def test_a_clear_task_saying_the_intended_syrup_is_minimal(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Put the pancakes on the plate and drizzle maple syrup over them."
    assert flags("minimal_pair", **SYRUP, unambiguous_direct=clear) == []


# qa_fit: "the refrigerator" is the fridge, and "Refrigerate it." says where by the place's verb.
STORE = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Put the oat milk in the fridge.",
    ambiguous_task="Put the oat milk away.",
    question="Where should I put the oat milk?",
    plan_for_clear_task=_plan("Pick up the oat milk.", "Put it in the fridge."),
    plan_for_amb_task=_plan("Pick up the oat milk.", "Put it away."),
    end_of_ambiguity="1",
    user_intent="fridge",
    variants="fridge\nkitchen counter",
)


@pytest.mark.parametrize("answer", ["In the refrigerator door.", "Refrigerate it, please."])
def test_a_place_by_its_other_name_or_its_verb_answers(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **STORE, answer=answer) == []


def test_an_answer_naming_no_place_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **STORE, answer="Shake it well first.") != []


# qa_fit: a modifier joined by hyphens ("see-through") describes an option as an adjective does.
MUGS = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Pour the oat milk into the glass mug.",
    ambiguous_task="Pour the oat milk into a mug.",
    question="Which mug should I pour it into?",
    plan_for_clear_task=_plan("Pick up the glass mug.", "Pour the oat milk into it."),
    plan_for_amb_task=_plan("Pick up a mug.", "Pour the oat milk into it."),
    end_of_ambiguity="0",
    user_intent="glass mug",
    amb_shortlist="glass mug, travel mug",
    variants="glass mug\ntravel mug",
)


def test_a_hyphened_description_may_be_the_option(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **MUGS, answer="The see-through one.") == []


def test_an_answer_naming_another_thing_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **MUGS, answer="The kettle first, then the sponge.") != []


# shortlist: the kitchen's own fixtures and the parts of a thing the question names are not looked up.
OVEN = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Bake the apples on the middle rack of the oven.",
    ambiguous_task="Bake the apples in the oven.",
    answer="The middle rack.",
    plan_for_clear_task=_plan("Put the apples in a dish.", "Bake them on the middle rack."),
    plan_for_amb_task=_plan("Put the apples in a dish.", "Bake them in the oven."),
    end_of_ambiguity="1",
    user_intent="middle rack",
    variants="top rack\nmiddle rack",
)


def test_parts_of_the_thing_the_question_names_are_not_looked_up(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**OVEN, "question": "Which rack of the oven should the apples go on?"}
    assert flags("shortlist", **row, amb_shortlist="top rack, middle rack") == []


def test_parts_of_nothing_named_are_still_looked_up(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**OVEN, "question": "Which rack should the apples go on?"}
    assert flags("shortlist", **row, amb_shortlist="top rack, middle rack") == [
        "amb_shortlist: 'top rack' is not in the environment",
        "amb_shortlist: 'middle rack' is not in the environment",
    ]


def test_shelves_are_the_kitchen_itself(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**OVEN, "question": "Which shelf should the apples go on?", "user_intent": "top shelf"}
    assert flags("shortlist", **row, amb_shortlist="top shelf, bottom shelf") == []


def test_participles_alone_are_ways_of_cooking(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**APPLES, "question": "How should I cook the apples?", "user_intent": "baked"}
    assert flags("shortlist", **row, amb_shortlist="baked, stewed") == []


# variants: "the glass one" names the glass mug; "In the refrigerator" and "Refrigerate it" name the fridge.
def test_a_variant_saying_one_for_the_noun_names_the_option(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**MUGS, "answer": "The glass mug."}
    assert flags("variants", **row) == []
    assert flags("variants", **{**row, "variants": "the glass one\nthe travel one"}) == []


def test_variants_of_other_mugs_are_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**MUGS, "answer": "The glass mug.", "variants": "the ceramic one\nthe travel one"}
    assert flags("variants", **row) == [
        "variants: none is the intended option (glass mug); variants: the ceramic one; the travel one"
    ]


@pytest.mark.parametrize("variants", ["In the refrigerator\nOn the kitchen counter", "Refrigerate it\nLeave it out"])
def test_the_fridge_by_another_name_is_offered(flags, variants: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **{**STORE, "answer": "In the fridge.", "variants": variants}) == []


def test_variants_without_the_fridge_are_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**STORE, "answer": "In the fridge.", "variants": "In the cupboard\nOn the kitchen counter"}
    found = flags("variants", **row)
    assert found == [
        "variants: none is the answer 'In the fridge.' or the intent (fridge); variants: In the cupboard; "
        "On the kitchen counter"
    ]


# corruption: kitchen words of other Englishes and cuisines ("hob", "ghee", "bok choy") are words.
def test_kitchen_words_the_dictionary_lacks_are_known(flags) -> None:  # type: ignore[no-untyped-def]
    plan = _plan("Melt the ghee in the frying pan on the hob.", "Fry the bok choy and the chard in it.")
    assert flags("corruption", **DESCALE, plan_for_clear_task=plan, plan_for_amb_task=plan) == []


def test_a_typo_beside_them_is_still_a_typo(flags) -> None:  # type: ignore[no-untyped-def]
    plan = _plan("Melt the ghee in the frying pan on the hob.", "Fry the bok choy in it untill soft.")
    found = flags("corruption", **DESCALE, plan_for_clear_task=plan, plan_for_amb_task=plan)
    assert "plan_for_clear_task[1]: misspelled word 'untill' ('until'?)" in found


# qa_fit: "a pair" gives a count as a numeral does.
PAIR = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Fry two apples in the frying pan.",
    ambiguous_task="Fry some apples in the frying pan.",
    question="How many apples should I fry?",
    plan_for_clear_task=_plan("Heat the frying pan.", "Fry two apples."),
    plan_for_amb_task=_plan("Heat the frying pan.", "Fry the apples."),
    end_of_ambiguity="1",
    user_intent="two|2",
)


def test_a_count_in_a_word_is_an_amount(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **PAIR, answer="A pair, please.") == []


def test_an_answer_without_a_count_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **PAIR, answer="Whatever looks ripe.") != []


# shortlist: options a writer separates by semicolons, slashes or line breaks are several options.
@pytest.mark.parametrize("shortlist", ["glass mug; travel mug", "glass mug / travel mug", "glass mug\ntravel mug"])
def test_other_separators_make_several_options(flags, shortlist: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **{**MUGS, "answer": "The glass mug.", "amb_shortlist": shortlist}) == []


def test_one_option_is_still_one(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("shortlist", **{**MUGS, "answer": "The glass mug.", "amb_shortlist": "glass mug"}) == [
        "amb_shortlist: has one option ('glass mug'); a choice needs at least 2"
    ]


# corruption: a plan numbered "Step 1:", "Step 2:" ... throughout is numbered so; counted from 0 it is damaged.
def test_a_plan_numbered_from_one_in_its_own_way_is_a_style(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "Step 1: Pour white vinegar into the kettle.\nStep 2: Boil it.\nStep 3: Rinse it twice."
    assert flags("corruption", **DESCALE, plan_for_clear_task=plan, plan_for_amb_task=plan) == []


def test_a_plan_counted_from_zero_is_still_damaged(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "0: Pour white vinegar into the kettle.\n1: Boil it.\n2: Rinse it twice."
    found = flags("corruption", **DESCALE, plan_for_clear_task=plan, plan_for_amb_task=DESCALE_PLAN)
    assert "plan_for_clear_task[0]: stray step prefix '0:' inside the step" in found


# qa_fit: an answer put as a question that says the intended option gives it as a suggestion.
def test_a_suggestion_naming_the_option_answers(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **MUGS, answer="How about the glass one?") == []


def test_a_question_back_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **MUGS, answer="Which one is cleaner?") == [
        "answer: is itself a question: 'Which one is cleaner?'"
    ]


# minimal_pair: "the refrigerator" or "refrigerate it" for the fridge changes no more than the open point.
SOUP = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Pour the oat milk into the glass mug and put the rest in the fridge.",
    question="Which mug should I use?",
    answer="The glass mug.",
    plan_for_clear_task=_plan("Pour the oat milk into the glass mug.", "Put the rest in the fridge."),
    plan_for_amb_task=_plan("Pour the oat milk into a mug.", "Put the rest in the fridge."),
    end_of_ambiguity="0",
    user_intent="glass mug",
    amb_shortlist="glass mug, travel mug",
    variants="glass mug\ntravel mug",
)


@pytest.mark.parametrize("rest", ["put the rest in the refrigerator", "refrigerate the rest"])
def test_the_fridge_by_another_name_is_no_change(flags, rest: str) -> None:  # type: ignore[no-untyped-def]
    assert flags("minimal_pair", **SOUP, ambiguous_task=f"Pour the oat milk into a mug and {rest}.") == []


def test_another_place_is_still_a_change(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "minimal_pair", **SOUP, ambiguous_task="Pour the oat milk into a mug and put the rest on the counter."
    )
    assert found and found[0].startswith("ambiguous_task: changes more than the open point: drops fridge")


@pytest.mark.parametrize(("clear", "amb"), [("on the stove", "on the hob"), ("on the counter", "on the worktop")])
def test_a_fixture_by_its_other_name_is_no_change(flags, clear: str, amb: str) -> None:  # type: ignore[no-untyped-def]
    row = {**SOUP, "unambiguous_direct": f"Pour the oat milk into the glass mug and leave the rest {clear}."}
    assert flags("minimal_pair", **row, ambiguous_task=f"Pour the oat milk into a mug and leave the rest {amb}.") == []


# variants: a which-question asks for a kind the intent says, and no variant is of it.
FRUIT_KNIFE = dict(
    ambiguity_type="safety",
    unambiguous_direct="Peel the apples with the vegetable peeler and put them on the plate.",
    ambiguous_task="Peel the apples and put them on the plate.",
    question="Which peeler should I use for the apples?",
    answer="Put them on the plate afterwards.",
    plan_for_clear_task=_plan("Take the vegetable peeler.", "Peel the apples.", "Put them on the plate."),
    plan_for_amb_task=_plan("Take a tool.", "Peel the apples.", "Put them on the plate."),
    end_of_ambiguity="0",
    user_intent="vegetable peeler",
)


def test_variants_of_another_kind_than_asked_are_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **FRUIT_KNIFE, variants="plate\ncolander") == [
        "variants: none is the intended option (vegetable peeler) nor any peeler, which the question asks for; "
        "variants: plate; colander"
    ]


def test_variants_naming_the_intent_by_its_mark_are_not(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **FRUIT_KNIFE, variants="vegetable\nparing knife") == []


def test_variants_saying_one_for_the_kind_are_of_it(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **FRUIT_KNIFE, variants="the sharp one\nthe blunt one") == [
        "variants: none is the answer 'Put them on the plate afterwards.' or the intent (vegetable peeler); "
        "variants: the sharp one; the blunt one"
    ]


# minimal_pair: "a couple of apples" says the clear task's "two apples".
APPLE_MUG = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Slice two apples onto the plate and pour oat milk into the glass mug.",
    question="Which mug should I use?",
    answer="The glass mug.",
    plan_for_clear_task=_plan("Slice two apples onto the plate.", "Pour oat milk into the glass mug."),
    plan_for_amb_task=_plan("Slice two apples onto the plate.", "Pour oat milk into a mug."),
    end_of_ambiguity="1",
    user_intent="glass mug",
    amb_shortlist="glass mug, travel mug",
    variants="glass mug\ntravel mug",
)


def test_a_count_in_words_keeps_the_amount(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "Slice a couple of apples onto the plate and pour oat milk into a mug."
    assert flags("minimal_pair", **APPLE_MUG, ambiguous_task=amb) == []


def test_an_amount_dropped_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "Slice some apples onto the plate and pour oat milk into a mug."
    assert flags("minimal_pair", **APPLE_MUG, ambiguous_task=amb) == [
        "ambiguous_task: drops the amounts 'two apples' of the clear task beside the open point, which neither the "
        "question, the answer nor the intent is about: the pair changes more than the open point"
    ]


# qa_fit: one food's British and American names are one food.
HERBS = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Sprinkle the cilantro over the shrimp.",
    ambiguous_task="Sprinkle a herb over the shrimp.",
    question="Which herb should I sprinkle over the shrimp?",
    plan_for_clear_task=_plan("Chop the cilantro.", "Sprinkle it over the shrimp."),
    plan_for_amb_task=_plan("Chop the herb.", "Sprinkle it over the shrimp."),
    end_of_ambiguity="0",
    user_intent="cilantro",
    amb_shortlist="cilantro, parsley",
    variants="cilantro\nparsley",
)


def test_a_food_by_its_other_english_name_answers(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **HERBS, answer="Coriander, please.") == []


def test_another_herb_is_still_another_answer(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("qa_fit", **HERBS, answer="Dill, please.") != []


def test_a_variant_by_the_other_english_name_offers_the_food(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("variants", **{**HERBS, "answer": "Cilantro.", "variants": "coriander\nparsley"}) == []


def test_a_food_by_its_other_english_name_is_no_change(flags) -> None:  # type: ignore[no-untyped-def]
    row = {**SOUP, "unambiguous_direct": "Pour the oat milk into the glass mug and top it with cilantro."}
    assert flags("minimal_pair", **row, ambiguous_task="Pour the oat milk into a mug and top it with coriander.") == []
