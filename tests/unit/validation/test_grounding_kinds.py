"""grounding on what a careful reader counts as the kitchen's thing or as missing: a food the task makes (from
its dough, in the vessel named for it while a step cooks, a dish of a scene food), the scene food in the form a
step makes of it, a scene name said without its last word or with its "with" part, a meat by its cut, a cheese
by its kind, and the ambiguous task's word for what the question asks about are in the kitchen; another food
of the same head ("almond milk" beside the whole milk) and another kind of a thing the kitchen lists several
kinds of ("a chef's knife" beside a bread and a paring knife) are missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(
        step: str,
        env: str,
        amb_task: str = "Get on with the task.",
        question: str = "Shall I start?",
        answer: str = "Yes.",
    ) -> list[str]:
        row = {
            "id": "1",
            **environment(env),
            "unambiguous_direct": "Get on with the task.",
            "ambiguity_type": "preferences",
            "ambiguous_task": amb_task,
            "question": question,
            "answer": answer,
            "plan_for_clear_task": f"1. Wash your hands.\n2. {step}",
            "plan_for_amb_task": f"1. Wash your hands.\n2. {step}",
            "end_of_ambiguity": "0",
            "user_intent": "start",
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["grounding"])]

    return run


@pytest.mark.parametrize(
    ("step", "env"),
    [
        # made from its dough
        ("Shape the pizza and slide it into the oven.", "oven, pizza dough, tomato sauce, pizza peel"),
        # baked in the tin named for it
        ("Bake for 20 minutes, then let the muffins cool in the muffin tin.", "oven, muffin tin, flour, eggs"),
        # simmered, then served in the bowls named for it
        (
            "Simmer the carrots in the broth, then ladle the soup into the soup bowls.",
            "stove, pot, carrots, broth, soup bowls",
        ),
        # a dish of the scene's food the step cooks
        ("Cook the oats in the milk and spoon the oatmeal into a bowl.", "stove, saucepan, rolled oats, milk, bowls"),
        # the scene's food in the form a step makes of it
        ("Grind the beans and put the ground coffee in the moka pot.", "coffee grinder, coffee beans, moka pot"),
        # a scene name with its "with" part left out
        ("Fill the glass jars with the jam.", "glass jars with lids, strawberry jam, spoon"),
        # a meat by its cut, a cheese by its kind
        ("Slice the beef thinly.", "lamb chops, beef sirloin, chef's knife, cutting board"),
        ("Lay the cheese on the bread.", "gouda slices, white bread, butter knife"),
        # a scene name said without its last word, then by its head alone
        ("Set the lemon sponge on the plate and put the second sponge on top.", "lemon sponge cakes, plate, jam"),
        # a thing under another common name, bread as its loaf, popcorn from its kernels
        ("Pour the tea into a cup.", "mugs, tea bags, kettle"),
        ("Cut the bread into slices.", "rye loaf, bread knife, cutting board"),
        ("Heat the kernels in the pot and tip the popcorn into a bowl.", "stove, pot, popcorn kernels, bowls"),
        # a word that opens a step with an article and a thing after it is the step's verb
        ("Bread the cutlets in the crumbs.", "pork cutlets, breadcrumbs, eggs, plate"),
        # the container of a scene name "X of Y", a vegetable by its cloves, a verb with "in" and the food it adds
        ("Move the eggs into the bowl.", "eggs, saucepan, stove, bowl of ice water"),
        ("Crush the garlic.", "garlic cloves, chef's knife, cutting board"),
        ("Warm the milk and whisk in the cocoa.", "milk, saucepan, stove, cocoa powder"),
        # a thing the step says not to use
        ("Stir with the wooden spoon, not with a metal whisk.", "saucepan, wooden spoon, milk"),
        ("Use the wooden spoon instead of a metal fork.", "saucepan, wooden spoon, milk"),
    ],
)
def test_what_the_kitchen_has_or_the_task_makes(grounding, step: str, env: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step, env) == []


@pytest.mark.parametrize(
    ("step", "env", "thing"),
    [
        # nothing cooks: the gravy is to be found, not made
        ("Pour the gravy into the gravy boat.", "gravy boat, roast chicken, carving knife", "'gravy'"),
        # a cut the kitchen has of another meat
        ("Slice the beef thinly.", "lamb chops, pork loin, chef's knife, cutting board", "'beef'"),
        # the step names what it needs, ground by no one
        ("Put a coffee filter in the coffee machine.", "coffee machine, ground coffee, mugs", "'coffee filter'"),
        # the tin is there but nothing bakes
        ("Take the muffins out of the muffin tin.", "muffin tin, plates", "'muffins'"),
        # no scene food it is a dish of: "peanut" beside the peas is no dish of them
        ("Cook the peas and sprinkle the peanuts on top.", "stove, saucepan, peas", "'peanuts'"),
        # a list of foods in a vessel: "salt" is a thing, not the verb "salt in"
        ("Toss the potatoes, oil and salt in the metal bowl.", "potatoes, oil, metal bowl", "'salt'"),
        # "whisk in the bowl" names the whisk
        ("Crack the eggs and whisk in the bowl.", "eggs, bowl, milk", "'whisk'"),
        # bread as a thing, not a verb
        ("Put the bread on the plate.", "pork cutlets, breadcrumbs, eggs, plate", "'bread'"),
        # the whisk the step goes on to use
        ("Stir with the wooden spoon, then with the metal whisk.", "saucepan, wooden spoon, milk", "'whisk'"),
    ],
)
def test_what_the_kitchen_lacks(grounding, step: str, env: str, thing: str) -> None:  # type: ignore[no-untyped-def]
    assert any(thing in f for f in grounding(step, env)), grounding(step, env)


@pytest.mark.parametrize(
    ("step", "env", "thing", "why"),
    [
        ("Pour the almond milk over the cereal.", "whole milk, cereal, bowls", "'almond milk'", "another food"),
        ("Toss the potatoes in olive oil.", "potatoes, sunflower oil, mixing bowl", "'olive oil'", "another food"),
        (
            "Dice the onion with the chef's knife.",
            "onion, bread knife, paring knife, cutting board",
            "'chef's knife'",
            "another kind",
        ),
    ],
)
def test_another_food_or_kind_of_what_the_kitchen_lists(grounding, step: str, env: str, thing: str, why: str) -> None:  # type: ignore[no-untyped-def]
    flags = grounding(step, env)
    assert any(thing in f and why in f for f in flags), flags


def test_one_thing_of_the_head_may_be_another_name(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    """A single knife of another kind is a suspicion (a warning), not a missing object."""
    row = {
        "id": "1",
        **environment("onion, paring knife, cutting board"),
        "unambiguous_direct": "Dice the onion.",
        "ambiguity_type": "preferences",
        "ambiguous_task": "Dice the onion.",
        "question": "How small?",
        "answer": "Small.",
        "plan_for_clear_task": "1. Dice the onion with the chef's knife.",
        "plan_for_amb_task": "1. Dice the onion with the chef's knife.",
        "end_of_ambiguity": "0",
        "user_intent": "small",
    }
    rules = [f.rule for f in failures_of_row(row, tmp_path, catalog, ["grounding", "grounding_variant"])]
    assert rules == ["grounding_variant"]


def test_the_word_the_question_asks_about(grounding) -> None:  # type: ignore[no-untyped-def]
    env = "stove, kettle, glass jug, glass carafe, tea bags"
    amb = "Brew the tea in a glass container."
    asked = grounding("Pour the water.", env, amb, "Which glass container should I use?", "The glass jug.")
    assert asked == []
    # the same word, not what the question asks about, is a thing of its own
    unasked = grounding("Pour the water.", env, amb, "How long should it steep?", "Five minutes.")
    assert any("'glass container'" in f for f in unasked), unasked


@pytest.mark.parametrize(
    ("env", "step"),
    [
        ("dish towel, tea towel, plates", "Dry the plates with the kitchen towel."),  # a towel by another name
        ("wine glass, highball glass, lemonade", "Pour the lemonade into the tall glass."),  # by its shape
    ],
)
def test_another_name_among_several_kinds_is_a_suspicion(tmp_path: Path, catalog, env: str, step: str) -> None:  # type: ignore[no-untyped-def]
    row = {
        "id": "1",
        **environment(env),
        "unambiguous_direct": step,
        "ambiguity_type": "preferences",
        "ambiguous_task": step,
        "question": "Now?",
        "answer": "Yes.",
        "plan_for_clear_task": f"1. {step}",
        "plan_for_amb_task": f"1. {step}",
        "end_of_ambiguity": "0",
        "user_intent": "yes",
    }
    rules = {f.rule for f in failures_of_row(row, tmp_path, catalog, ["grounding", "grounding_variant"])}
    assert rules == {"grounding_variant"}
