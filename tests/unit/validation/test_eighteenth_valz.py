"""Eighteenth-round changes to type, plan_mismatch and end_of_ambiguity, read on the pooled fresh rows: each a
row the check must flag and a near row it must leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = (
    "oven, roasting pan, oven mitts, whole turkey, butter, sage, salt, dish soap, cheese board, brie, gouda, "
    "crackers, grapes, serving platter, small bowls, dinner plates, dinner spoons, dessert spoons, dinner knives, "
    "napkins, tomato soup, soup bowls, ladle, rye bread, bread knife, cutting board, cherry jam, apricot jam, "
    "strawberries, colander, paper towels, mixing bowl, whisk, flour, milk, eggs, frying pan, spatula, "
    "bottle of cider, kitchen towel, glasses, tray"
)


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


# type, safety: an answer whose reason is a harm kept from happening, in words of no hazard list.
CIDER = dict(
    ambiguity_type="safety",
    unambiguous_direct="Open the bottle of cider over the sink, then pour it into the glasses on the tray.",
    ambiguous_task="Open the bottle of cider, then pour it into the glasses on the tray.",
    question="Where should I hold the bottle when I open it?",
    user_intent="sink",
    plan_for_clear_task="1. Hold the bottle of cider over the sink.\n2. Open it.\n3. Pour it into the glasses.",
    plan_for_amb_task="1. Hold the bottle of cider.\n2. Open it.\n3. Pour it into the glasses.",
    end_of_ambiguity="0",
)


def test_a_safety_answer_that_keeps_a_harm_from_happening_is_no_type_error(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("type", **CIDER, answer="Over the sink, so the foam can't spray over the guests.") == []


def test_a_safety_answer_with_a_plain_place_is_a_type_error(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **CIDER, answer="Over the sink, please.")
    assert len(found) == 1 and "name no hazard" in found[0]


# type, common sense: an answer whose reason is the liking of the people served.
JAM = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Spread cherry jam thinly on two slices of rye bread.",
    ambiguous_task="Spread cherry jam on two slices of rye bread.",
    question="How much jam should I spread on each slice?",
    user_intent="thin|thinly",
    plan_for_clear_task="1. Cut two slices of rye bread.\n2. Spread the cherry jam thinly.",
    plan_for_amb_task="1. Cut two slices of rye bread.\n2. Spread the cherry jam.",
    end_of_ambiguity="1",
)


@pytest.mark.parametrize(
    "answer", ["A thin layer, that is how my parents like it.", "Thinly, we don't like it too sweet."]
)
def test_a_liking_of_others_or_a_dislike_is_a_taste(flags, answer: str) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **JAM, answer=answer)
    assert len(found) == 1 and "the user's taste" in found[0]


def test_a_reason_of_kitchen_sense_is_no_taste(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("type", **JAM, answer="Thinly, like butter, so the bread does not go soggy.") == []


# plan_mismatch: a step that takes another thing of the same kind, told apart by the word before its head.
SPOONS = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Set the table with dinner plates, dinner spoons and soup bowls, and ladle the tomato soup.",
    ambiguous_task="Set the table with dinner plates, dinner spoons and bowls, and ladle the tomato soup.",
    question="Which bowls should I put out?",
    answer="The soup bowls.",
    user_intent="soup bowls",
    plan_for_amb_task="1. Put a dinner plate at each place.\n2. Put a dinner spoon beside each plate.\n"
    "3. Put a bowl on each plate.\n4. Ladle the tomato soup into the bowls.",
    end_of_ambiguity="2",
)


def test_a_clear_step_with_another_spoon_than_both_tasks_name_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **SPOONS,
        plan_for_clear_task="1. Put a dinner plate at each place.\n2. Put a dessert spoon beside each plate.\n"
        "3. Put a soup bowl on each plate.\n4. Ladle the tomato soup into the soup bowls.",
    )
    assert any("acts on the dessert spoons" in m and "name the dinner spoons" in m for m in found)


def test_the_same_spoon_in_both_plans_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **SPOONS,
        plan_for_clear_task="1. Put a dinner plate at each place.\n2. Put a dinner spoon beside each plate.\n"
        "3. Put a soup bowl on each plate.\n4. Ladle the tomato soup into the soup bowls.",
    )
    assert found == []


# plan_mismatch: a roasting pan is a tool, and a task that puts food in the oven cooks it.
TURKEY = dict(
    ambiguity_type="safety",
    question="What should I do after handling the raw turkey?",
    answer="Wash your hands with dish soap.",
    user_intent="wash, hands",
    end_of_ambiguity="2",
)


def test_a_task_putting_food_in_the_oven_asks_for_the_roasting(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **TURKEY,
        unambiguous_direct="Rub the whole turkey with butter and sage, wash your hands, then put it in the oven.",
        ambiguous_task="Rub the whole turkey with butter and sage, then put it in the oven.",
        plan_for_clear_task="1. Place the turkey in the roasting pan.\n2. Rub it with butter and sage.\n"
        "3. Wash your hands with dish soap.\n4. Roast it in the oven using the oven mitts.",
        plan_for_amb_task="1. Place the turkey in the roasting pan.\n2. Rub it with butter and sage.\n"
        "3. Take care of hygiene.\n4. Roast it in the oven using the oven mitts.",
    )
    assert found == []


def test_a_task_that_only_handles_food_is_not_asked_to_cook_it(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **TURKEY,
        unambiguous_direct="Take the whole turkey out of the fridge, wash your hands and put it on the cheese board.",
        ambiguous_task="Take the whole turkey out of the fridge and put it on the cheese board.",
        plan_for_clear_task="1. Take the turkey out of the fridge.\n2. Put it on the cheese board.\n"
        "3. Wash your hands with dish soap.\n4. Preheat the oven.\n5. Roast the turkey in the roasting pan.",
        plan_for_amb_task="1. Take the turkey out of the fridge.\n2. Put it on the cheese board.\n"
        "3. Take care of hygiene.\n4. Preheat the oven.\n5. Roast the turkey in the roasting pan.",
    )
    assert any("cooks, which its task never asks" in m for m in found)


# end_of_ambiguity: a later clear step that names the intent is no proof when the ambiguous step at the index
# leaves the choice open in words.
BERRIES = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Rinse the strawberries in the colander and pat them dry before adding them to the batter.",
    ambiguous_task="Get the strawberries ready before adding them to the batter.",
    question="What should I do with the strawberries first?",
    answer="Rinse them in the colander and pat them dry with paper towels.",
    user_intent="rinse|wash, dry",
    plan_for_clear_task="1. Put the strawberries in the colander.\n2. Rinse them under cold water.\n"
    "3. Pat them dry with paper towels.\n4. Stir them into the batter in the mixing bowl.",
    end_of_ambiguity="0",
)


def test_an_open_ambiguous_step_at_the_index_marks_the_choice(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "end_of_ambiguity",
        **BERRIES,
        plan_for_amb_task="1. Put the strawberries in a suitable place.\n2. Get them ready.\n"
        "3. Pat them as needed.\n4. Stir them into the batter in the mixing bowl.",
    )
    assert found == []


def test_a_plain_ambiguous_step_at_the_index_puts_the_choice_later(flags) -> None:  # type: ignore[no-untyped-def]
    # the plans part at the index only in a word of no content ("on" / "onto"): the clear plan does nothing there
    found = flags(
        "end_of_ambiguity",
        **{k: v for k, v in BERRIES.items() if k != "plan_for_clear_task"},
        plan_for_clear_task="1. Put the strawberries onto the cutting board.\n2. Put them in the colander.\n"
        "3. Rinse them under cold water.\n4. Pat them dry with paper towels.",
        plan_for_amb_task="1. Put the strawberries on the cutting board.\n2. Get them ready.\n"
        "3. Pat them.\n4. Stir them into the batter in the mixing bowl.",
    )
    assert len(found) == 1 and "is made here, after end_of_ambiguity 0" in found[0]


# plan_mismatch: one plan's step does the other's action with an object nothing names, in place of the one both
# tasks name.
TRAY = dict(
    ambiguity_type="safety",
    unambiguous_direct="Carry the bread knife to the cutting board with the blade pointing down.",
    ambiguous_task="Carry the bread knife to the cutting board.",
    question="How should I hold the knife while carrying it?",
    answer="Blade pointing down.",
    user_intent="blade down",
    plan_for_clear_task="1. Pick up the bread knife by the handle.\n2. Point the blade down.\n"
    "3. Walk to the cutting board and lay the knife on it.",
    end_of_ambiguity="1",
)


def test_a_step_going_to_another_place_than_both_tasks_name_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **TRAY,
        plan_for_amb_task="1. Pick up the bread knife.\n2. Hold it safely.\n3. Walk to the tray and drop the knife in.",
    )
    assert len(found) == 1 and "step with the tray" in found[0] and "uses the cutting board" in found[0]


def test_a_step_of_another_action_with_another_object_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **TRAY,
        plan_for_amb_task="1. Pick up the bread knife.\n2. Hold it safely.\n"
        "3. Wipe the tray, then lay the knife on the cutting board.",
    )
    assert found == []


# type, safety: the hazard named by the reason the clear task gives for itself.
GRAPES = dict(
    ambiguity_type="safety",
    ambiguous_task="Put the grapes and the crackers on the serving platter.",
    question="Should the grapes go whole on the platter?",
    answer="No, halve them first.",
    user_intent="halve|cut",
    plan_for_clear_task="1. Halve the grapes.\n2. Put the grapes and crackers on the serving platter.",
    plan_for_amb_task="1. Take the grapes.\n2. Put the grapes and crackers on the serving platter.",
    end_of_ambiguity="0",
)


def test_a_hazard_in_the_clear_tasks_reason_makes_a_safety_item(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Halve the grapes and put them with the crackers on the serving platter, so that no child chokes on one."
    assert flags("type", **GRAPES, unambiguous_direct=clear) == []


def test_a_clear_task_whose_reason_names_no_hazard_is_a_type_error(flags) -> None:  # type: ignore[no-untyped-def]
    clear = "Halve the grapes and put them with the crackers on the serving platter, so they look neat."
    found = flags("type", **GRAPES, unambiguous_direct=clear)
    assert len(found) == 1 and "name no hazard" in found[0]
