"""Lookup tables of a scene graph, built once per graph and reused by every query on it.

A graph is a frozen value, so its tables never go stale; they are kept in a small cache keyed by the
graph's identity (holding the graph itself, so an id is never reused while its entry lives). Resolving a
referent on a 300-node graph must stay well under a millisecond: validation resolves every referent of
every item.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ambiforge.catalog import CatalogObject
from ambiforge.models.scene_graph import LOCATION_RELATIONS, Edge, Node, SceneGraph

_CACHE_SIZE = 64


@dataclass
class GraphIndex:
    graph: SceneGraph
    by_id: dict[str, Node] = field(default_factory=dict)
    by_name: dict[str, list[Node]] = field(default_factory=dict)
    by_noun: dict[str, list[Node]] = field(default_factory=dict)
    by_tail: dict[str, list[Node]] = field(default_factory=dict)
    out: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    into: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    location: dict[str, Edge] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    _views: dict[str, CatalogObject] = field(default_factory=dict)

    def find(self, ref: str) -> Node | None:
        """A node by id or by name (case-insensitive)."""
        node = self.by_id.get(ref)
        if node is not None:
            return node
        named = self.by_name.get(ref.lower())
        return named[0] if named else None

    def view(self, node: Node) -> CatalogObject:
        """The node as a catalog object, so catalog conditions (placement, affordances) apply to it."""
        v = self._views.get(node.id)
        if v is None:
            a = node.attributes
            v = CatalogObject(
                name=node.name,
                group=node.group or node.kind,
                kind=node.kind,
                noun=node.noun,
                modifier=node.modifier or node.name,
                material=a.material,
                microwave_safe=a.microwave_safe,
                oven_safe=a.oven_safe,
                dishwasher_safe=a.dishwasher_safe,
                heat_resistant=a.heat_resistant,
                sharp=a.sharp,
                needs_refrigeration=a.needs_refrigeration,
                clean=node.state.clean,
                mass=node.mass,
                plural=node.plural,
                uses=node.uses,
                tags=node.tags,
            )
            self._views[node.id] = v
        return v


def _build(graph: SceneGraph, like: GraphIndex | None = None) -> GraphIndex:
    """The tables of ``graph``; ``like``: the index of a graph with the same nodes (only the edges differ,
    as after moving things), whose node tables are shared instead of rebuilt."""
    ix = GraphIndex(graph)
    if like is not None:
        ix.by_id, ix.by_name, ix.by_noun, ix.by_tail = like.by_id, like.by_name, like.by_noun, like.by_tail
        ix.order, ix._views = like.order, like._views
        _edges(ix, graph)
        return ix
    for i, node in enumerate(graph.nodes):
        ix.by_id[node.id] = node
        ix.order[node.id] = i
        ix.by_name.setdefault(node.name.lower(), []).append(node)
        ix.by_noun.setdefault(node.noun.lower(), []).append(node)
        words = node.name.lower().replace("-", " ").split()
        for tail in {" ".join(words[-1:]), " ".join(words[-2:])} - {node.noun.lower()}:
            ix.by_tail.setdefault(tail, []).append(node)
    _edges(ix, graph)
    return ix


def _edges(ix: GraphIndex, graph: SceneGraph) -> None:
    for edge in graph.edges:
        ix.out.setdefault((edge.source, edge.relation), []).append(edge.target)
        ix.into.setdefault((edge.relation, edge.target), []).append(edge.source)
        if edge.relation in LOCATION_RELATIONS:
            ix.location[edge.source] = edge


_cache: OrderedDict[int, GraphIndex] = OrderedDict()
_lock = threading.Lock()


def index(graph: SceneGraph, like: SceneGraph | None = None) -> GraphIndex:
    """The graph's lookup tables (built once per graph); ``like``: a graph with the very same nodes whose
    tables can be shared (a graph made by moving things in ``like``)."""
    key = id(graph)
    with _lock:
        ix = _cache.get(key)
        if ix is not None and ix.graph is graph:
            _cache.move_to_end(key)
            return ix
    ix = _build(graph, index(like) if like is not None else None)
    with _lock:
        _cache[key] = ix
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return ix
