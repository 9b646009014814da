"""Narrowings of end_of_ambiguity, type and plan_mismatch read on pooled rows written by other hands: each a
row the check must still flag and a near row it must leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = (
    "stove, saucepan, teapot, kettle, chef's knife, paring knife, cutting board, kitchen towel, paper towels, "
    "dish soap, sponge, drying rack, stand mixer, rubber spatula, skillet, salmon fillet, sea salt, black "
    "pepper, olive oil, carrots, potatoes, onion, rice, flour, sugar, canned corn, oat flakes, "
    "green tea bags, black tea bags, pitcher, ice cubes, plate, bowl, pantry shelf, fridge, freezer, "
    "frozen berries, ice cream"
)


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


# end_of_ambiguity: a clear step before the index that already names the intended thing.
TEA = dict(
    ambiguity_type="preferences",
    amb_shortlist="green tea bags, black tea bags",
    unambiguous_direct="Boil water in the kettle, put a green tea bag in the teapot and pour the water over it.",
    ambiguous_task="Boil water in the kettle, put a tea bag in the teapot and pour the water over it.",
    question="Which tea should I make?",
    answer="Green tea.",
    user_intent="green tea",
    end_of_ambiguity="2",
)


def test_a_clear_step_before_the_index_names_the_intended_tea(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "end_of_ambiguity",
        **TEA,
        plan_for_clear_task="1. Boil water in the kettle.\n2. Put a green tea bag in the teapot.\n"
        "3. Pour the water into the teapot.",
        plan_for_amb_task="1. Boil water in the kettle.\n2. Put a tea bag in the teapot.\n"
        "3. Pour the water into the teapot.",
    )
    assert len(found) == 1 and "already names the intended 'green tea'" in found[0]


def test_plans_far_apart_in_length_do_not_line_up_by_index(flags) -> None:  # type: ignore[no-untyped-def]
    # the one vague ambiguous step is spelt out by several clear steps: the clear step 1 is no earlier choice
    found = flags(
        "end_of_ambiguity",
        **TEA,
        plan_for_clear_task="1. Boil water in the kettle.\n2. Put a green tea bag in the teapot.\n"
        "3. Pour the water into the teapot.\n4. Let it brew for 3 minutes.\n5. Take the tea bag out.",
        plan_for_amb_task="1. Boil water in the kettle.\n2. Take the teapot.\n3. Brew tea in the teapot.",
    )
    assert found == []


KNIFE = dict(
    ambiguity_type="safety",
    unambiguous_direct="Carry the chef's knife to the drying rack with the blade pointing down.",
    ambiguous_task="Carry the chef's knife to the drying rack.",
    question="How should I hold the knife while I carry it?",
    answer="By the handle, with the blade pointing down.",
    user_intent="handle, blade down",
    plan_for_clear_task="1. Pick up the chef's knife by the handle.\n2. Point the blade down.\n"
    "3. Put the knife on the drying rack.",
    end_of_ambiguity="1",
)


def test_an_open_manner_at_the_index_marks_the_choice_there(flags) -> None:  # type: ignore[no-untyped-def]
    # "Pick up" takes, it does not choose: the ambiguous step 0 is not left open, the one at the index is
    amb = "1. Pick up the chef's knife.\n2. Hold it safely.\n3. Put the knife on the drying rack."
    assert flags("end_of_ambiguity", **KNIFE, plan_for_amb_task=amb) == []


def test_without_the_open_manner_the_earlier_step_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "1. Pick up the chef's knife.\n2. Turn the knife.\n3. Put the knife on the drying rack."
    found = flags("end_of_ambiguity", **KNIFE, plan_for_amb_task=amb)
    assert len(found) == 1 and "already names the intended 'handle'" in found[0]


# type: a safety item whose answer keeps the body from harm names a hazard.
MIXER = dict(
    ambiguity_type="safety",
    unambiguous_direct="Switch off the stand mixer before scraping the bowl with the rubber spatula.",
    ambiguous_task="Scrape the bowl of the stand mixer with the rubber spatula.",
    plan_for_clear_task="1. Switch off the stand mixer.\n2. Scrape the bowl with the rubber spatula.",
    plan_for_amb_task="1. Get the stand mixer ready.\n2. Scrape the bowl with the rubber spatula.",
    end_of_ambiguity="0",
    user_intent="switch off",
)


def test_fingers_caught_are_a_hazard(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "type",
        **MIXER,
        question="Should I stop the stand mixer first?",
        answer="Yes, switch it off first, or your fingers can get caught.",
    )
    assert found == []


def test_a_safety_item_with_no_hazard_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **MIXER, question="Should I stop the stand mixer first?", answer="Yes, switch it off.")
    assert found == [
        "ambiguity_type: 'safety', but the question and answer name no hazard: 'Should I stop the stand mixer first?'"
    ]


# plan_mismatch: a food the task names that the plan never takes up.
SHELF = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Put the frozen berries and the ice cream in the freezer first, then the rice and the "
    "canned corn on the pantry shelf.",
    ambiguous_task="Put away the frozen berries, the ice cream, the rice and the canned corn.",
    question="Which things should I put away first?",
    answer="The frozen berries and the ice cream, into the freezer.",
    user_intent="frozen berries, ice cream, freezer",
    plan_for_clear_task="1. Put the frozen berries and the ice cream in the freezer.\n"
    "2. Put the rice and the canned corn on the pantry shelf.",
    end_of_ambiguity="0",
)


def test_the_rest_takes_up_what_is_left(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "1. Put away first the items that need it most.\n2. Put the rest on the pantry shelf."
    assert flags("plan_mismatch", **SHELF, plan_for_amb_task=amb) == []


def test_a_plan_that_forgets_a_food_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    amb = "1. Put the frozen berries in the freezer first.\n2. Put the ice cream and the rice away."
    found = flags("plan_mismatch", **SHELF, plan_for_amb_task=amb)
    assert found == ["plan_for_amb_task: never takes up the canned corn its task names"]


SOUP = dict(
    ambiguity_type="safety",
    amb_shortlist="",
    question="Can I blend the soup while it is boiling hot?",
    answer="No, let it cool first, hot soup can burn you.",
    user_intent="cool",
    end_of_ambiguity="0",
)


def test_a_dish_named_by_what_it_is_made_of_is_taken_up_by_its_head(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **SOUP,
        unambiguous_direct="Let the carrot soup cool, then blend the carrot soup in the saucepan.",
        ambiguous_task="Blend the carrot soup in the saucepan.",
        plan_for_clear_task="1. Let the soup cool for 10 minutes.\n2. Blend the soup in the saucepan.",
        plan_for_amb_task="1. Blend the soup in the saucepan.",
    )
    assert found == []


def test_a_plan_that_never_names_the_soup_is_still_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **SOUP,
        unambiguous_direct="Let the carrot soup cool, then blend the carrot soup in the saucepan.",
        ambiguous_task="Blend the carrot soup in the saucepan.",
        plan_for_clear_task="1. Let it cool for 10 minutes.\n2. Blend it in the saucepan.",
        plan_for_amb_task="1. Blend it in the saucepan.",
    )
    assert "plan_for_clear_task: never takes up the carrots its task names" in found, found


SALMON = dict(
    ambiguity_type="safety",
    unambiguous_direct="Pat the salmon fillet dry with paper towels before putting it into the hot olive oil "
    "in the skillet.",
    ambiguous_task="Put the salmon fillet into the hot olive oil in the skillet.",
    question="Should I dry the salmon before it goes into the hot oil?",
    answer="Yes, pat it dry, a wet fillet makes hot oil spit and burn you.",
    user_intent="pat dry, paper towels",
    end_of_ambiguity="1",
)


FRIED_CLEAR = (
    "1. Heat the olive oil in the skillet.\n2. Pat the salmon fillet dry with paper towels.\n3. Season it with "
    "sea salt and black pepper.\n4. Lay it in the skillet.\n5. Cook it 4 minutes per side.\n6. Fry it until golden."
)
FRIED_AMB = (
    "1. Heat the olive oil in the skillet.\n2. Get the salmon fillet ready.\n3. Season it with sea salt and black "
    "pepper.\n4. Lay it in the skillet.\n5. Cook it 4 minutes per side.\n6. Fry it until golden."
)


def test_seasoning_and_frying_the_fish_put_into_hot_oil_is_its_job(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("plan_mismatch", **SALMON, plan_for_clear_task=FRIED_CLEAR, plan_for_amb_task=FRIED_AMB)
    assert found == []


def test_the_same_plan_for_a_task_that_only_puts_the_fish_down_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **{
            **SALMON,
            "unambiguous_direct": "Pat the salmon fillet dry with paper towels and put it on the plate.",
            "ambiguous_task": "Put the salmon fillet on the plate.",
        },
        plan_for_clear_task=FRIED_CLEAR,
        plan_for_amb_task=FRIED_AMB,
    )
    assert [f for f in found if "has nothing to do with" in f or "cooks, which its task never asks" in f], found


ICED = dict(
    ambiguity_type="safety",
    unambiguous_direct="Brew the black tea bags in the teapot, let the tea cool, then pour it into the pitcher.",
    ambiguous_task="Brew the black tea bags in the teapot and pour the tea into the pitcher.",
    question="Should I pour the hot tea straight into the pitcher?",
    answer="No, let it cool first, hot tea can crack the glass.",
    user_intent="cool",
    plan_for_amb_task="1. Brew the black tea bags in the teapot.\n2. Pour the tea into the pitcher.",
    end_of_ambiguity="1",
)


def test_a_plan_that_brews_the_other_tea_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "1. Brew the green tea bags in the teapot.\n2. Let the tea cool.\n3. Pour the tea into the pitcher."
    found = flags("plan_mismatch", **ICED, plan_for_clear_task=clear)
    assert found == ["plan_for_clear_task: uses the green tea bags where its task names the black tea bags"]


def test_a_plan_that_brews_the_named_tea_is_not(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "1. Brew the black tea bags in the teapot.\n2. Let the tea cool.\n3. Pour the tea into the pitcher."
    assert flags("plan_mismatch", **ICED, plan_for_clear_task=clear) == []
