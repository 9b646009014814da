"""grounding readings of the nineteenth round: what a task makes (from a dough it names, of a scene food, by
blending and moving the result out), a food worked whole into another form, a scene food named by its head in
the other number, a scene name with its last word cut short, the parts a step goes round one by one, and a
generic vessel word in a kitchen that lists a vessel. Each with a near row that must stay flagged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import grounding_errors


@pytest.fixture()
def errors(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return grounding_errors(tmp_path, catalog)


def _names(messages: list[str], word: str) -> bool:
    return any(f"'{word}" in m or f"'the {word}" in m for m in messages)


def test_biscuits_baked_from_the_biscuit_dough_the_task_names(errors) -> None:  # type: ignore[no-untyped-def]
    env = "baking tray, oven, wire rack, spatula"
    task = "Bake the biscuit dough rounds for 12 minutes, then lift the biscuits onto the wire rack."
    assert not _names(errors(env, ["Lift the biscuits onto the wire rack with the spatula."], task), "biscuit")


def test_biscuits_with_no_dough_anywhere_are_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "baking tray, oven, wire rack, spatula"
    task = "Warm the biscuits on the baking tray for 5 minutes. Mix nothing."
    assert _names(errors(env, ["Lift the biscuits onto the wire rack with the spatula."], task), "biscuit")


def test_a_sentence_ending_in_a_food_before_mix_is_no_mix_of_it(errors) -> None:  # type: ignore[no-untyped-def]
    env = "metal bowl, whisk, honey, mustard"
    task = "Put honey, mustard and olive oil in the metal bowl. Mix until smooth."
    assert _names(errors(env, ["Whisk the honey and mustard in the metal bowl."], task), "olive oil")


def test_a_dish_blended_then_scraped_out_is_the_product(errors) -> None:  # type: ignore[no-untyped-def]
    env = "blender, canned chickpeas, lemon, tahini, rubber spatula, serving dish"
    steps = [
        "Put the chickpeas, lemon and tahini in the blender.",
        "Blend until smooth.",
        "Scrape the hummus into the serving dish with the rubber spatula.",
    ]
    assert not _names(errors(env, steps), "hummus")


def test_a_food_added_after_blending_is_still_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    env = "blender, canned chickpeas, lemon, rubber spatula, serving dish"
    steps = ["Put the chickpeas and lemon in the blender.", "Blend until smooth.", "Add the tahini."]
    assert _names(errors(env, steps), "tahini")


def test_a_broth_made_of_a_scene_food(errors) -> None:  # type: ignore[no-untyped-def]
    env = "saucepan, kettle, soy sauce, rice noodles, deep bowls"
    task = "Cook the rice noodles and pour over a broth of soy sauce stirred into hot water."
    assert not _names(errors(env, ["Cook the rice noodles in the saucepan."], task), "broth")


def test_a_broth_poured_with_nothing_it_is_made_of_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "saucepan, kettle, soy sauce, rice noodles, deep bowls"
    task = "Cook the rice noodles and pour over the broth."
    assert _names(errors(env, ["Cook the rice noodles in the saucepan."], task), "broth")


def test_whipped_cream_of_the_heavy_cream(errors) -> None:  # type: ignore[no-untyped-def]
    env = "heavy cream, pound cake, stand mixer, serving plate"
    task = "Top each slice of the pound cake with whipped cream."
    assert not _names(errors(env, ["Slice the pound cake onto the serving plate."], task), "whipped cream")


def test_whipped_cream_beside_only_ice_cream_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "vanilla ice cream, pound cake, serving plate"
    task = "Top each slice of the pound cake with whipped cream."
    assert _names(errors(env, ["Slice the pound cake onto the serving plate."], task), "whipped cream")


def test_a_head_said_singular_beside_its_plural_scene_name(errors) -> None:  # type: ignore[no-untyped-def]
    env = "rolled oats, butter, baking dish, apples, oven"
    task = "Cover the apples with an oat and butter crumble in the baking dish and bake it."
    assert not _names(errors(env, ["Bake the baking dish in the oven."], task), "oat")


def test_a_head_no_scene_name_has_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "rolled oats, butter, baking dish, apples, oven"
    task = "Cover the apples with a walnut and butter crumble in the baking dish and bake it."
    assert _names(errors(env, ["Bake the baking dish in the oven."], task), "walnut")


def test_a_scene_name_with_its_last_word_cut(errors) -> None:  # type: ignore[no-untyped-def]
    env = "cherry tomatoes, cucumber, chef's knife, cutting board, salad bowl"
    assert not _names(errors(env, ["Halve the cherry tom on the cutting board."]), "cherry")


def test_a_fruit_the_scene_lacks_before_a_word_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "cherry tomatoes, cucumber, chef's knife, cutting board, salad bowl"
    assert _names(errors(env, ["Halve the peach on the cutting board."]), "peach")


@pytest.mark.parametrize("step", ["Put a paper liner in each cup.", "Wash the muffin tin with the sponge, cup by cup."])
def test_the_cups_of_the_muffin_tin_a_step_goes_round(errors, step: str) -> None:  # type: ignore[no-untyped-def]
    env = "muffin tin, paper liners, sponge, sink"
    assert not _names(errors(env, [step]), "cup")


def test_a_cup_the_step_fills_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "muffin tin, paper liners, sponge, sink, milk"
    assert _names(errors(env, ["Whisk the milk in a cup."]), "cup")


def test_the_pot_of_a_dutch_oven(errors) -> None:  # type: ignore[no-untyped-def]
    env = "dutch oven, vegetable oil, candy thermometer, stove"
    steps = ["Pour the vegetable oil into the Dutch oven.", "Clip the candy thermometer to the side of the pot."]
    assert not _names(errors(env, steps), "pot")


def test_the_container_beside_a_jar_is_no_missing_thing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "saucepan, wooden spoon, glass jar, caramel"
    assert not _names(errors(env, ["Pour the caramel into the container."]), "container")


def test_the_container_in_a_kitchen_without_vessels_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "wooden spoon, caramel, stove"
    assert _names(errors(env, ["Pour the caramel into the container."]), "container")
