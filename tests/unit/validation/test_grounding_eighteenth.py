"""grounding readings of the eighteenth round: a food named as an allergy, a food in the form a step makes of a
scene food, a scene name the text spells from its start, a plural the singular rule keeps, a list's words, a
comparison, a kind's member said before its kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


def _row(env: str, step: str, task: str) -> dict[str, str]:
    return {
        "id": "1",
        **environment(env),
        "unambiguous_direct": task,
        "ambiguity_type": "common_sense_knowledge",
        "ambiguous_task": task,
        "question": "How should I do it?",
        "answer": "As usual.",
        "plan_for_clear_task": f"1. Go to the counter.\n2. {step}",
        "plan_for_amb_task": f"1. Go to the counter.\n2. {step}",
        "end_of_ambiguity": "0",
        "user_intent": "usual",
    }


@pytest.fixture()
def errors(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(env: str, step: str, task: str = "Get lunch ready.") -> list[str]:
        rules = ["grounding", "grounding_noun", "grounding_variant"]
        found = failures_of_row(_row(env, step, task), tmp_path, catalog, rules)
        return [f.message for f in found if f.severity == "error"]

    return run


def _names(messages: list[str], word: str) -> bool:
    return any(f"'{word}" in m for m in messages)


@pytest.mark.parametrize(
    "task",
    [
        "Make Lena a honey sandwich on the rye bread; she is allergic to walnuts.",
        "Make a honey sandwich on the rye bread, because a guest has a walnut allergy.",
    ],
)
def test_a_food_named_as_an_allergy_is_not_fetched(errors, task: str) -> None:  # type: ignore[no-untyped-def]
    env = "rye bread, honey, butter knife"
    assert not _names(errors(env, "Spread honey on the rye bread with the butter knife.", task), "walnut")


def test_the_same_food_put_on_the_sandwich_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "rye bread, honey, butter knife"
    task = "Make a honey sandwich on the rye bread and scatter walnuts inside."
    assert _names(errors(env, "Spread honey on the rye bread with the butter knife.", task), "walnut")


def test_a_food_in_the_form_a_step_makes_is_that_food(errors) -> None:  # type: ignore[no-untyped-def]
    env = "double cream, sponge cake, hand mixer, mixing bowl"
    step = "Whip the double cream with the hand mixer, then spread the whipped cream over the sponge cake."
    assert not _names(errors(env, step), "whipped cream")


def test_the_form_no_step_makes_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    # the nineteenth round reads "whipped cream" beside a plain cream (the double cream) as that cream whipped,
    # step or no step (fresh_issue43e readers); only a cream inside another food's name leaves it missing
    env = "vanilla ice cream, sponge cake, mixing bowl"
    assert _names(errors(env, "Spread the whipped cream over the sponge cake."), "whipped cream")


def test_a_scene_name_spelled_from_its_start_is_that_thing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "tea light candles, lighter, fondue pot, dark chocolate"
    step = "Melt the dark chocolate in the fondue pot over the tea light, lit with the lighter."
    assert not _names(errors(env, step), "tea")


def test_the_drink_of_that_word_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "tea light candles, lighter, kettle, mug"
    assert _names(errors(env, "Pour the iced tea into the mug beside the tea light."), "tea")


def test_a_plural_the_singular_rule_keeps_grounds_the_singular(errors) -> None:  # type: ignore[no-untyped-def]
    assert not _names(errors("kiwis, paring knife, small bowl", "Peel one kiwi with the paring knife."), "kiwi")


def test_the_fruit_the_kitchen_lacks_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    assert _names(errors("mangoes, paring knife, small bowl", "Peel one kiwi with the paring knife."), "kiwi")


def test_a_food_listed_before_another_is_no_modifier(errors) -> None:  # type: ignore[no-untyped-def]
    env = "pork chops, paprika, salt, frying pan"
    step = "Rub the pork chops with paprika, dried oregano, salt and the oil left in the frying pan."
    assert _names(errors(env, step), "oregano")


def test_kinds_listed_in_brackets_after_their_thing_are_its_modifiers(errors) -> None:  # type: ignore[no-untyped-def]
    env = "lemon cake, carrot cake, vanilla cake, cake stand"
    assert errors(env, "Put the cakes (lemon, carrot, vanilla) on the cake stand.") == []


def test_what_a_step_likens_to_is_not_used(errors) -> None:  # type: ignore[no-untyped-def]
    env = "camembert wheel, cheese knife, wooden board"
    step = "Cut the camembert wheel into wedges from the middle, like a cake, on the wooden board."
    assert not _names(errors(env, step), "cake")


def test_the_same_dish_served_beside_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "camembert wheel, cheese knife, wooden board"
    step = "Cut the camembert wheel into wedges and set them beside a cake on the wooden board."
    assert _names(errors(env, step), "cake")


def test_a_kinds_member_said_before_it_is_another_food(errors) -> None:  # type: ignore[no-untyped-def]
    env = "goat cheese, rocket, salad bowl"
    found = errors(env, "Toss the rocket with crumbled feta cheese in the salad bowl.")
    assert any("'feta cheese'" in m and "another food" in m for m in found)


def test_the_member_the_kitchen_has_is_no_other_food(errors) -> None:  # type: ignore[no-untyped-def]
    env = "goat cheese, rocket, salad bowl"
    assert errors(env, "Toss the rocket with crumbled goat cheese in the salad bowl.") == []


def test_a_member_named_without_its_kind_and_form_is_the_scene_thing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "brie cheese wheel, puff pastry, baking sheet"
    assert errors(env, "Wrap the brie in the puff pastry on the baking sheet.") == []


def test_another_member_beside_the_wheel_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "gouda cheese wheel, puff pastry, baking sheet"
    assert _names(errors(env, "Wrap the brie in the puff pastry on the baking sheet."), "brie")


def _warnings(tmp_path: Path, catalog, env: str, step: str) -> list[str]:  # type: ignore[no-untyped-def]
    found = failures_of_row(_row(env, step, "Cook the rice."), tmp_path, catalog, ["grounding_noun"])
    return [f.message for f in found]


def test_a_part_a_thing_comes_with_is_no_suspicion(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    step = "Simmer the rice in the saucepan with the lid on and set the timer for 18 minutes."
    assert _warnings(tmp_path, catalog, "white rice, saucepan, stove", step) == []


def test_a_thing_a_kitchen_may_lack_is_still_a_suspicion(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    step = "Simmer the rice in the saucepan, then lay a clean towel beside the stove."
    assert any("'towel'" in m for m in _warnings(tmp_path, catalog, "white rice, saucepan, stove", step))


def test_a_scene_food_before_a_comma_makes_nothing_of_the_next(errors) -> None:  # type: ignore[no-untyped-def]
    env = "cod fillet, lime, baking dish"
    step = "Lay the cod fillet in the baking dish with lime, ginger and a little butter."
    assert _names(errors(env, step), "ginger")


def test_a_scene_food_naming_the_next_still_makes_it(errors) -> None:  # type: ignore[no-untyped-def]
    env = "cod fillet, lime, baking dish"
    assert not _names(errors(env, "Squeeze the lime juice over the cod fillet in the baking dish."), "juice")


def test_a_tool_word_after_a_comma_or_stop_opens_a_clause(errors) -> None:  # type: ignore[no-untyped-def]
    env = "eggs, sugar, loaf pan"
    step = "In a large bowl, whisk together the eggs and sugar until pale. Spoon the batter into the loaf pan."
    found = errors(env, step)
    assert _names(found, "bowl") and not _names(found, "whisk") and not _names(found, "spoon")


def test_the_tool_named_after_a_comma_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "eggs, sugar, mixing bowl, loaf pan"
    step = "Beat the eggs and sugar in the mixing bowl, then pour into the loaf pan, using a whisk."
    assert _names(errors(env, step), "whisk")


def test_list_ends_are_read_outside_brackets_only() -> None:
    from ambiforge.validation.lexicon import words
    from ambiforge.validation.rules.grounding_context import listed

    text = "Rub it with paprika, dried sage, salt. Serve the tarts (apple, pear) warm."
    assert [words(text)[i] for i in sorted(listed(text))] == ["paprika", "sage", "salt", "tarts", "warm"]
