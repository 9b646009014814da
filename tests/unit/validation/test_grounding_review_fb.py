"""grounding readings the twenty-first round's review found too wide: a hot food after a noun that reads as a
heating verb, an "old" food, a part named for a thing of another kind, a food stirred "into" another, and a list
after an allergy that the clause has closed. Each with a near row whose outcome must stay."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import grounding_errors


@pytest.fixture()
def errors(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return grounding_errors(tmp_path, catalog)


_BREAKFAST = "toast, butter, mug, plate, saucepan, stove"


def test_a_hot_food_beside_toast_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Butter the toast on the plate.", "Pour the hot milk into the mug next to the toast."]
    assert any("milk" in m for m in errors(_BREAKFAST, steps))


def test_a_hot_food_a_step_heats_is_made(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Heat the butter in the saucepan on the stove.", "Pour the hot milk into the mug."]
    assert not any("milk" in m for m in errors(_BREAKFAST, steps))


_MASH = "bowl, fork, flour, eggs, oven, loaf pan"


def test_an_old_food_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Mash the old bananas in the bowl with the fork.", "Stir in the flour and eggs."]
    assert any("banana" in m for m in errors(_MASH, steps))


def test_old_oils_a_step_cleans_out_are_what_a_use_left(errors) -> None:  # type: ignore[no-untyped-def]
    env = "coffee grinder, uncooked white rice, pastry brush, damp cloth, trash can"
    task = "Clean the old oils out of the coffee grinder, then brush it out with the pastry brush."
    steps = ["Grind the uncooked white rice in the coffee grinder.", "Empty it into the trash can."]
    assert errors(env, steps, task) == []


def test_a_used_food_is_what_a_use_left(errors) -> None:  # type: ignore[no-untyped-def]
    env = "coffee maker, compost bin, spoon"
    steps = ["Scrape the used coffee grounds out of the coffee maker into the compost bin."]
    assert errors(env, steps) == []


def test_a_glass_jar_beside_a_wine_glass_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Pour the lemonade into the glass jar.", "Serve it in the wine glass."]
    assert any("jar" in m for m in errors("lemonade, wine glass, counter", steps))


def test_a_dish_rack_beside_a_baking_dish_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Wash the baking dish in the sink.", "Set it on the dish rack to dry."]
    assert any("rack" in m for m in errors("baking dish, sink, sponge", steps))


def test_the_basket_of_the_steamer_is_its_own(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Put the broccoli in the steamer basket.", "Close the microwave steamer."]
    assert errors("broccoli, microwave steamer, microwave", steps) == []


_EGGS = "eggs, butter, bowl, whisk, mixer"


def test_a_food_stirred_into_another_is_still_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Beat the butter in the bowl with the mixer.", "Stir the eggs into sugar."]
    assert any("sugar" in m for m in errors(_EGGS, steps))


def test_a_dish_a_step_shapes_into_is_made(errors) -> None:  # type: ignore[no-untyped-def]
    env = "food processor, cooked chickpeas, tahini, olive oil, serving bowl"
    steps = ["Blend the cooked chickpeas with tahini and olive oil into hummus.", "Spoon it into the serving bowl."]
    assert errors(env, steps) == []


_SANDWICH = "bread, butter, knife, plate"


def test_a_food_after_a_closed_allergy_list_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Sam is allergic to eggs; use bread and jam for the sandwich."
    steps = ["Spread the butter on the bread with the knife.", "Put the sandwich on the plate."]
    assert any("jam" in m for m in errors(_SANDWICH, steps, task))


def test_a_food_listed_after_an_allergy_is_kept_away(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Make a sandwich for Sam, who is allergic to eggs, sesame and peanuts."
    steps = ["Spread the butter on the bread with the knife.", "Put the sandwich on the plate."]
    assert errors(_SANDWICH, steps, task) == []
