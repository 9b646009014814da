"""The method prompts give the model AmbiK's context (issue 27): the scene as ``environment_full``, the half's
own plan up to the ambiguous step ("Your previous actions were:"), that step ("Your next action is:") and the
task; the options are candidates for that step and the gold is the clear plan's step at end_of_ambiguity."""

from __future__ import annotations

import pytest

from ambiforge.detectors import prompts
from ambiforge.detectors.tasks import halves
from tests.unit.evaluation.fixtures import item

PAIR = item(
    "K1",
    "preferences",
    "greek yogurt cup, cheddar cheese slices, cream cheese",
    "Prepare a cheesy yogurt dip.",
    "Prepare a yogurt dip with cream cheese.",
    ["cream cheese"],
    ["cheddar cheese slices", "cream cheese"],
    ["cheddar cheese slices", "cream cheese"],
).model_copy(
    update={
        "environment_full": "a greek yogurt cup, cheddar cheese slices, cream cheese",
        "plan_for_clear_task": ["Take a bowl.", "Pour the yogurt into the bowl.", "Take the cream cheese.", "Mix."],
        "plan_for_amb_task": ["Take a bowl.", "Pour the yogurt into the bowl.", "Take a package of cheese.", "Mix."],
        "end_of_ambiguity": 2,
    }
)
PROMPTS = ("eval_options", "eval_choose", "eval_next_action", "eval_certainty")


def _user(prompt_id: str, task, with_plan: bool = True) -> str:  # type: ignore[no-untyped-def]
    extra = {"options": [("A", "Take the cream cheese.")], "action": "Take the cream cheese."}
    _, messages = prompts.render(prompt_id, task, with_plan, **extra)
    return messages[-1][1].split("\n\n")[-1]  # the task's block, after the three shots


def test_the_halves_carry_the_ambiguous_step_and_the_gold() -> None:
    amb, clear = halves(PAIR)
    assert amb.next_step == "Take a package of cheese." and clear.next_step == "Take the cream cheese."
    assert amb.gold_step == clear.gold_step == "Take the cream cheese."
    assert amb.previous_steps == ("Take a bowl.", "Pour the yogurt into the bowl.")


@pytest.mark.parametrize("prompt_id", PROMPTS)
def test_each_method_prompt_shows_ambiks_context(prompt_id: str) -> None:
    amb, _ = halves(PAIR)
    block = _user(prompt_id, amb)
    assert "Scene: a greek yogurt cup, cheddar cheese slices, cream cheese" in block  # environment_full
    assert "Task: Prepare a cheesy yogurt dip." in block
    assert "Your previous actions were:\n1. Take a bowl.\n2. Pour the yogurt into the bowl." in block
    assert "Your next action is:\n3. Take a package of cheese." in block  # the ambiguous step
    assert prompts.prompt(prompt_id).version == ("3" if prompt_id == "eval_options" else "2")


@pytest.mark.parametrize("prompt_id", PROMPTS)
def test_action_only_leaves_out_the_previous_actions_not_the_step(prompt_id: str) -> None:
    amb, _ = halves(PAIR)
    block = _user(prompt_id, amb, with_plan=False)
    assert "previous actions" not in block and "Take a bowl." not in block
    assert "Your next action is:\nTake a package of cheese." in block


def test_the_first_step_says_there_were_no_previous_actions() -> None:
    amb, _ = halves(PAIR.model_copy(update={"end_of_ambiguity": 0}))
    block = _user("eval_options", amb)
    assert "Your previous actions were: none\nYour next action is:\n1. Take a bowl." in block


def test_the_options_prompt_asks_for_candidates_of_that_step() -> None:
    _, messages = prompts.render("eval_options", halves(PAIR)[0], True)
    assert "carry out that step" in messages[0][1]
