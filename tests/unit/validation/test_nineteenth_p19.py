"""Nineteenth-round changes to end_of_ambiguity, plan_mismatch and type, read on the pooled fresh rows: each a
row the check must flag and a near row it must leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, rule_messages

ENV = (
    "oven, loaf pan, oven mitts, toothpicks, cooling rack, banana bread batter, rubber spatula, fridge, "
    "glass containers, raw chicken thighs, cooked rice, lettuce, pizza stone, pizza peel, pizza dough, tomato sauce, "
    "mozzarella, fresh basil, kettle, mug, teaspoon, honey, earl grey tea bags, sugar, black pepper, bread knife, "
    "cutting board"
)


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


# end_of_ambiguity: plans that part at the index, the clear step adding what the ambiguous one leaves open, mark
# the choice there, though a later clear step names the intended sign.
LOAF = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Bake the banana bread batter in the loaf pan for about 50 minutes, until a toothpick comes "
    "out clean.",
    ambiguous_task="Bake the banana bread batter in the loaf pan until it is done.",
    question="How do I know the banana bread is done?",
    answer="A toothpick in the middle comes out clean, after about 50 minutes.",
    user_intent="toothpick, clean",
    plan_for_amb_task="1. Preheat the oven.\n2. Pour the banana bread batter into the loaf pan.\n3. Bake it.\n"
    "4. Check whether it is done.\n5. Take it out with the oven mitts.",
    end_of_ambiguity="2",
)


def test_plans_parting_at_the_index_with_a_clear_step_that_adds_mark_the_choice(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "end_of_ambiguity",
        **LOAF,
        plan_for_clear_task="1. Preheat the oven.\n2. Pour the banana bread batter into the loaf pan.\n"
        "3. Bake for about 50 minutes.\n4. Push a toothpick into the middle and see that it comes out clean.\n"
        "5. Take it out with the oven mitts.",
    )
    assert found == []


def test_a_clear_step_at_the_index_that_only_rewords_leaves_the_choice_later(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "end_of_ambiguity",
        **LOAF,
        plan_for_clear_task="1. Preheat the oven.\n2. Pour the banana bread batter into the loaf pan.\n"
        "3. Bake the batter.\n4. Push a toothpick into the middle and see that it comes out clean.\n"
        "5. Take it out with the oven mitts.",
    )
    assert len(found) == 1 and "is made here, after end_of_ambiguity 2" in found[0]


# plan_mismatch: things named in a clause that says where something goes are landmarks, not things to act on.
SHELF = dict(
    ambiguity_type="safety",
    question="On which shelf should the raw chicken thighs go?",
    answer="The bottom shelf, so their juices cannot drip on the rice.",
    user_intent="bottom shelf",
    unambiguous_direct="Put the raw chicken thighs in a glass container on the bottom shelf of the fridge.",
    plan_for_clear_task="1. Put the raw chicken thighs in a glass container.\n2. Open the fridge.\n"
    "3. Put the container on the bottom shelf.",
    plan_for_amb_task="1. Put the raw chicken thighs in a glass container.\n2. Open the fridge.\n"
    "3. Put the container on a shelf.",
    end_of_ambiguity="2",
)


def test_foods_of_a_where_clause_are_landmarks(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **SHELF,
        ambiguous_task="Put the raw chicken thighs in a glass container in the fridge, where the cooked rice and the "
        "fresh lettuce are.",
    )
    assert found == []


def test_foods_the_task_puts_away_too_must_be_taken_up(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **SHELF,
        ambiguous_task="Put the raw chicken thighs in a glass container in the fridge, and the cooked rice and the "
        "fresh lettuce too.",
    )
    assert any("never takes up the cooked rice" in m for m in found)


# plan_mismatch: a task that preheats the oven cooks, so its plan may make the dish from the kitchen's foods.
PIZZA = dict(
    ambiguity_type="common_sense_knowledge",
    question="When should the pizza stone go into the oven?",
    answer="At the start, so it heats with the oven.",
    user_intent="start",
    plan_for_clear_task="1. Put the pizza stone in the oven.\n2. Heat the oven.\n3. Stretch the pizza dough.\n"
    "4. Spread tomato sauce and scatter the mozzarella.\n5. Slide the pizza onto the stone with the pizza peel.",
    plan_for_amb_task="1. Heat the oven.\n2. Stretch the pizza dough.\n"
    "3. Spread tomato sauce and scatter the mozzarella.\n4. Slide the pizza onto the stone with the pizza peel.",
    end_of_ambiguity="0",
)


def test_a_task_that_preheats_the_oven_may_have_its_dish_made(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **PIZZA,
        unambiguous_direct="Put the pizza stone in the cold oven and preheat it, then slide the pizza onto the stone.",
        ambiguous_task="Preheat the oven, then slide the pizza onto the pizza stone.",
    )
    assert found == []


def test_a_task_that_only_moves_a_stone_does_not_make_a_pizza(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **PIZZA,
        unambiguous_direct="Put the pizza stone in the cold oven, then slide it onto the pizza peel.",
        ambiguous_task="Put the pizza stone in the oven, then slide it onto the pizza peel.",
    )
    assert any("from here acts on the tomato sauce, mozzarella" in m for m in found)


# type: a preferences row whose kitchen holds one thing of the asked kind, the intended one, listed alone.
TEA = dict(
    ambiguity_type="preferences",
    unambiguous_direct="Boil water in the kettle and steep an earl grey tea bag in the mug with a teaspoon of honey.",
    ambiguous_task="Boil water in the kettle and steep a tea bag in the mug with a teaspoon of honey.",
    question="Which tea should I make?",
    answer="Earl grey.",
    user_intent="earl grey",
    plan_for_clear_task="1. Boil water in the kettle.\n2. Put an earl grey tea bag in the mug.\n3. Pour the water.",
    plan_for_amb_task="1. Boil water in the kettle.\n2. Put a tea bag in the mug.\n3. Pour the water.",
    end_of_ambiguity="1",
)


def test_the_one_tea_of_the_kitchen_listed_alone_is_no_choice(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("type", **TEA, amb_shortlist="earl grey tea bags, honey", variants="Earl grey tea")
    assert len(found) == 1 and "the kitchen has one tea only (earl grey tea bags)" in found[0]


@pytest.mark.parametrize(
    ("shortlist", "question"),
    [
        ("earl grey tea bags, green tea", "Which tea should I make?"),  # another tea offered
        ("", "Which tea should I make?"),  # nothing listed: the kitchen's other foods may be the choice
        ("earl grey tea bags, honey", "Which tea should I make, earl grey or mint?"),  # the question offers more
    ],
)
def test_another_option_or_none_listed_leaves_the_choice(flags, shortlist: str, question: str) -> None:  # type: ignore[no-untyped-def]
    cells = {**TEA, "question": question}
    assert flags("type", **cells, amb_shortlist=shortlist) == []


# plan_mismatch: a task food the plan says only by its kind, while it puts out another food of that kind whole.
BOARD = dict(
    ambiguity_type="common_sense_knowledge",
    question="Where should the honey go?",
    answer="Drizzled over the cheese.",
    user_intent="drizzle",
    end_of_ambiguity="2",
)
BOARD_ENV = "slate board, brie, aged cheddar, crackers, grapes, honey, paring knife"


def test_a_plan_putting_out_another_cheese_than_its_task_names_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Set the slate board on the table.\n2. Put the aged cheddar in the middle.\n3. Fan the crackers.\n" + (
        "4. Drizzle honey over the cheese."
    )
    found = flags(
        "plan_mismatch",
        **BOARD,
        **environment(BOARD_ENV),
        unambiguous_direct="Arrange the brie and crackers on the slate board and drizzle honey over the cheese.",
        ambiguous_task="Arrange the brie and crackers on the slate board with honey.",
        plan_for_clear_task=plan,
        plan_for_amb_task=plan.replace("Drizzle honey over", "Put honey by"),
    )
    assert any("takes up the aged cheddar where its task names the brie" in m for m in found)


def test_a_plan_saying_its_cheese_by_its_kind_alone_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    plan = "1. Set the slate board on the table.\n2. Put the cheese in the middle.\n3. Fan the crackers.\n" + (
        "4. Drizzle honey over the cheese."
    )
    found = flags(
        "plan_mismatch",
        **BOARD,
        **environment(BOARD_ENV),
        unambiguous_direct="Arrange the brie and crackers on the slate board and drizzle honey over the cheese.",
        ambiguous_task="Arrange the brie and crackers on the slate board with honey.",
        plan_for_clear_task=plan,
        plan_for_amb_task=plan.replace("Drizzle honey over", "Put honey by"),
    )
    assert found == []


# plan_mismatch: a tool is named by its head; "pizza" of the pizza stone names the pizza the tasks bake.
BAKE = dict(
    ambiguity_type="preferences",
    amb_shortlist="frozen cheese pizza, frozen veggie pizza",
    unambiguous_direct="Bake the frozen veggie pizza on the baking sheet for 14 minutes.",
    ambiguous_task="Bake a frozen pizza on the baking sheet for 14 minutes.",
    question="Which frozen pizza should I bake?",
    answer="The veggie one.",
    user_intent="veggie",
    plan_for_amb_task="1. Preheat the oven.\n2. Unwrap the frozen pizza.\n3. Place it on the baking sheet.\n"
    "4. Bake for 14 minutes.",
    end_of_ambiguity="1",
)
BAKE_ENV = "oven, pizza stone, baking sheet, oven mitts, frozen cheese pizza, frozen veggie pizza, pizza cutter"


def test_a_clear_step_on_the_pizza_stone_where_both_tasks_say_the_baking_sheet(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **BAKE,
        **environment(BAKE_ENV),
        plan_for_clear_task="1. Preheat the oven.\n2. Unwrap the frozen veggie pizza.\n3. Place it on the pizza stone."
        "\n4. Bake for 14 minutes.",
    )
    assert any("acts on the pizza stone" in m and "name the baking sheet" in m for m in found)


def test_a_clear_step_on_the_baking_sheet_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **BAKE,
        **environment(BAKE_ENV),
        plan_for_clear_task="1. Preheat the oven.\n2. Unwrap the frozen veggie pizza.\n"
        "3. Place it on the baking sheet.\n4. Bake for 14 minutes.",
    )
    assert found == []


# end_of_ambiguity: an intended plural noun the word lists know only as a verb ("tops") still names a thing.
HULL = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Rinse the strawberries, cut off their tops with the paring knife and slice them.",
    ambiguous_task="Rinse the strawberries and slice them.",
    question="Should I take the green tops off first?",
    answer="Yes, cut the tops off before slicing.",
    user_intent="tops",
    plan_for_clear_task="1. Rinse the strawberries.\n2. Cut off the green tops with the paring knife.\n"
    "3. Slice them on the cutting board.\n4. Put the slices in a bowl.",
    plan_for_amb_task="1. Rinse the strawberries.\n2. Slice them on the cutting board.\n3. Put the slices in a bowl.",
)


def test_a_clear_step_naming_the_intended_tops_before_the_index(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags("end_of_ambiguity", **HULL, end_of_ambiguity="2")
    assert len(found) == 1 and "already names the intended 'tops'" in found[0]


def test_the_index_at_the_step_naming_the_tops_is_right(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags("end_of_ambiguity", **HULL, end_of_ambiguity="1") == []


# plan_mismatch: a step doing, in words the task never says, the task's job with another tool than it names.
FROST_ENV = (
    "vanilla cupcakes, cream cheese frosting, offset spatula, piping bag, cooling rack, paring knife, juicer, pear"
)


def test_piping_where_the_task_frosts_with_the_spatula_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **environment(FROST_ENV),
        ambiguity_type="common_sense_knowledge",
        unambiguous_direct="Frost the cooled vanilla cupcakes thickly using the offset spatula.",
        ambiguous_task="Frost the vanilla cupcakes using the offset spatula.",
        question="Should the cupcakes be cool first?",
        answer="Yes, fully cooled.",
        user_intent="cool",
        plan_for_clear_task="1. Check the cupcakes are cool.\n2. Spread the frosting thickly with the offset spatula.",
        plan_for_amb_task="1. Take the cupcakes.\n2. Pipe the frosting on top with the piping bag.",
        end_of_ambiguity="0",
    )
    assert any("does with the piping bag what its task does with the offset spatula" in m for m in found)


def test_another_action_of_the_task_with_a_tool_it_leaves_unsaid_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        "plan_mismatch",
        **environment(FROST_ENV),
        ambiguity_type="common_sense_knowledge",
        unambiguous_direct="Peel the pear, then juice it using the juicer.",
        ambiguous_task="Peel and juice the pear.",
        question="What should I juice the pear with?",
        answer="The juicer.",
        user_intent="juicer",
        plan_for_clear_task="1. Peel the pear with the paring knife.\n2. Juice it in the juicer.",
        plan_for_amb_task="1. Peel the pear with the paring knife.\n2. Juice it.",
        end_of_ambiguity="1",
    )
    assert found == []
