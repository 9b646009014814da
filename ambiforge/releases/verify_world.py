"""``verify``, the worlds: what the item schema cannot say about a row's scene graph and claims.

``schemas/item.schema.json`` (which embeds the scene graph's schema) checks each graph's shape; it cannot
check that node ids are unique, that every edge joins nodes of the graph in a way its places allow, or
that the node ids an item's claims name (``target``, ``candidates``, ``fitting``, the clear plan's
arguments) are nodes of its own graph. A forged or hand-edited row could pass the schema and still point
at a node that does not exist; the release would then ship a claim nothing can check.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ambiforge.models.scene_graph import check_consistent

#: The fields of a clear-plan action that name graph nodes (the rest are parameters in words).
NODE_ARGUMENTS = ("obj", "target", "tool")


class _Node(NamedTuple):
    id: str
    type: str
    holds: str | None


class _Edge(NamedTuple):
    source: str
    relation: str
    target: str


def _graph_problem(graph: dict[str, Any]) -> str | None:
    """The scene-graph model's own consistency rule (:func:`~ambiforge.models.scene_graph.check_consistent`)
    on a graph whose fields the item schema has checked already, read from the dicts: validating the
    models again would cost ten times more (3 ms a row, most of verify's time)."""
    nodes = [_Node(n["id"], n["type"], n.get("holds")) for n in graph["nodes"]]
    edges = [_Edge(e["source"], e["relation"], e["target"]) for e in graph.get("edges") or ()]
    try:
        check_consistent(nodes, edges, graph.get("relations_known", True))
    except ValueError as exc:
        return f"world.graph: {exc}"
    return None


def _references(world: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, node id) of every node the world's claims name, in the order of the fields."""
    refs: list[tuple[str, str]] = []
    if world.get("target") is not None:
        refs.append(("world.target", world["target"]))
    for key in ("candidates", "fitting"):
        refs += [(f"world.{key}[{k}]", node) for k, node in enumerate(world.get(key) or [])]
    for k, action in enumerate(world.get("clear_plan") or []):
        refs += [(f"world.clear_plan[{k}].{a}", action[a]) for a in NODE_ARGUMENTS if action.get(a) is not None]
    return refs


def world_problem(record: dict[str, Any]) -> str | None:
    """Why a schema-valid record's world does not hold together, as ``key: reason``; None when it does
    (or the item has no world)."""
    world = record.get("world")
    if world is None:
        return None
    problem = _graph_problem(world["graph"])
    if problem:
        return problem
    ids = {node["id"] for node in world["graph"]["nodes"]}
    for key, node in _references(world):
        if node not in ids:
            return f"{key}: node {node!r} is not in the item's graph"
    return None
