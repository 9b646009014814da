"""minimal_pair and intent readings of the nineteenth round: a step the ambiguous task and its plan both drop, a
clear task that offers the choice itself with "or", the intent's function words anchoring no clause, and an
intent concept the clear task says in its own words. Each check: a row it must flag and a near row it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row

ENV = (
    "saucepan, stove, wooden spoon, porridge oats, whole milk, oat milk, maple syrup, brown sugar, blueberries, "
    "walnuts, cereal bowl, kettle, baking dish, oven, ramekins, kitchen towel"
)


def _row(**cells: str) -> dict[str, str]:
    row = {
        "id": "1",
        **environment(cells.pop("env", ENV)),
        "ambiguity_type": "preferences",
        "unambiguous_direct": "Cook the porridge oats with the whole milk in the saucepan, sweeten them with the "
        "maple syrup and scatter the walnuts on top.",
        "ambiguous_task": "Cook the porridge oats with the whole milk in the saucepan and sweeten them.",
        "question": "What should I sweeten the porridge with?",
        "answer": "Maple syrup, please.",
        "user_intent": "maple syrup",
        "amb_shortlist": "maple syrup, brown sugar",
        "variants": "Maple syrup\nBrown sugar",
        "plan_for_clear_task": "Pour the oats and the whole milk into the saucepan.\nSimmer them on the stove, "
        "stirring with the wooden spoon.\nStir in a spoonful of maple syrup.\nSpoon the porridge into the cereal "
        "bowl.\nScatter the walnuts on top.",
        "plan_for_amb_task": "Pour the oats and the whole milk into the saucepan.\nSimmer them on the stove, "
        "stirring with the wooden spoon.\nStir in the sweetener.\nSpoon the porridge into the cereal bowl.",
        "end_of_ambiguity": "2",
    }
    row.update(cells)
    return row


@pytest.fixture()
def flags(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(rules: tuple[str, ...] = ("minimal_pair",), **cells: str) -> list[tuple[str, str]]:
        return [(f.rule, f.message) for f in failures_of_row(_row(**cells), tmp_path, catalog, list(rules))]

    return run


def test_a_step_both_the_task_and_its_plan_drop_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # the walnuts leave the ambiguous task and the ambiguous plan loses their step: not the sweetener's doing
    found = flags()
    assert len(found) == 1 and "plan_for_amb_task drops the step that does it" in found[0][1]
    assert "walnut" in found[0][1]


def test_a_dropped_step_the_ambiguous_plan_keeps_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    kept = _row()["plan_for_amb_task"] + "\nScatter the walnuts on top."
    assert flags(plan_for_amb_task=kept) == []


def test_a_dropped_step_that_says_the_answer_is_the_open_point(flags) -> None:  # type: ignore[no-untyped-def]
    # the walnuts are part of the answer: the ambiguous plan leaves them out by design
    assert flags(answer="Maple syrup, with the walnuts scattered on top.") == []


def test_a_plan_that_takes_the_rest_up_together_is_not_read(flags) -> None:  # type: ignore[no-untyped-def]
    together = _row()["plan_for_amb_task"] + "\nAdd the rest of the toppings."
    assert flags(plan_for_amb_task=together) == []


def test_a_clear_task_that_offers_both_options_with_or_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Cook the porridge oats with the whole milk in the saucepan and sweeten them with "
        "maple syrup or brown sugar.",
        plan_for_clear_task=_row()["plan_for_amb_task"],
    )
    assert len(found) == 1 and "offers the choice itself" in found[0][1] and "or brown sugar" in found[0][1]


def test_an_or_the_intent_takes_either_way_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Cook the porridge oats with the whole milk in the saucepan and sweeten them with "
        "maple syrup or brown sugar.",
        plan_for_clear_task=_row()["plan_for_amb_task"],
        user_intent="maple syrup|brown sugar",
        ambiguity_type="safety",
    )
    assert found == []


def test_an_or_under_a_negation_offers_nothing(flags) -> None:  # type: ignore[no-untyped-def]
    found = flags(
        unambiguous_direct="Cook the porridge oats with the whole milk in the saucepan and sweeten them with maple "
        "syrup, no brown sugar or honey.",
        plan_for_clear_task=_row()["plan_for_amb_task"],
    )
    assert found == []


ONIONS = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Slice the onion across the rings with the paring knife, and simmer it in the saucepan for "
    "4 minutes.",
    ambiguous_task="Slice the onion with the paring knife, and simmer it in the saucepan until done.",
    question="In which direction should I slice the onion?",
    answer="Across the rings, so the slices fall apart evenly.",
    user_intent="across the rings",
    amb_shortlist="",
    variants="Across the rings\nAlong the rings",
    plan_for_clear_task="Slice the onion across the rings.\nSimmer it for 4 minutes.",
    plan_for_amb_task="Slice the onion.\nSimmer it for 4 minutes.",
    end_of_ambiguity="0",
    env="onion, paring knife, saucepan, stove, cutting board",
)


def test_an_amount_dropped_beside_an_intent_with_the_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "the" of "across the rings" is in both clauses: it does not make the simmering clause the open point's
    found = flags(**ONIONS)
    assert len(found) == 1 and "drops the amounts '4 minutes'" in found[0][1]


def test_an_amount_said_in_the_open_points_own_clause_is_not_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    cells = {
        **ONIONS,
        "unambiguous_direct": "Slice the onion across the rings into 4 pieces with the paring knife, and simmer it "
        "in the saucepan until done.",
    }
    assert flags(**cells) == []


WATER_BATH = dict(
    ambiguity_type="common_sense_knowledge",
    unambiguous_direct="Bake the ramekins of rice pudding in the oven, standing in the baking dish with hot water "
    "from the kettle up to half their height.",
    ambiguous_task="Bake the ramekins of rice pudding in the oven.",
    question="Do the ramekins need a bain-marie?",
    answer="Yes, so the puddings set gently.",
    user_intent="bain-marie",
    amb_shortlist="",
    variants="",
    plan_for_clear_task="Boil water in the kettle.\nStand the ramekins in the baking dish.\nPour the hot water "
    "around them.\nBake them in the oven.",
    plan_for_amb_task="Stand the ramekins on the oven shelf.\nBake them in the oven.",
    end_of_ambiguity="1",
)


def test_an_intent_the_clear_task_spells_out_is_only_a_suspicion(flags) -> None:  # type: ignore[no-untyped-def]
    # the clear task adds "water", a word of the intended water bath: it says the option in its own words
    cells = {**WATER_BATH, "user_intent": "water bath"}
    found = flags(("intent", "intent_suspect"), **cells)
    assert [rule for rule, _ in found] == ["intent_suspect"]


def test_an_intent_beside_a_clear_task_that_changes_more_is_an_error(flags) -> None:  # type: ignore[no-untyped-def]
    # no word of 'bain-marie' in what the clear task adds: it changes more than the open point
    found = flags(("intent", "intent_suspect"), **WATER_BATH)
    assert [rule for rule, _ in found] == ["intent"] and "changes more than the open point" in found[0][1]


SLOWLY = dict(
    unambiguous_direct="Cook the porridge oats slowly with the whole milk in the saucepan and sweeten them with the "
    "maple syrup.",
    ambiguous_task="Cook the porridge oats with the whole milk in the saucepan and sweeten them.",
    plan_for_clear_task="Pour the oats and the whole milk into the saucepan.\nSimmer the oats and the milk slowly on "
    "the stove.\nStir in a spoonful of maple syrup.\nSpoon the porridge into the cereal bowl.",
    plan_for_amb_task="Pour the oats and the whole milk into the saucepan.\nSimmer the oats and the milk on the "
    "stove.\nStir in the sweetener.\nSpoon the porridge into the cereal bowl.",
    variants="Maple syrup\nBrown sugar, cooked slowly",
)


def test_a_step_the_ambiguous_plan_says_with_a_word_cut_is_flagged(flags) -> None:  # type: ignore[no-untyped-def]
    # "slowly" leaves the task and its step; an option the intent does not take saying it keeps no word
    found = flags(**SLOWLY)
    assert len(found) == 1 and "says the step without it" in found[0][1] and "slowly" in found[0][1]


def test_a_word_cut_that_the_answer_says_is_the_open_point(flags) -> None:  # type: ignore[no-untyped-def]
    assert flags(**SLOWLY, answer="Maple syrup, and cook them slowly.") == []
