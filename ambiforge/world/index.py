"""Lookup tables of a scene graph, built once per graph and reused by every query on it.

A graph is a frozen value, so its tables never go stale; they are kept with the graph
(:attr:`SceneGraph.tables`) and go with it. Validation resolves every referent of every item, so a lookup
must not scan the graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ambiforge.catalog import CatalogObject
from ambiforge.models.scene_graph import LOCATION_RELATIONS, Edge, Node, SceneGraph


@dataclass
class GraphIndex:
    """The tables of one graph's nodes and edges. It holds them, not the graph: the graph holds its index
    (:attr:`SceneGraph.tables`), and an index holding the graph would make every graph a reference cycle,
    which only the cyclic collector frees (a build's items would die in its slowest, oldest generation)."""

    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    by_id: dict[str, Node] = field(default_factory=dict)
    by_name: dict[str, list[Node]] = field(default_factory=dict)
    by_noun: dict[str, list[Node]] = field(default_factory=dict)
    by_tail: dict[str, list[Node]] = field(default_factory=dict)
    location: dict[str, Edge] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    _views: dict[str, CatalogObject] = field(default_factory=dict)
    #: The nodes in other states that simulations on the graph have made, by (id, state values): a plan
    #: opens and closes the same doors, and each plan under another answer runs the same steps again.
    states: dict[tuple[str, tuple[object, ...]], Node] = field(default_factory=dict)
    #: The location edges simulations on the graph have made, by (source, relation, target).
    moves: dict[tuple[str, str, str], Edge] = field(default_factory=dict)
    _out: dict[tuple[str, str], list[str]] | None = None
    _into: dict[tuple[str, str], list[str]] | None = None

    @property
    def out(self) -> dict[tuple[str, str], list[str]]:
        """(source, relation) -> targets; built on first use: most graphs are only asked where things are."""
        if self._out is None:
            self._relations()
        return self._out  # type: ignore[return-value]

    @property
    def into(self) -> dict[tuple[str, str], list[str]]:
        """(relation, target) -> sources; built on first use."""
        if self._into is None:
            self._relations()
        return self._into  # type: ignore[return-value]

    def _relations(self) -> None:
        out: dict[tuple[str, str], list[str]] = {}
        into: dict[tuple[str, str], list[str]] = {}
        for edge in self.edges:
            out.setdefault((edge.source, edge.relation), []).append(edge.target)
            into.setdefault((edge.relation, edge.target), []).append(edge.source)
        self._out, self._into = out, into

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
            v = self._views[node.id] = view_of(node)
        return v


def view_of(node: Node) -> CatalogObject:
    """``node`` as a catalog object."""
    a = node.attributes
    return CatalogObject(
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


def _build(
    graph: SceneGraph,
    like: GraphIndex | None = None,
    location: dict[str, Edge] | None = None,
    views: dict[str, CatalogObject] | None = None,
    base: NodeTables | None = None,
) -> GraphIndex:
    """The tables of ``graph``; ``like``: the index of a graph with the same nodes (only the edges differ,
    as after moving things), whose node tables are shared instead of rebuilt; ``location``: the graph's
    location edges by node in the graph's edge order, when the caller knows them (it moved a few nodes of
    ``like``, or made the graph); ``views``: nodes' :func:`view_of` by id, when the caller has them;
    ``base``: the tables of the graph's first nodes (a world's places, the same in every kitchen), to which
    only the rest are added."""
    ix = GraphIndex(graph.nodes, graph.edges)
    if views is not None:
        ix._views = views
    if like is not None:
        ix.by_id, ix.by_name, ix.by_noun, ix.by_tail = like.by_id, like.by_name, like.by_noun, like.by_tail
        ix.order, ix._views, ix.states, ix.moves = like.order, like._views, like.states, like.moves
        ix.location = location if location is not None else _location(graph)
        return ix
    nodes = graph.nodes
    if base is not None:
        ix.by_id, ix.order = dict(base.by_id), dict(base.order)
        # the base's lists are shared, never appended to: a key the rest adds to gets a new list
        ix.by_name, ix.by_noun, ix.by_tail = dict(base.by_name), dict(base.by_noun), dict(base.by_tail)
    by_id, order, by_name, by_noun, by_tail = ix.by_id, ix.order, ix.by_name, ix.by_noun, ix.by_tail
    for i in range(len(by_id), len(nodes)):
        node = nodes[i]
        nid = node.id
        name, noun, tails = _keys(node.name, node.noun)
        by_id[nid] = node
        order[nid] = i
        found = by_name.get(name)
        by_name[name] = [node] if found is None else [*found, node]
        found = by_noun.get(noun)
        by_noun[noun] = [node] if found is None else [*found, node]
        for tail in tails:
            found = by_tail.get(tail)
            by_tail[tail] = [node] if found is None else [*found, node]
    ix.location = location if location is not None else _location(graph)
    return ix


@dataclass(frozen=True)
class NodeTables:
    """The node tables of a graph's first nodes, to start the index of every graph that begins with them
    (:func:`index`'s ``base``)."""

    by_id: dict[str, Node]
    order: dict[str, int]
    by_name: dict[str, list[Node]]
    by_noun: dict[str, list[Node]]
    by_tail: dict[str, list[Node]]

    @classmethod
    def of(cls, nodes: tuple[Node, ...]) -> NodeTables:
        ix = _build(SceneGraph(relations_known=False, nodes=nodes))
        return cls(ix.by_id, ix.order, ix.by_name, ix.by_noun, ix.by_tail)


@lru_cache(maxsize=4096)
def _keys(name: str, noun: str) -> tuple[str, str, tuple[str, ...]]:
    """A node's lookup keys: its name and noun in lower case, and the last one and two words of its name
    that are not its noun ("peeler" of "swivel peeler" is its noun; "y peeler" of "Y-peeler" a tail). A
    name that does not end in its compound noun resolves whole: the noun's last word alone is no tail of
    it ("peanut butter", a nut butter, is not "butter"; the glass mixing bowl is a bowl)."""
    words, said = name.lower().replace("-", " ").split(), noun.lower().replace("-", " ").split()
    whole = {" ".join(said[i:]) for i in range(1, len(said))} if words[-len(said) :] != said else set()
    tails = sorted({" ".join(words[-1:]), " ".join(words[-2:])} - {noun.lower()} - whole)
    return name.lower(), noun.lower(), tuple(tails)


def _location(graph: SceneGraph) -> dict[str, Edge]:
    return {edge.source: edge for edge in graph.edges if edge.relation in _LOCATION}


_LOCATION = frozenset(LOCATION_RELATIONS)


def index(
    graph: SceneGraph,
    like: SceneGraph | None = None,
    location: dict[str, Edge] | None = None,
    views: dict[str, CatalogObject] | None = None,
    base: NodeTables | None = None,
) -> GraphIndex:
    """The graph's lookup tables (built once per graph); ``like``: a graph with the very same nodes whose
    tables can be shared (a graph made by moving things in ``like``); ``location``: the graph's location
    edges by node, in the graph's edge order, ``views``: its nodes as catalog objects by id (:func:`view_of`,
    the index's own from then on), and ``base``: the tables of the graph's first nodes
    (:meth:`NodeTables.of`), when the caller knows them (used only when the tables are built now)."""
    ix: GraphIndex | None = graph.tables.get("index")
    if ix is None or ix.nodes is not graph.nodes or ix.edges is not graph.edges:
        # a copy with other nodes or edges carries its original's tables: they are not its own
        ix = graph.tables["index"] = _build(graph, index(like) if like is not None else None, location, views, base)
    return ix
