"""The scene graph in words: where each thing is, for the AmbiK CSV's ``environment_full``.

AmbiK's ``environment_full`` is a comma list of objects; a reader of an exported item (or a model given
the CSV) then cannot tell that the glass mug is on the shelf and the milk in the fridge, which is what the
item's ambiguity may rest on. A graph whose relations are known says it in sentences instead:
"On the upper shelf there is a glass mug next to a ceramic mug; the whole milk is in the fridge."

Places are visited in the graph's order (the world file's). A surface lists what stands on it in rows,
front row first, left to right ("..., and behind them ..., and behind those ..."); an enclosing place
says what is in it; an object held by another object follows its holder's sentence. Appliances standing
on a surface are named in its row (that is what "left of the kettle" refers to). Nothing is left out:
an object without a location (not made by the sampler) is listed at the end.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ambiforge.environment.articles import indefinite
from ambiforge.models.scene_graph import LOCATION_RELATIONS, SceneGraph


class _Node(NamedTuple):
    """What the description reads of a node (from a model or from a record's dict alike)."""

    id: str
    type: str
    name: str
    mass: bool
    plural: bool
    holds: str | None


class _Edge(NamedTuple):
    source: str
    relation: str
    target: str


def _listed(node: _Node) -> str:
    """As in a list of the scene: 'a glass mug', 'whole milk', 'oven mitts'."""
    if node.type == "object" and (node.mass or node.plural):
        return node.name
    return f"{indefinite(node.name)} {node.name}"


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _rows(edges: list[_Edge], members: list[str]) -> list[list[str]]:
    """The members of one place in rows (front first), each row left to right, from the spatial edges.

    A row is what left/right relations join (they run across a row only), and it stands one row behind
    the row of whatever any of its members stands behind. So an object whose only "behind" edge went with
    a removed object keeps its row by its neighbours in it, rather than coming to the front."""
    inside = set(members)
    left_count = dict.fromkeys(members, 0)
    in_front: dict[str, str] = {}
    row_of = {m: m for m in members}

    def root(node: str) -> str:
        while row_of[node] != node:
            row_of[node] = row_of[row_of[node]]
            node = row_of[node]
        return node

    for edge in edges:
        if edge.source in inside and edge.target in inside:
            if edge.relation == "left_of":
                left_count[edge.target] += 1
            elif edge.relation == "behind":
                in_front[edge.source] = edge.target
            if edge.relation in ("left_of", "right_of"):
                row_of[root(edge.source)] = root(edge.target)
    rows_by_root: dict[str, list[str]] = {}
    for member in members:
        rows_by_root.setdefault(root(member), []).append(member)
    depths: dict[str, int] = {}

    def depth(row: str, seen: frozenset[str] = frozenset()) -> int:
        if row not in depths:
            fronts = {root(in_front[m]) for m in rows_by_root[row] if m in in_front} - seen - {row}
            depths[row] = max((1 + depth(f, seen | {row}) for f in fronts), default=0)
        return depths[row]

    order = {m: k for k, m in enumerate(members)}
    ranked = sorted(members, key=lambda m: (depth(root(m)), left_count[m], order[m]))
    rows: list[list[str]] = []
    for member in ranked:
        if not rows or depth(root(member)) != depth(root(rows[-1][0])):
            rows.append([])
        rows[-1].append(member)
    return rows


def _row_phrase(nodes: dict[str, _Node], row: list[str]) -> str:
    names = [_listed(nodes[m]) for m in row]
    return f"{names[0]} next to {names[1]}" if len(names) == 2 else _joined(names)


def _surface(nodes: dict[str, _Node], place: _Node, rows: list[list[str]]) -> str:
    first = nodes[rows[0][0]]
    verb = "are" if first.type == "object" and first.plural else "is"
    text = f"on the {place.name} there {verb} {_row_phrase(nodes, rows[0])}"
    for k, row in enumerate(rows[1:]):
        text += f", and behind {'them' if k == 0 else 'those'} {_row_phrase(nodes, row)}"
    return text


def _enclosed(nodes: dict[str, _Node], holder: _Node, members: list[str], relation: str) -> str:
    names = [f"the {nodes[m].name}" for m in members]
    verb = "are" if len(members) > 1 or nodes[members[0]].plural else "is"
    return f"{_joined(names)} {verb} {relation} the {holder.name}"


def describe(graph: SceneGraph) -> str | None:
    """Sentences saying where everything is; None when the graph does not know where things are (an
    imported, nodes-only graph), so the caller keeps its list of names."""
    if not graph.relations_known or not graph.edges:
        return None
    nodes = [_Node(n.id, n.type, n.name, n.mass, n.plural, n.holds) for n in graph.nodes]
    return _describe(nodes, [_Edge(e.source, e.relation, e.target) for e in graph.edges])


def describe_record(graph: dict[str, Any]) -> str | None:
    """:func:`describe` of a graph as a record holds it (``model_dump(mode="json")``): a release row has
    passed the item schema already, and building the models again would cost more than the description."""
    if not graph.get("relations_known") or not graph.get("edges"):
        return None
    nodes = [
        _Node(n["id"], n["type"], n["name"], n.get("mass", False), n.get("plural", False), n.get("holds"))
        for n in graph["nodes"]
    ]
    return _describe(nodes, [_Edge(e["source"], e["relation"], e["target"]) for e in graph["edges"]])


def _describe(graph_nodes: list[_Node], edges: list[_Edge]) -> str | None:
    nodes = {n.id: n for n in graph_nodes}
    held: dict[str, list[str]] = {n.id: [] for n in graph_nodes}
    located: set[str] = set()
    for edge in edges:
        if edge.relation in LOCATION_RELATIONS:
            held[edge.target].append(edge.source)
            located.add(edge.source)
    order = {n.id: k for k, n in enumerate(graph_nodes)}
    clauses: list[str] = []
    for node in graph_nodes:
        members = sorted(held[node.id], key=order.__getitem__)
        if not members:
            continue
        if node.type == "place" and node.holds == "on":
            clauses.append(_surface(nodes, node, _rows(edges, members)))
        else:
            clauses.append(_enclosed(nodes, node, members, "in" if node.type == "place" else "inside"))
    loose = [n for n in graph_nodes if n.type == "object" and n.id not in located]
    if loose:
        clauses.append(f"there is also {_joined([_listed(n) for n in loose])}")
    if not clauses:
        return None
    text = "; ".join(clauses) + "."
    return text[0].upper() + text[1:]
