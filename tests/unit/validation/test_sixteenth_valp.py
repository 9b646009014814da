"""plan_mismatch, type and end_of_ambiguity readings of the sixteenth round: a place word cut short is still
the place; a task that sears rightly seasons; a clear step that takes the option the intent does not take; a
choice among variants the kitchen holds; a hazard said as spilling over; a clear plan a step shorter; an
ambiguous plan that marks the choice at the index."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "tuna steak, skillet, salt, black pepper, glass jar, fridge, kitchen counter, saucepan, noodles, pot, "
    "sieve, colander, tomato sauce, bottle of soda, bottle opener, cookie jar, metal cookie tin, plastic container, "
    "shortbread cookies, spatula"
)


@pytest.fixture()
def run(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def check(rule: str, **cells: str) -> list[str]:
        row = {
            "id": "1",
            **environment(ENV),
            "ambiguity_type": "preferences",
            "amb_shortlist": "",
            "variants": "",
            "end_of_ambiguity": "0",
            **cells,
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, [rule])]

    return check


def _plans(clear: list[str], amb: list[str]) -> dict[str, str]:
    return {"plan_for_clear_task": "\n".join(clear), "plan_for_amb_task": "\n".join(amb)}


STORE = dict(
    unambiguous_direct="Pour the tomato sauce into the glass jar, then put the jar in the fridge.",
    ambiguous_task="Pour the tomato sauce into a container, then put it in the fridge.",
    question="Which container should I use?",
    answer="The glass jar.",
    user_intent="glass jar",
)


def test_a_place_word_cut_short_is_still_the_place(run) -> None:  # type: ignore[no-untyped-def]
    cut = _plans(
        ["Pour the tomato sauce into the glass jar.", "Put the jar in the fridg"],
        ["Pour the tomato sauce into a container.", "Put the container in the fridg"],
    )
    assert not [m for m in run("plan_mismatch", **STORE, **cut) if "fridge" in m]
    elsewhere = _plans(
        ["Pour the tomato sauce into the glass jar.", "Put the jar on the kitchen counter."],
        ["Pour the tomato sauce into a container.", "Put the container on the kitchen counter."],
    )
    assert [m for m in run("plan_mismatch", **STORE, **elsewhere) if "never puts things on or in the fridge" in m]


SEASONED = _plans(
    ["Season the tuna steak with salt and black pepper.", "Cook it in the skillet for two minutes a side."],
    ["Season the tuna steak with salt and black pepper.", "Cook it in the skillet until done."],
)


def test_a_task_that_sears_may_season(run) -> None:  # type: ignore[no-untyped-def]
    found = run(
        "plan_mismatch",
        unambiguous_direct="Sear the tuna steak in the skillet for two minutes a side.",
        ambiguous_task="Sear the tuna steak in the skillet.",
        question="How long should I sear it?",
        answer="Two minutes a side.",
        user_intent="two minutes|2 minutes",
        **SEASONED,
    )
    assert not [m for m in found if "has nothing to do with" in m]


def test_a_task_that_only_handles_does_not_season(run) -> None:  # type: ignore[no-untyped-def]
    found = run(
        "plan_mismatch",
        unambiguous_direct="Take the tuna steak out of the fridge and put it on the kitchen counter.",
        ambiguous_task="Take the tuna steak out and put it somewhere.",
        question="Where should I put it?",
        answer="On the kitchen counter.",
        user_intent="kitchen counter",
        **SEASONED,
    )
    assert [m for m in found if "has nothing to do with" in m or "cooks, which its task never asks" in m]


DRAIN = dict(
    unambiguous_direct="Cook the noodles in the pot and drain them through the sieve.",
    ambiguous_task="Cook the noodles in the pot and drain them.",
    question="What should I drain the noodles through?",
    answer="The sieve.",
    user_intent="sieve",
    variants="Sieve\nColander",
    ambiguity_type="common_sense_knowledge",
)


def test_a_clear_step_that_takes_the_option_the_intent_does_not(run) -> None:  # type: ignore[no-untyped-def]
    wrong = _plans(
        ["Cook the noodles in the pot.", "Drain the noodles through the colander."],
        ["Cook the noodles in the pot.", "Drain the noodles through the strainer."],
    )
    found = run("plan_mismatch", **DRAIN, **wrong)
    assert len(found) == 1 and "takes the colander, an option the intent does not take" in found[0]
    right = _plans(
        ["Cook the noodles in the pot.", "Drain the noodles through the sieve."],
        ["Cook the noodles in the pot.", "Drain the noodles through the strainer."],
    )
    assert run("plan_mismatch", **DRAIN, **right) == []


COOKIES = dict(
    unambiguous_direct="Put the shortbread cookies in the metal cookie tin.",
    ambiguous_task="Put the shortbread cookies in a container.",
    question="Which container should I keep the cookies in?",
    answer="The metal cookie tin.",
    user_intent="metal cookie tin",
    **_plans(["Put the shortbread cookies in the metal cookie tin."], ["Put the shortbread cookies in a container."]),
)


def test_variants_the_kitchen_holds_are_a_choice(run) -> None:  # type: ignore[no-untyped-def]
    assert run("type", **COOKIES, variants="Cookie jar\nMetal cookie tin\nPlastic container") == []
    assert [m for m in run("type", **COOKIES) if "one container only" in m]


SPILL = dict(
    ambiguity_type="safety",
    unambiguous_direct="Fill the saucepan half full with water and boil the noodles.",
    ambiguous_task="Fill the saucepan with water and boil the noodles.",
    question="How full should the saucepan be?",
    user_intent="half",
    **_plans(["Fill the saucepan half full with water."], ["Fill the saucepan with water."]),
)


def test_a_hazard_said_as_spilling_over(run) -> None:  # type: ignore[no-untyped-def]
    assert run("type", **SPILL, answer="Half full, so it does not bubble over.") == []
    assert [m for m in run("type", **SPILL, answer="Half full.") if "name no hazard" in m]


SHORTER = ["Boil water in the pot.", "Cook the noodles.", "Drain the noodles in the sieve.", "Serve them."]


def test_a_clear_plan_a_step_shorter_reaches_the_choice_sooner(run) -> None:  # type: ignore[no-untyped-def]
    amb = ["Boil water in the pot.", "Cook the noodles.", "Warm the tomato sauce.", "Drain the noodles.", "Serve them."]
    found = run("end_of_ambiguity", **{**DRAIN, "end_of_ambiguity": "3"}, **_plans(SHORTER, amb))
    assert found == []
    other = ["Boil water in the pot.", "Cook the noodles.", "Warm the tomato sauce.", "Serve them.", "Rest."]
    found = run("end_of_ambiguity", **{**DRAIN, "end_of_ambiguity": "3"}, **_plans(SHORTER, other))
    assert [m for m in found if "already names the intended 'sieve'" in m]


CAN = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Open the bottle of soda with the bottle opener and pour it into the glass jar.",
    ambiguous_task="Open the bottle of soda with the proper tool and pour it into the glass jar.",
    question="What should I open the bottle with?",
    answer="The bottle opener.",
    user_intent="bottle opener",
    end_of_ambiguity="1",
)
CLEAR_CAN = ["Set the bottle opener beside the bottle of soda.", "Open the bottle with the bottle opener.", "Pour."]


def test_an_ambiguous_plan_that_marks_the_choice_at_the_index(run) -> None:  # type: ignore[no-untyped-def]
    marked = ["Set the bottle of soda on the kitchen counter.", "Open the bottle with the proper tool.", "Pour."]
    assert run("end_of_ambiguity", **CAN, **_plans(CLEAR_CAN, marked)) == []
    unmarked = ["Set the bottle of soda on the kitchen counter.", "Open the bottle.", "Pour."]
    found = run("end_of_ambiguity", **CAN, **_plans(CLEAR_CAN, unmarked))
    assert [m for m in found if "already names the intended 'bottle opener'" in m]


WAFFLE = dict(
    unambiguous_direct="Toast the frozen waffles in the toaster and serve them on the plate with honey.",
    ambiguous_task="Toast the frozen waffles and serve them on the plate with honey.",
    question="What should I toast the waffles in?",
    answer="The toaster.",
    user_intent="toaster",
    ambiguity_type="common_sense_knowledge",
    environment_short="frozen waffles, toaster, oven, plate, honey, powdered sugar, salt",
    environment_full="frozen waffles, a toaster, an oven, a plate, honey, powdered sugar, salt",
)
TOAST = ["Put the frozen waffles in the toaster.", "Toast them.", "Serve them on the plate with honey."]


def test_a_food_only_one_plan_adds(run) -> None:  # type: ignore[no-untyped-def]
    amb = [
        "Take the frozen waffles.",
        "Toast them.",
        "Serve them on the plate with honey.",
        "Dust with powdered sugar.",
    ]
    found = run("plan_mismatch", **WAFFLE, **_plans(TOAST, amb))
    assert [m for m in found if m.startswith("plan_for_amb_task[3]: takes up the powdered sugar")]
    both = [*TOAST, "Dust with powdered sugar."]
    assert run("plan_mismatch", **WAFFLE, **_plans(both, [*amb[:3], "Dust with powdered sugar."])) == []
    salted = ["Take the frozen waffles.", "Toast them.", "Serve them on the plate with honey.", "Sprinkle with salt."]
    assert run("plan_mismatch", **WAFFLE, **_plans(TOAST, salted)) == []


GREENS = dict(
    unambiguous_direct="Put the baby kale in the salad bowl and add the feta.",
    ambiguous_task="Put the greens in the salad bowl and add the feta.",
    question="Which greens should I use?",
    answer="The baby kale.",
    amb_shortlist="baby kale",
    environment_short="baby kale, feta, walnuts, salad bowl",
    environment_full="baby kale, feta, walnuts, a salad bowl",
    **_plans(["Put the baby kale in the salad bowl."], ["Put the greens in the salad bowl."]),
)


def test_one_option_the_intent_names_by_its_head(run) -> None:  # type: ignore[no-untyped-def]
    found = run("type", **GREENS, user_intent="kale")
    assert len(found) == 1 and "the only option listed is the intended 'baby kale'" in found[0]
    assert run("type", **GREENS, user_intent="walnuts") == []
