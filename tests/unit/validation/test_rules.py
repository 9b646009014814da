"""Each item rule with an item that passes it and one that fails it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ambiforge.config.validation import ValidationConfig
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Item
from ambiforge.validation import RuleContext, validate_items
from ambiforge.validation.rules import all_rules, check_item


@pytest.fixture(scope="module")
def ctx(catalog) -> RuleContext:  # type: ignore[no-untyped-def]
    return RuleContext(catalog=catalog)


@pytest.fixture(scope="module")
def good(catalog) -> dict[str, Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 21, "rules")
    return {t: gen.generate(i, t)[0] for i, t in enumerate(["preferences", "common_sense_knowledge", "safety"])}


def edit(item: Item, **changes: object) -> Item:
    return item.model_copy(update=changes)


Breaker = Callable[[dict[str, Item]], Item]

BREAKERS: dict[str, Breaker] = {
    "schema": lambda g: edit(g["safety"], end_of_ambiguity=-1),
    "grounding": lambda g: edit(
        g["common_sense_knowledge"],
        plan_for_clear_task=[
            *g["common_sense_knowledge"].plan_for_clear_task,
            "Hand over the cast iron teapot.",
        ],
    ),
    "grounding_noun": lambda g: edit(
        g["preferences"], plan_for_amb_task=[*g["preferences"].plan_for_amb_task, "Then wipe a rolling pin."]
    ),
    "shortlist": lambda g: edit(g["preferences"], amb_shortlist=[g["preferences"].amb_shortlist[0], "unicorn horn"]),
    "shortlist_missing": lambda g: edit(g["preferences"], amb_shortlist=[]),
    "minimal_pair": lambda g: edit(g["safety"], ambiguous_task=g["safety"].unambiguous_direct),
    "plan": lambda g: edit(g["safety"], end_of_ambiguity=len(g["safety"].plan_for_clear_task) + 2),
    "intent": lambda g: edit(g["common_sense_knowledge"], user_intent=["dragonfruit"]),
    "answer": lambda g: edit(g["common_sense_knowledge"], answer="Wherever you think best."),
    "question": lambda g: edit(g["preferences"], question="Which one do you want."),
    "hygiene": lambda g: edit(g["preferences"], question="As an AI language model, which {object} do you mean?"),
    "length": lambda g: edit(g["safety"], answer=" ".join(["very"] * 80) + " sure?"),
    "grounding_variant": lambda g: edit(
        g["common_sense_knowledge"],
        plan_for_clear_task=[*g["common_sense_knowledge"].plan_for_clear_task, "Dry it with the swivel peeler."],
    ),
    "plan_length": lambda g: edit(
        g["safety"], plan_for_clear_task=[*g["safety"].plan_for_clear_task, *["Wait a moment."] * 12]
    ),
    "plan_divergence": lambda g: edit(g["safety"], plan_for_amb_task=list(g["safety"].plan_for_clear_task)),
    "answer_leak": lambda g: edit(  # the ambiguous plan's first open step names the answer after all
        g["preferences"],
        plan_for_amb_task=[
            *g["preferences"].plan_for_amb_task[: g["preferences"].end_of_ambiguity],
            g["preferences"].plan_for_clear_task[g["preferences"].end_of_ambiguity] + " Then some milk.",
            *g["preferences"].plan_for_amb_task[g["preferences"].end_of_ambiguity + 1 :],
        ],
    ),
    "variants": lambda g: edit(g["common_sense_knowledge"], variants=["julienne peeler"]),
    "variants_shortlist": lambda g: edit(g["preferences"], variants=["oat milk", "soy milk"]),
    "shortlist_unexpected": lambda g: edit(g["safety"], amb_shortlist=["plastic cup", "ceramic cup"]),
    "rewrite": lambda g: edit(g["safety"], ambiguous_task="Kindly brew something warm to drink in any vessel."),
    "qa_fit": lambda g: edit(g["preferences"], answer="Yes."),
    "corruption": lambda g: edit(
        g["safety"],
        plan_for_clear_task=["0: " + g["safety"].plan_for_clear_task[0], *g["safety"].plan_for_clear_task[1:]],
    ),
    "environment": lambda g: edit(
        g["safety"], environment_short=g["safety"].environment_short + ", " + g["safety"].environment[0].name
    ),
    "fragment": lambda g: edit(g["preferences"], answer="d like the the oat milk, please."),
}


def test_every_item_rule_has_a_breaker() -> None:
    assert set(BREAKERS) == set(all_rules(dataset=False))


@pytest.mark.parametrize("rule_id", sorted(BREAKERS))
def test_rule_passes_the_good_item_and_fails_the_broken_one(rule_id: str, good, ctx) -> None:  # type: ignore[no-untyped-def]
    for item in good.values():
        assert check_item(item, ctx, only=[rule_id]) == [], (rule_id, item.ambiguity_type)
    broken = BREAKERS[rule_id](good)
    failures = check_item(broken, ctx, only=[rule_id])
    assert failures and {f.rule for f in failures} == {rule_id}
    assert all(f.severity == all_rules()[rule_id].severity for f in failures)
    assert all(":" in f.message for f in failures)  # every message names its field


def test_minimal_pair_edit_ratio_threshold(good) -> None:  # type: ignore[no-untyped-def]
    item = edit(good["safety"], ambiguous_task="Do something completely different with a bowl now please.")
    strict = RuleContext(config=ValidationConfig(max_edit_ratio=0.3))
    assert any("rewrites" in f.message for f in check_item(item, strict, only=["rewrite"]))


def test_preferences_intent_word_must_leave_the_ambiguous_task(good, ctx) -> None:  # type: ignore[no-untyped-def]
    item = good["preferences"]
    word = item.user_intent[0]
    leaky = edit(item, ambiguous_task=item.ambiguous_task.rstrip(".?") + f" ({word}).")
    assert any("distinguishing word" in f.message for f in check_item(leaky, ctx, only=["minimal_pair"]))


def test_dataset_rules_exact_near_and_released(good, ctx, catalog) -> None:  # type: ignore[no-untyped-def]
    base = good["preferences"]
    copy = edit(base, id="copy-1")
    reworded = edit(base, id="reword-1", unambiguous_direct="Please, " + base.unambiguous_direct.lower())
    other = good["safety"]
    judged = validate_items([base, copy, reworded, other], ctx)
    rules = [[f.rule for f in i.validation.failed] for i in judged]  # type: ignore[union-attr]
    assert rules[0] == [] and rules[3] == []
    assert rules[1] == ["duplicate"] and judged[1].validation.passed is False  # type: ignore[union-attr]
    assert rules[2] == ["near_duplicate"] and judged[2].validation.passed is True  # type: ignore[union-attr]
    from ambiforge.textnorm import normalise

    released = RuleContext(catalog=catalog, known_tasks={normalise(other.unambiguous_direct): "amb-old"})
    again = validate_items([other], released)[0]
    assert [f.rule for f in again.validation.failed] == ["released_before"]  # type: ignore[union-attr]


def test_offline_items_pass_every_item_rule(catalog, ctx) -> None:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 5, "clean")
    for i, t in enumerate(["preferences", "common_sense_knowledge", "safety"] * 60):
        item = gen.generate(i, t)[0]
        assert check_item(item, ctx) == [], item.unambiguous_direct
