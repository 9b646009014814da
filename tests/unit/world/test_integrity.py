"""The one graph check every reader of items makes (ambiforge/world/integrity.py)."""

from __future__ import annotations

from typing import Any

import pytest

from ambiforge.world.integrity import containment_cycle, graph_problem, item_problem


def graph(*edges: tuple[str, str, str], nodes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    default = [
        {"id": "counter", "type": "place", "holds": "on"},
        {"id": "fridge", "type": "place", "holds": "in"},
        {"id": "tray", "type": "object"},
        {"id": "pizza", "type": "object"},
        {"id": "mug", "type": "object"},
    ]
    return {
        "nodes": default if nodes is None else nodes,
        "edges": [{"source": s, "relation": r, "target": t} for s, r, t in edges],
    }


def test_a_kitchen_that_holds_together_passes() -> None:
    assert graph_problem(graph(("tray", "on", "counter"), ("pizza", "inside", "tray"), ("mug", "in", "fridge"))) is None


@pytest.mark.parametrize(
    "lying,says",
    [
        (
            graph(("tray", "inside", "pizza"), ("pizza", "inside", "tray")),
            "a containment cycle (tray in pizza in tray)",
        ),
        (
            graph(("tray", "inside", "pizza"), ("pizza", "inside", "mug"), ("mug", "inside", "tray")),
            "containment cycle",
        ),
        (graph(("mug", "in", "ghost")), "unknown node 'ghost'"),
        (graph(("mug", "in", "fridge"), ("mug", "on", "counter")), "node 'mug' has two locations"),
        (graph(("mug", "under", "counter")), "relation 'under' is not one the schema names"),
        (graph(nodes=[]), "an empty graph (no nodes)"),
        (graph(nodes=[{"id": "mug", "type": "object"}, {"id": "mug", "type": "object"}]), "duplicate node id 'mug'"),
        (graph(nodes=[{"id": 3, "type": "object"}]), "nodes[0].id: 3 is not a node id"),
        (graph(("mug", "next_to", "mug")), "a node relates to itself"),
        (  # a row that fails the item schema still gets its world checked (verify): a list is no relation
            {**graph(), "edges": [{"source": "mug", "relation": ["in"], "target": "fridge"}]},
            "relation ['in'] is not one the schema names",
        ),
    ],
)
def test_a_lying_graph_is_named(lying: dict[str, Any], says: str) -> None:
    problem = graph_problem(lying, "world.perturbation.graph")
    assert problem is not None and problem.startswith("world.perturbation.graph") and says in problem


def test_a_cycle_is_found_wherever_it_starts() -> None:
    edges = graph(("mug", "in", "fridge"), ("tray", "inside", "pizza"), ("pizza", "inside", "tray"))["edges"]
    from ambiforge.world.integrity import _Edge

    assert containment_cycle([_Edge(e["source"], e["relation"], e["target"]) for e in edges]) == [
        "tray",
        "pizza",
        "tray",
    ]


def test_an_environment_item_needs_its_perturbed_kitchen() -> None:
    item = {"ambiguity_type": "absence", "world": {"graph": graph(("mug", "in", "fridge")), "target": "mug"}}
    assert item_problem(item) == "world.perturbation: missing (an item of type absence is set in a perturbed kitchen)"
    assert item_problem({"ambiguity_type": "absence", "world": None}) is not None
    assert item_problem({"ambiguity_type": "preferences", "world": None}) is None
