"""Perturbing a clear kitchen (ambiforge.world.perturb): adding, removing, agents' views, and finding every
difference the declaration does not explain; and the ask_robot verb."""

from __future__ import annotations

from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Edge
from ambiforge.world import render_action, resolve, simulate
from ambiforge.world.describe import describe
from ambiforge.world.perturb import (
    agent_views,
    fetch,
    first_use,
    parse_referent,
    unexplained,
    with_node,
    without,
)
from ambiforge.world.sampler import object_node, row_edges


def test_parse_referent_reads_what_referent_words_writes(make_graph) -> None:
    graph = make_graph(
        {"glass mug": "counter", "ceramic mug": "shelf_1", "whole milk": "fridge"},
        rows={"counter": ["glass_mug", "tea_kettle"]},
    )
    expr = parse_referent("mug left of the tea kettle")
    assert [n.id for n in resolve(graph, expr)] == ["glass_mug"]
    assert [n.id for n in resolve(graph, parse_referent("mug"))] == ["glass_mug", "ceramic_mug"]


def test_a_node_set_beside_another_takes_over_its_relations(make_graph, catalog) -> None:
    from ambiforge.catalog.world import cached_world

    graph = make_graph({"glass mug": "counter"}, rows={"counter": ["glass_mug", "tea_kettle"]})
    dup = object_node(catalog.objects["ceramic mug"], "ceramic_mug", cached_world())
    perturbed = with_node(graph, dup, "counter", beside="glass_mug")
    assert {n.id for n in resolve(perturbed, parse_referent("mug left of the tea kettle"))} == {
        "glass_mug",
        "ceramic_mug",
    }
    assert unexplained(graph, perturbed, added=["ceramic_mug"], removed=[], moved=[]) == []
    assert "node ceramic_mug added but not declared" in unexplained(graph, perturbed, [], [], [])


def test_removing_a_node_takes_its_edges_and_every_difference_is_named(make_graph) -> None:
    graph = make_graph({"glass mug": "shelf_1", "whole milk": "fridge"})
    gone = without(graph, "glass_mug")
    assert resolve(gone, "mug") == [] and not any("glass_mug" in (e.source, e.target) for e in gone.edges)
    assert unexplained(graph, gone, added=[], removed=["glass_mug"], moved=[]) == []
    moved = gone.model_copy(
        update={"edges": (*gone.edges[:-1], Edge(source="whole_milk", relation="on", target="counter"))}
    )
    problems = unexplained(graph, moved, added=[], removed=["glass_mug"], moved=[])
    assert "edge whole_milk in fridge removed" in problems and "edge whole_milk on counter added" in problems
    assert unexplained(graph, moved, added=[], removed=["glass_mug"], moved=["whole_milk"]) == []
    assert unexplained(graph, graph, [], [], ["whole_milk"]) == ["node whole_milk declared moved but stays in fridge"]


def test_agent_views_split_the_kitchen_and_share_the_counter(make_graph) -> None:
    graph = make_graph({"glass mug": "cupboard_2", "whole milk": "fridge", "red apple": "counter"})
    robot, other = agent_views(graph, other_side="right")
    assert (robot.agent, other.agent) == ("robot", "robot_b")
    assert "glass_mug" in other.nodes and "glass_mug" not in robot.nodes
    assert "whole_milk" in robot.nodes and "whole_milk" not in other.nodes
    assert {"red_apple", "counter", "tea_kettle"} <= set(robot.nodes) & set(other.nodes)


def test_fetch_opens_what_is_closed_and_the_plan_first_needs_the_target_there(make_graph) -> None:
    graph = make_graph({"glass mug": "cupboard_1", "red apple": "counter"})
    plan = [*fetch(graph, "glass_mug"), Action(verb="hand_over", obj="glass_mug")]
    assert [a.verb for a in plan] == ["open", "take_out", "close", "hand_over"]
    assert simulate(graph, plan).ok
    assert first_use(plan, "glass_mug") == 1 and first_use(plan, "glass_mug", "cupboard_1") == 0
    assert [a.verb for a in fetch(graph, "red_apple")] == ["pick"]


def test_ask_robot_is_rendered_and_changes_nothing(make_graph) -> None:
    graph = make_graph({"glass mug": "counter"})
    ask = Action(verb="ask_robot", question="Can you see the mug?")
    assert render_action(ask) == "Ask the other robot: Can you see the mug?"
    result = simulate(graph, [ask])
    assert result.ok and result.graph.nodes == graph.nodes


def test_an_object_alone_in_its_row_keeps_the_row_when_the_one_in_front_goes(make_graph) -> None:
    names = ["glass mug", "ceramic mug", "whole milk"]
    graph = make_graph(dict.fromkeys(names, "counter"))
    rows = row_edges([["glass_mug", "ceramic_mug"], ["whole_milk"]])  # the milk stands behind the glass mug
    graph = graph.model_copy(update={"edges": (*graph.edges, *rows)})
    assert describe(graph) == "On the counter there is a glass mug next to a ceramic mug, and behind them whole milk."
    gone = without(graph, "glass_mug")
    assert describe(gone) == "On the counter there is a ceramic mug, and behind them whole milk."
    assert unexplained(graph, gone, added=[], removed=["glass_mug"], moved=[]) == []
