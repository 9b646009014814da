"""A seeded 200-pair offline build (default type mix) makes its claims on the world, and the world agrees:
plans run in the simulator under every right answer, cover their task's clauses, variants and shortlists
are the graph's affordance-filtered sets, and the same seed gives the same bytes."""

from __future__ import annotations

import json

import pytest

from ambiforge.ambiguity import default_mix
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.generation.offline.composition import unframed
from ambiforge.generation.offline.steps import StepSpec, substitute
from ambiforge.models import Item
from ambiforge.world import end_of_ambiguity, render_plan, simulate, stale_names, task_values, uncovered

PAIRS = 200


def build(catalog, seed: int) -> list[Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, seed, "t")
    return [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(PAIRS, default_mix(), seed))]


@pytest.fixture(scope="module")
def items(catalog) -> list[Item]:  # type: ignore[no-untyped-def]
    return build(catalog, 5)


def test_every_item_has_a_world_whose_plans_run_and_agree_with_its_claims(items: list[Item]) -> None:
    for item in items:
        world = item.world
        assert world is not None and world.clear_plan and world.target is not None, item.id
        graph, plan = world.graph, world.clear_plan
        names = {n.id: n.name for n in graph.nodes}
        # variants are the right choices, the shortlist the options: both as the graph's nodes
        assert item.variants == [names[i] for i in world.fitting], item.id
        if item.amb_shortlist:
            assert item.amb_shortlist == [names[i] for i in world.candidates], item.id
        assert world.target in world.fitting
        # the clear plan and the plan under every right answer run
        result = simulate(graph, plan)
        assert result.ok, (item.id, result.message)
        for other in world.fitting:
            under = simulate(graph, substitute(plan, world.target, other))
            assert under.ok, (item.id, other, under.message)
        # the text is the actions' text; the plans part where the actions start to depend on the answer
        assert render_plan(plan, graph) == item.plan_for_clear_task
        others = [c for c in dict.fromkeys([*world.candidates, *world.fitting]) if c != world.target]
        if others:
            expected = end_of_ambiguity(plan, [substitute(plan, world.target, o) for o in others])
            assert item.end_of_ambiguity == expected, item.id
        eoa = item.end_of_ambiguity
        assert item.plan_for_clear_task[:eoa] == item.plan_for_amb_task[:eoa]
        assert item.plan_for_clear_task[eoa] != item.plan_for_amb_task[eoa]
        # every amount and program the task says is in some step; no washed object is called dirty
        task = unframed(item.unambiguous_direct)  # framing sentences and phrases ask for no step
        assert uncovered(graph, plan, values=task_values(task)) == [], item.id
        assert stale_names(graph, plan, item.plan_for_clear_task) == [], item.id


def test_the_issue_s_tools_are_never_the_only_choice(items: list[Item]) -> None:
    """Peelers and graters: every one in the kitchen that can do the job is a variant."""
    for item in items:
        graph = item.world.graph  # type: ignore[union-attr]
        for noun, job in (("peeler", "peel"), ("grater", "grate")):
            if f"a {noun}" in item.ambiguous_task:
                from ambiforge.world import afforded

                assert item.variants == [n.name for n in afforded(graph, noun, job)], item.id


def test_a_cut_uses_the_knife_the_task_names_or_one_it_implies(items: list[Item]) -> None:
    """A robot slices with a knife: the one the task names or, when it names none, one the kitchen has for
    food (world.coverage.invented allows that one). The preference templates that slice do so."""
    cuts = 0
    for item in items:
        plan = item.world.clear_plan  # type: ignore[union-attr]
        for action in plan:
            if action.verb != "cut":
                continue
            cuts += 1
            tool = item.world.graph.node(action.tool or "")  # type: ignore[union-attr]
            if tool.name not in item.unambiguous_direct.lower():
                assert tool.noun == "knife" and " knife" not in item.unambiguous_direct, item.id
                assert set(tool.uses) & {"chop_vegetables", "slice_bread"}, item.id
        if item.provenance.template.startswith("preferences/slice#"):
            assert any(a.verb == "cut" for a in plan), item.id
    assert cuts > 0


def test_the_same_seed_gives_the_same_bytes(catalog, items: list[Item]) -> None:  # type: ignore[no-untyped-def]
    again = build(catalog, 5)
    assert [json.dumps(i.to_record(), sort_keys=True) for i in again] == [
        json.dumps(i.to_record(), sort_keys=True) for i in items
    ]


def test_a_step_names_one_verb_and_its_fields() -> None:
    assert StepSpec.model_validate({"put": "f", "target": "fridge"}) == StepSpec(verb="put", obj="f", target="fridge")
    with pytest.raises(ValueError, match="a step names one verb"):
        StepSpec.model_validate({"obj": "f"})
    with pytest.raises(ValueError, match="use needs tool, how"):
        StepSpec.model_validate({"use": "f"})


def test_every_graph_validates_against_the_published_schema_and_the_world_rules(items: list[Item], catalog) -> None:  # type: ignore[no-untyped-def]
    import jsonschema

    from ambiforge.validation import RuleContext
    from ambiforge.validation.rules import check_item
    from tests.conftest import REPO

    schema = json.loads((REPO / "schemas" / "scene_graph.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    ctx = RuleContext(catalog=catalog)
    for item in items:
        assert item.world is not None
        errors = [e.message for e in validator.iter_errors(json.loads(item.world.graph.to_json()))]
        assert errors == [], (item.id, errors[:3])
        world_failures = [f.message for f in check_item(item, ctx) if f.rule.startswith("world")]
        assert world_failures == [], (item.id, world_failures)


def test_an_items_graph_leaves_the_lookup_tables_of_drawing_and_planning_behind(catalog) -> None:  # type: ignore[no-untyped-def]
    """The tables a draw gathers on its graphs (an index, the states simulations made) go with the draw: the
    item's graph (the planned one) keeps none of them; they are made again only when asked for."""
    gen = OfflineGenerator(catalog, 5, "t")
    worlds = [gen.generate(i, "preferences")[0].world for i in range(3)]
    for world in worlds:
        assert world is not None and world.perturbation is None  # grounded by the generator, not a mechanism
        assert world.graph.tables == {}
        assert world.target in {n.id for n in world.graph.nodes}
