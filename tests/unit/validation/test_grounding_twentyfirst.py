"""grounding readings of the twenty-first round: a food closing a list an allergy opens, a food a step turns
others into, and the end of a scene name said without its first words are no missing things. Each with a near
row that must stay flagged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import failures_of_row, grounding_errors, grounding_row


@pytest.fixture()
def errors(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return grounding_errors(tmp_path, catalog)


_WOK = "wok, sunflower oil, rice noodles, carrots, soy sauce, stove, serving bowls"
_WOK_STEPS = ["Heat the sunflower oil in the wok on the stove.", "Stir-fry the noodles and carrots."]


def test_a_food_listed_after_an_allergy_is_kept_away(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Stir-fry the rice noodles and carrots for Sam, who is allergic to sesame and walnuts."
    assert errors(_WOK, _WOK_STEPS, task) == []


def test_a_food_in_a_list_the_task_adds_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Stir-fry the rice noodles with carrots and walnuts in the wok."
    assert any("walnut" in m for m in errors(_WOK, _WOK_STEPS, task))


_BLEND = "food processor, cooked chickpeas, tahini, lemon, olive oil, serving bowl"
_BLEND_STEPS = ["Put the chickpeas, tahini and olive oil in the food processor.", "Blend until smooth."]


def test_a_dish_the_step_makes_into_is_not_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Blend the cooked chickpeas with tahini and olive oil into hummus."
    assert errors(_BLEND, _BLEND_STEPS, task) == []


def test_a_food_stirred_into_is_still_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Blend the cooked chickpeas with tahini and stir them into the yogurt."
    assert any("yogurt" in m for m in errors(_BLEND, _BLEND_STEPS, task))


_RICE = "cooked rice, eggs, frozen peas and carrots, soy sauce, wok, stove, plate"
_RICE_STEPS = ["Scramble the eggs in the wok on the stove.", "Add the rice and soy sauce and toss."]


def test_the_end_of_a_scene_name_is_that_thing(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Fry the cooked rice with eggs, peas and carrots and soy sauce in the wok."
    assert errors(_RICE, _RICE_STEPS, task) == []


def test_a_food_of_another_name_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Fry the cooked rice with eggs, green beans and soy sauce in the wok."
    assert any("bean" in m for m in errors(_RICE, _RICE_STEPS, task))


_GRILL = "gas grill, salmon fillets, vegetable oil, sea salt, fish spatula, serving platter"
_GRILL_STEPS = [
    "Preheat the gas grill.",
    "Grill the salmon fillets for 6 minutes.",
    "Lift them onto the serving platter.",
]


def test_a_kind_named_for_a_listed_member_in_another_number(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Oil the grill so the fish won't stick, then grill the salmon fillets."
    assert errors(_GRILL, _GRILL_STEPS, task) == []


def test_a_kind_with_no_member_listed_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "gas grill, chicken thighs, vegetable oil, sea salt, fish spatula, serving platter"
    task = "Oil the grill so the fish won't stick, then grill the chicken thighs."
    assert any("fish" in m for m in errors(env, ["Preheat the gas grill.", "Grill the chicken thighs."], task))


_SYRUP = "sugar, preserving pan, stove, wooden spoon, sugar thermometer, jars, ladle"
_SYRUP_STEPS = ["Put the sugar and water in the preserving pan.", "Boil it on the stove to 110°C."]


def test_the_food_a_task_is_for_is_not_fetched(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Boil the sugar syrup for the peaches in the preserving pan until it reaches 110°C."
    assert errors(_SYRUP, _SYRUP_STEPS, task) == []


def test_the_food_a_task_works_with_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Boil the sugar syrup with the peaches in the preserving pan until it reaches 110°C."
    assert any("peach" in m for m in errors(_SYRUP, _SYRUP_STEPS, task))


def test_the_food_a_plan_step_is_for_is_still_missing(errors) -> None:  # type: ignore[no-untyped-def]
    steps = [*_SYRUP_STEPS, "Ladle the syrup into the jars for the peaches."]
    assert any("peach" in m for m in errors(_SYRUP, steps, "Boil the sugar syrup in the preserving pan."))


_STEAM_STEPS = ["Place the frozen dumplings in the steamer basket.", "Microwave them for four minutes."]


def test_a_fitted_part_of_a_listed_appliance_is_there(errors) -> None:  # type: ignore[no-untyped-def]
    env = "microwave, microwave steamer, frozen dumplings, plate, chopsticks"
    assert errors(env, _STEAM_STEPS, "Steam the frozen dumplings in the microwave steamer.") == []


def test_a_fitted_part_of_an_unlisted_appliance_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    env = "microwave, frozen dumplings, plate, chopsticks"
    found = errors(env, _STEAM_STEPS, "Steam the frozen dumplings in the microwave.")
    assert any("steamer basket" in m for m in found)


_BAKE = "mixing bowl, oven, baking sheet, cookie scoop, rolled oats, flour, brown sugar, butter, eggs, plate"


def test_a_food_a_baking_task_shapes_is_made(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Mix the oats, flour, sugar, butter and an egg, scoop twelve cookies onto the baking sheet and bake them."
    steps = ["Mix the oats, flour, brown sugar, butter and egg in the mixing bowl.", "Bake for 12 minutes."]
    assert errors(_BAKE, steps, task) == []


def test_a_food_served_without_baking_is_missing(errors) -> None:  # type: ignore[no-untyped-def]
    task = "Put twelve cookies on the plate with the cookie scoop."
    steps = ["Scoop twelve cookies onto the plate."]
    assert any("cookie" in m for m in errors(_BAKE, steps, task))


_TOAST = "toaster, crumpets, bagels, butter, butter knife, plate"
_TOAST_STEPS = ["Put them in the toaster.", "Spread with butter using the butter knife."]


def _open_row(clear: str, amb: str, amb_steps: list[str]) -> dict[str, str]:
    row = grounding_row(_TOAST, _TOAST_STEPS, clear)
    row["ambiguous_task"] = amb
    row["plan_for_amb_task"] = "\n".join(f"{i}. {s}" for i, s in enumerate(amb_steps, start=1))
    return row


@pytest.fixture()
def open_errors(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(clear: str, amb: str, amb_steps: list[str]) -> list[str]:
        found = failures_of_row(_open_row(clear, amb, amb_steps), tmp_path, catalog, ["grounding"])
        return [f.message for f in found if f.severity == "error"]

    return run


def test_the_vaguer_word_for_a_listed_option_is_no_thing(open_errors) -> None:  # type: ignore[no-untyped-def]
    found = open_errors(
        "Toast two crumpets in the toaster.", "Toast two breakfast breads in the toaster.", _TOAST_STEPS
    )
    assert found == []


def test_the_vaguer_word_for_an_unlisted_thing_is_missing(open_errors) -> None:  # type: ignore[no-untyped-def]
    found = open_errors(
        "Toast two pancakes in the toaster.", "Toast two breakfast breads in the toaster.", _TOAST_STEPS
    )
    assert any(m.startswith("ambiguous_task") and "bread" in m for m in found)


def test_the_chosen_option_in_the_ambiguous_plan_is_no_thing(open_errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Take two pieces of the chosen bread.", *_TOAST_STEPS]
    assert open_errors("Toast two crumpets in the toaster.", "Toast two crumpets in the toaster.", steps) == []


def test_a_described_thing_in_the_ambiguous_plan_is_missing(open_errors) -> None:  # type: ignore[no-untyped-def]
    steps = ["Take two pieces of the sliced bread.", *_TOAST_STEPS]
    found = open_errors("Toast two crumpets in the toaster.", "Toast two crumpets in the toaster.", steps)
    assert any("bread" in m for m in found)
