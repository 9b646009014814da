"""One check of whether an item's kitchens hold together, for every reader of items.

A graph that lies (a containment cycle, an edge to a node that is not there, an object in two places, a
relation the schema does not know) or an item whose claims name nodes its kitchens lack was accepted by
some readers and refused by others: ``release`` published what its own ``verify`` rejected, ``eval``
scored what ``validate`` rejected, and nobody looked at the perturbed kitchen. Every reader (build and
``validate`` through the ``world_graph`` rule, ``release``, ``verify``, ``eval``, ``import-ambik``) asks
:func:`item_problem` and gets the same answer, for the clear graph and the perturbed one alike.

The check reads models (a :class:`~ambiforge.models.item.World`) and plain JSON records (``verify`` and
``release`` read rows as dicts) through the same accessors, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ambiforge import ambiguity
from ambiforge.models.scene_graph import LOCATION_RELATIONS, RELATIONS, check_consistent

#: The fields of a clear-plan action that name graph nodes (the rest are parameters in words).
NODE_ARGUMENTS = ("obj", "target", "tool")
_RELATIONS = frozenset(RELATIONS)


class _Node(NamedTuple):
    id: Any
    type: Any
    holds: Any


class _Edge(NamedTuple):
    source: Any
    relation: Any
    target: Any


def _get(value: Any, key: str, default: Any = None) -> Any:
    if isinstance(value, dict):  # a JSON record: a plain lookup (the Mapping check goes through the ABC machinery)
        return value.get(key, default)
    if isinstance(value, Mapping):
        return value.get(key, default)
    return getattr(value, key, default)


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def containment_cycle(edges: Iterable[Any]) -> list[str] | None:
    """The node ids of a cycle of ``in``/``on``/``inside`` edges ("the tray is inside the pizza; the pizza
    is inside the tray"), in order, or None."""
    where: dict[str, str] = {}
    for edge in edges:
        if edge.relation in LOCATION_RELATIONS:
            where.setdefault(edge.source, edge.target)
    done: set[str] = set()
    for start in where:
        path: list[str] = []
        on_path: set[str] = set()
        node: str | None = start
        while node is not None and node not in done:
            if node in on_path:
                return [*path[path.index(node) :], node]
            path.append(node)
            on_path.add(node)
            node = where.get(node)
        done.update(path)
    return None


def graph_problem(graph: Any, where: str = "world.graph") -> str | None:
    """Why ``graph`` (a SceneGraph or its JSON) is not a kitchen, as ``where: reason``, or None: no nodes,
    a node id that is not text or repeats, an edge whose relation the schema does not name, an edge to a
    node not in the graph, two places for one object, a containment cycle (and the model's own placement
    rules: ``in``/``on`` only to places that hold things so, ``inside`` only in objects)."""
    if graph is None:
        return f"{where}: missing"
    raw_nodes = _get(graph, "nodes")
    if not isinstance(raw_nodes, list | tuple) or not raw_nodes:
        return f"{where}: an empty graph (no nodes)"
    nodes = []
    for k, node in enumerate(raw_nodes):
        if isinstance(node, dict):  # a JSON record's node, as release and verify read every row: plain lookups
            node_id, kind, holds = node.get("id"), node.get("type"), node.get("holds")
        else:
            node_id, kind, holds = _get(node, "id"), _get(node, "type"), _get(node, "holds")
        if not isinstance(node_id, str) or not node_id:
            return f"{where}.nodes[{k}].id: {node_id!r} is not a node id"
        nodes.append(_Node(node_id, kind, holds))
    edges = []
    for k, edge in enumerate(_list(_get(graph, "edges", ()))):
        if isinstance(edge, dict):
            source, relation, target = edge.get("source"), edge.get("relation"), edge.get("target")
        else:
            source, relation, target = _get(edge, "source"), _get(edge, "relation"), _get(edge, "target")
        if not isinstance(relation, str) or relation not in _RELATIONS:  # a set: no list or dict in it
            return f"{where}.edges[{k}]: relation {relation!r} is not one the schema names ({', '.join(RELATIONS)})"
        if not isinstance(source, str) or not isinstance(target, str):
            return f"{where}.edges[{k}]: its ends are not node ids"
        edges.append(_Edge(source, relation, target))
    try:
        check_consistent(nodes, edges, _get(graph, "relations_known", True) is not False)
    except ValueError as exc:
        return f"{where}: {exc}"
    cycle = containment_cycle(edges)
    if cycle is not None:
        return f"{where}: a containment cycle ({' in '.join(cycle)})"
    return None


def _ids(graph: Any) -> set[str]:
    return {_get(n, "id") for n in _list(_get(graph, "nodes"))}


def _missing(key: str, ids: Iterable[Any], held: set[str], kitchen: str) -> str | None:
    for k, node in enumerate(ids):
        if node not in held:
            return f"{key}[{k}]: node {node!r} is not in {kitchen}"
    return None


def world_problem(world: Any) -> str | None:
    """Why a world (model or JSON) does not hold together, or None: :func:`graphs_problem`, then a node its
    claims name (``target``, ``candidates``, ``fitting``, the clear plan's arguments) missing from the clear
    graph (``validate`` reports that one as ``world_names``)."""
    if problem := graphs_problem(world):
        return problem
    held = _ids(_get(world, "graph"))
    target = _get(world, "target")
    if target is not None and target not in held:
        return f"world.target: node {target!r} is not in the item's graph"
    for key in ("candidates", "fitting"):
        if problem := _missing(f"world.{key}", _list(_get(world, key)), held, "the item's graph"):
            return problem
    for k, action in enumerate(_list(_get(world, "clear_plan"))):
        for name in NODE_ARGUMENTS:
            node = _get(action, name)
            if node is not None and node not in held:
                return f"world.clear_plan[{k}].{name}: node {node!r} is not in the item's graph"
    return None


def graphs_problem(world: Any) -> str | None:
    """Why either graph of a world is not a kitchen (:func:`graph_problem`), or a perturbation whose added
    nodes, moved nodes or agents' views are not in the perturbed graph, or whose removed nodes are not in
    the clear one; None when they hold."""
    clear = _get(world, "graph")
    if problem := graph_problem(clear, "world.graph"):
        return problem
    perturbation = _get(world, "perturbation")
    if perturbation is None:
        return None
    changed = _get(perturbation, "graph")
    if problem := graph_problem(changed, "world.perturbation.graph"):
        return problem
    held, now = _ids(clear), _ids(changed)
    checks = (
        ("added", now, "the perturbed graph"),
        ("moved", now, "the perturbed graph"),
        ("removed", held, "the item's graph"),
    )
    for key, ids, kitchen in checks:
        if problem := _missing(f"world.perturbation.{key}", _list(_get(perturbation, key)), ids, kitchen):
            return problem
    for k, view in enumerate(_list(_get(perturbation, "views"))):
        seen = _list(_get(view, "nodes"))
        if problem := _missing(f"world.perturbation.views[{k}].nodes", seen, now, "the perturbed graph"):
            return problem
    return None


def item_problem(item: Any) -> str | None:
    """:func:`world_problem` of an item (model or JSON), and an environment-induced item without its
    perturbed kitchen; None for an item without a world (made before the world model)."""
    world = _get(item, "world")
    kind = _get(item, "ambiguity_type")
    environment = isinstance(kind, str) and ambiguity.level(kind) == "environment"
    if environment and (world is None or _get(world, "perturbation") is None):
        return f"world.perturbation: missing (an item of type {kind} is set in a perturbed kitchen)"
    if world is None:
        return None
    return world_problem(world)
