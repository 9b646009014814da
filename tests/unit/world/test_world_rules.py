"""The world rules on hand-laid items: a clean item passes; each way of breaking it (the issue's four) fails
the matching rule with its evidence; graphs that cannot support a rule make it skip, never guess."""

from __future__ import annotations

from typing import Any

import pytest

from ambiforge.models import Item, Provenance, World
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Edge, SceneGraph
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import check_item
from ambiforge.world import nodes_only_graph
from ambiforge.world.sampler import node_id, object_node

KITCHEN = {
    "russet potato": "counter",
    "Y-peeler": "drawer_1",
    "swivel peeler": "drawer_1",
    "julienne peeler": "drawer_1",
    "whole milk": "fridge",
    "glass mug": "shelf_1",
}
PLAN = [
    Action(verb="open", obj="drawer_1"),
    Action(verb="pick", obj="swivel_peeler"),
    Action(verb="use", obj="russet_potato", tool="swivel_peeler", how="peel"),
    Action(verb="place", obj="swivel_peeler", target="counter"),
    Action(verb="close", obj="drawer_1"),
]
TEXT = [
    "Open the drawer.",
    "Pick up the swivel peeler.",
    "Peel the russet potato with the swivel peeler.",
    "Put the swivel peeler on the counter.",
    "Close the drawer.",
]


def peeling_item(graph: SceneGraph, **changes: Any) -> Item:
    world = World(
        graph=graph,
        target="swivel_peeler",
        candidates=["y_peeler", "swivel_peeler", "julienne_peeler"],
        affordance="peel",
        fitting=["y_peeler", "swivel_peeler"],
        clear_plan=PLAN,
    )
    fields: dict[str, Any] = dict(
        id="amb-test",
        environment=[{"name": n} for n in KITCHEN],
        environment_short=", ".join(KITCHEN),
        environment_full=", ".join(KITCHEN),
        unambiguous_direct="Peel the russet potato with the swivel peeler.",
        ambiguous_task="Peel the russet potato with a peeler.",
        ambiguity_type="common_sense_knowledge",
        question="Which peeler should I use?",
        answer="Any peeler that peels, for example the swivel peeler.",
        plan_for_clear_task=TEXT,
        plan_for_amb_task=[*TEXT[:1], "Pick up a peeler.", *TEXT[2:]],
        end_of_ambiguity=1,
        user_intent=["Y-peeler|swivel peeler"],
        variants=["Y-peeler", "swivel peeler"],
        world=world,
        provenance=Provenance(generator="offline", generator_version="test", run_id="test"),
    )
    world_changes = changes.pop("world_changes", {})
    fields.update(changes)
    fields["world"] = world.model_copy(update=world_changes)
    return Item.model_validate(fields)


def world_failures(item: Item) -> list[tuple[str, str]]:
    return [(f.rule, f.message) for f in check_item(item, RuleContext()) if f.rule.startswith("world")]


@pytest.fixture
def graph(make_graph):
    return make_graph(KITCHEN)


def test_a_clean_item_passes_every_world_rule(graph):
    assert world_failures(peeling_item(graph)) == []


def test_a_second_fitting_object_in_the_clear_graph_is_named_with_its_place(graph, catalog):
    from ambiforge.catalog.world import cached_world

    twin = object_node(catalog.objects["swivel peeler"], "swivel_peeler_2", cached_world())
    crowded = SceneGraph(
        nodes=(*graph.nodes, twin),
        edges=tuple(
            sorted(
                (*graph.edges, Edge(source="swivel_peeler_2", relation="on", target="counter")),
                key=lambda e: (e.source, e.relation, e.target),
            )
        ),
    )
    assert world_failures(peeling_item(crowded)) == [
        (
            "world_referent",
            "clear task: 'swivel peeler' matches 2 nodes: swivel peeler (top drawer), swivel peeler (counter)",
        )
    ]


def test_taking_from_a_closed_drawer_is_the_failing_step(graph):
    item = peeling_item(graph, world_changes={"clear_plan": PLAN[1:]})
    failures = world_failures(item)
    assert [r for r, _ in failures] == ["world_plan"]
    assert failures[0][1] == "plan_for_clear_task: step 1: pick up the swivel peeler while the top drawer is closed"


def test_leaving_the_y_peeler_out_of_the_variants_names_it(graph):
    item = peeling_item(graph, variants=["swivel peeler"], world_changes={"fitting": ["swivel_peeler"]})
    failures = world_failures(item)
    assert failures and all(r == "world_variants" for r, _ in failures)
    assert failures == [
        (
            "world_variants",
            "variants: leave out Y-peeler (top drawer), which can peel too (Y-peeler, swivel peeler can)",
        )
    ]


def test_a_tool_that_cannot_do_the_job_in_the_variants_is_named(graph):
    item = peeling_item(graph, variants=["Y-peeler", "swivel peeler", "julienne peeler"])
    assert world_failures(item) == [("world_variants", "variants: julienne peeler (top drawer) cannot peel")]


def test_an_object_the_graph_does_not_hold_is_named(graph):
    item = peeling_item(graph, variants=["Y-peeler", "swivel peeler", "kitchen scale"])
    failures = world_failures(item)
    assert ("world_names", "variants: 'kitchen scale' not in the kitchen's graph") in failures


def test_a_plan_node_the_graph_does_not_hold_is_named(graph):
    plan = [*PLAN[:2], Action(verb="use", obj="carrot", tool="swivel_peeler", how="peel"), *PLAN[3:]]
    failures = world_failures(peeling_item(graph, world_changes={"clear_plan": plan}))
    assert ("world_names", "world: names node(s) carrot the graph does not hold") in failures


def test_end_of_ambiguity_is_where_the_answers_plans_part(graph):
    failures = world_failures(peeling_item(graph, end_of_ambiguity=3))
    assert failures == [
        (
            "world_end_of_ambiguity",
            "end_of_ambiguity: 3, but the plans part at step 1 (step 2: Pick up the swivel peeler.)",
        )
    ]


def test_a_nodes_only_graph_skips_the_plan_rules_and_guesses_no_relation(catalog):
    graph = nodes_only_graph([catalog.objects[n] for n in KITCHEN])
    item = peeling_item(graph, world_changes={"clear_plan": PLAN[1:]})  # a plan that could not run
    assert world_failures(item) == []
    assert node_id("Y-peeler") in {n.id for n in graph.nodes}
