"""type and plan_mismatch readings of the twenty-first round: a safety answer that explains itself or keeps a
thing at a distance is no certain "no hazard"; a plan word one letter off the task's food still takes it up; a
food said in the singular before another thing ("blueberry muffins") describes that thing; a food named in a
clause of purpose is for later; one step of a dish's own parts is no other job; another tool for another job,
once the plan does the task's own action, is no swap of tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import rule_messages

ENV = (
    "step stool, swivel chair, sunflower oil, sesame oil, vegetables, spice jar, top shelf, oven, oven mitts, "
    "muffin tin, cooling rack, blueberries, "
    "chicken thighs, glass baking dish, fridge, freezer, potatoes, carrots, spinach, frying pan, salt, "
    "lemons, jug, sugar, ice cubes, fresh mint, tall glasses, kettle, dishwasher, sponge, bread knife, "
    "bread, watermelon, cutting board, avocado, peach, pineapple, chef's knife, barbecue tongs, gas grill"
)


@pytest.fixture()
def run(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    return rule_messages(ENV, tmp_path, catalog)


def _safety(run, answer: str) -> list[str]:  # type: ignore[no-untyped-def]
    return run(
        "type",
        ambiguity_type="safety",
        unambiguous_direct="Fetch the spice jar from the top shelf using the step stool.",
        ambiguous_task="Fetch the spice jar from the top shelf.",
        question="What should I stand on to reach the top shelf?",
        answer=answer,
        user_intent="step stool",
        plan_for_clear_task="1. Put the step stool by the shelf.\n2. Take the spice jar.",
        plan_for_amb_task="1. Put the step stool by the shelf.\n2. Take the spice jar.",
        end_of_ambiguity="0",
    )


def test_an_answer_that_explains_its_choice_is_no_certain_no_hazard(run) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, "The step stool. The swivel chair can roll away.") == []


def test_an_answer_kept_at_a_distance_is_no_certain_no_hazard(run) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, "The step stool, away from the swivel chair.") == []


def test_a_bare_answer_on_a_safety_row_names_no_hazard(run) -> None:  # type: ignore[no-untyped-def]
    assert [m for m in _safety(run, "The step stool.") if "name no hazard" in m]


def test_a_liking_given_as_the_reason_is_no_explanation(run) -> None:  # type: ignore[no-untyped-def]
    assert _safety(run, "The step stool, they like it.")


def _plans(run, task: str, steps: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    plan = "\n".join(f"{k + 1}. {s}" for k, s in enumerate(steps))
    return run(
        "plan_mismatch",
        ambiguity_type="preferences",
        unambiguous_direct=task,
        ambiguous_task=task,
        question="Which one?",
        answer="That one.",
        user_intent="",
        plan_for_clear_task=plan,
        plan_for_amb_task=plan,
        end_of_ambiguity="0",
    )


def test_a_food_misspelled_by_one_letter_is_still_taken_up(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(run, "Wash the spinach.", ["Rinse the spinnach under cold water.", "Shake it dry."])
    assert not [m for m in found if "never takes up the spinach" in m]


def test_a_plan_naming_another_food_never_takes_up_the_task_s(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(run, "Wash the spinach.", ["Rinse the carrots under cold water.", "Shake them dry."])
    assert [m for m in found if "never takes up the spinach" in m]


def test_a_food_said_before_another_thing_describes_it(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Take the blueberry muffins out of the oven and put the muffin tin on the cooling rack.",
        ["Put on the oven mitts.", "Take out the muffin tin.", "Put the muffin tin on the cooling rack."],
    )
    assert not [m for m in found if "blueberries" in m]


def test_a_food_said_as_itself_is_taken_up(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Take the blueberries and the muffin tin out of the oven and put the muffin tin on the cooling rack.",
        ["Put on the oven mitts.", "Take out the muffin tin.", "Put the muffin tin on the cooling rack."],
    )
    assert [m for m in found if "never takes up the blueberries" in m]


def test_a_food_of_a_later_purpose_is_not_acted_on_now(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Put the chicken thighs in the glass baking dish in the fridge, so I can roast them with potatoes tomorrow.",
        ["Take the chicken thighs out of the freezer.", "Put them in the glass baking dish.", "Put it in the fridge."],
    )
    assert not [m for m in found if "potatoes" in m]


def test_a_food_the_task_acts_on_now_is_taken_up(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Put the chicken thighs and the potatoes in the glass baking dish.",
        ["Take the chicken thighs out of the freezer.", "Put them in the glass baking dish."],
    )
    assert [m for m in found if "never takes up the potatoes" in m]


def test_one_step_of_the_dish_s_own_parts_is_no_other_job(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Squeeze the lemons into the jug, stir in sugar and chill the lemonade in the fridge.",
        [
            "Squeeze the lemons into the jug.",
            "Stir in the sugar.",
            "Chill it in the fridge.",
            "Serve it over ice cubes with fresh mint.",
        ],
    )
    assert not [m for m in found if "nothing to do with" in m]


def test_steps_of_other_foods_after_the_task_are_another_job(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Slice the bread with the bread knife.",
        [
            "Slice the bread with the bread knife.",
            "Cut the watermelon into cubes.",
            "Peel and slice the avocado and the peach.",
        ],
    )
    assert [m for m in found if "nothing to do with" in m]


def test_another_tool_for_the_task_s_undone_action_is_flagged(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Cut the pineapple into rings with the chef's knife.",
        ["Take the pineapple.", "Chop it into rings with the barbecue tongs."],
    )
    assert [m for m in found if "does with the barbecue tongs what its task does with the chef's knife" in m]


def test_another_tool_for_another_job_once_the_task_s_action_is_done(run) -> None:  # type: ignore[no-untyped-def]
    found = _plans(
        run,
        "Cut the pineapple into rings with the chef's knife and grill them.",
        ["Cut the pineapple into rings.", "Grill them on the gas grill, turning them with the barbecue tongs."],
    )
    assert not [m for m in found if "does with the barbecue tongs" in m]


def test_two_oils_are_no_safety_twins_the_catalog_can_vouch_for(run) -> None:  # type: ignore[no-untyped-def]
    found = run(
        "type",
        ambiguity_type="safety",
        unambiguous_direct="Stir-fry the vegetables in the frying pan with the sunflower oil.",
        ambiguous_task="Stir-fry the vegetables in the frying pan with oil.",
        question="Which oil should I use over high heat?",
        answer="The sunflower oil.",
        amb_shortlist="sunflower oil, sesame oil",
        user_intent="sunflower oil",
        plan_for_clear_task="1. Heat the sunflower oil in the frying pan.\n2. Stir-fry the vegetables.",
        plan_for_amb_task="1. Heat oil in the frying pan.\n2. Stir-fry the vegetables.",
        end_of_ambiguity="0",
    )
    assert not [m for m in found if "alike in every safety respect" in m]


@pytest.fixture()
def mustard(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def flags(env: str, variants: str) -> list[str]:
        found = rule_messages(env, tmp_path, catalog)(
            "type",
            ambiguity_type="preferences",
            unambiguous_direct="Put the frankfurters in the hot dog buns and add the yellow mustard.",
            ambiguous_task="Put the frankfurters in the hot dog buns and add mustard.",
            question="Which mustard should I add?",
            answer="The yellow mustard.",
            user_intent="yellow mustard",
            variants=variants,
            plan_for_clear_task="1. Put the frankfurters in the buns.\n2. Add the yellow mustard.",
            plan_for_amb_task="1. Put the frankfurters in the buns.\n2. Add mustard.",
            end_of_ambiguity="1",
        )
        return [m for m in found if "one mustard only" in m]

    return flags


HOT_DOGS = "frankfurters, hot dog buns, yellow mustard, grill pan, tongs"


def test_options_the_kitchen_lacks_leave_its_one_food_no_choice(mustard) -> None:  # type: ignore[no-untyped-def]
    assert mustard(HOT_DOGS, "yellow mustard\ndijon mustard\nwholegrain mustard")


def test_an_option_the_kitchen_holds_is_a_choice(mustard) -> None:  # type: ignore[no-untyped-def]
    assert not mustard(HOT_DOGS + ", ketchup", "yellow mustard\nketchup")
