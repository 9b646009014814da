"""Build the scene graph of a scene: every place of the kitchen, every object where kitchens keep it, and
the spatial relations among the objects that share a place.

Deterministic by construction: randomness comes from a ``random.Random`` seeded from the seed alone (a
string seed, hashed the same way on every run), places and objects are visited in a fixed order and the
edges are sorted, so the same seed and scene give the same canonical JSON, byte for byte. The sampler uses
its own random stream, so building a graph never shifts the scene's or the generator's draws.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from pydantic_core import ArgsKwargs

from ambiforge.catalog import CatalogObject
from ambiforge.catalog.world import Place, World, cached_world
from ambiforge.environment.sampler import Scene
from ambiforge.models.scene_graph import Attributes, Edge, Node, SceneGraph, State
from ambiforge.world.index import NodeTables, index, view_of

_NOT_ID = re.compile(r"[^a-z0-9]+")


def node_id(name: str) -> str:
    """A readable, stable id from a name: 'glass mug' -> glass_mug, "chef's knife" -> chefs_knife."""
    return _NOT_ID.sub("_", name.lower().replace("'", "")).strip("_") or "node"


def place_node(place: Place) -> Node:
    return Node(
        id=place.id,
        type="place",
        name=place.name,
        noun=place.noun,
        kind=place.kind,
        holds=place.holds,  # type: ignore[arg-type]
        state=State(open=False if place.openable else None, switched_on=False if place.switchable else None),
    )


def object_node(obj: CatalogObject, oid: str, world: World) -> Node:
    node = _placing(world).placed(obj).node
    return node if node.id == oid else node.model_copy(update={"id": oid})


def placement(obj: CatalogObject, world: World) -> tuple[str, ...]:
    """The places ``obj`` may be kept in (``world.candidates``, worked out once per world and object)."""
    return _placing(world).placed(obj).candidates


def _object_node(obj: CatalogObject, oid: str, world: World) -> Node:
    extra = world.extra_attributes(obj)
    return Node(
        id=oid,
        type="object",
        name=obj.name,
        noun=obj.noun,
        group=obj.group,
        kind=obj.kind,
        modifier=obj.modifier,
        mass=obj.mass,
        plural=obj.plural,
        tags=tuple(obj.tags),
        uses=tuple(obj.uses),
        attributes=Attributes(
            material=obj.material,
            colour=extra.get("colour"),
            size=extra.get("size"),  # type: ignore[arg-type]
            microwave_safe=obj.microwave_safe,
            oven_safe=obj.oven_safe,
            dishwasher_safe=obj.dishwasher_safe,
            heat_resistant=obj.heat_resistant,
            sharp=obj.sharp,
            needs_refrigeration=obj.needs_refrigeration,
        ),
        state=State(
            clean=None if obj.kind == "food" else obj.clean is not False,
            full=False if world.is_vessel(obj) else None,
            switched_on=False if world.is_switchable(obj) else None,
            temperature="cold" if obj.needs_refrigeration else "room",
        ),
    )


Triple = tuple[str, str, str]


def row_triples(rows: list[list[str]]) -> list[Triple]:
    """Spatial relations of one place as (source, relation, target), front row first: left_of/right_of
    across a row, next_to between neighbours, and each node behind the one in front of it in the row
    before."""
    out: list[Triple] = []
    for k, row in enumerate(rows):
        for i, a in enumerate(row):
            for b in row[i + 1 :]:
                out += [(a, "left_of", b), (b, "right_of", a)]
            if i + 1 < len(row):
                out.append((a, "next_to", row[i + 1]))
                out.append((row[i + 1], "next_to", a))
            if k > 0 and i < len(rows[k - 1]):
                out.append((a, "behind", rows[k - 1][i]))
    return out


def row_edges(rows: list[list[str]]) -> list[Edge]:
    """The spatial edges of one place (:func:`row_triples`)."""
    return [Edge(source=s, relation=r, target=t) for s, r, t in row_triples(rows)]  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Placed:
    """What the sampler needs of one catalog object in one world: its node and the node as a catalog object
    (:func:`ambiforge.world.index.view_of`), the places it may be kept in, and those places as (place id,
    how the place holds things, the node's location edge there)."""

    obj: CatalogObject
    node: Node
    view: CatalogObject
    candidates: tuple[str, ...]
    places: tuple[tuple[str, str | None, Edge], ...]


class _Placing:
    """What the sampler knows of one world: its places' nodes and, per catalog object, where it may go. A
    build places the same few hundred objects in every graph; this is worked out once per world."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.place_nodes = tuple(place_node(p) for p in world.places)
        self.place_views = {n.id: view_of(n) for n in self.place_nodes}
        #: The places' lookup tables: every kitchen's graph begins with its places, so its index starts here.
        self.place_tables = NodeTables.of(self.place_nodes)
        #: Appliances standing on a surface: (the place, the surface, the edge between them).
        self.standing = tuple(
            (p.id, p.stands_on, Edge(source=p.id, relation="on", target=p.stands_on))
            for p in world.places
            if p.stands_on
        )
        self.holds = {p.id: p.holds for p in world.places}
        self.objects: dict[str, _Placed] = {}  # by object name (an object of another catalog may share it)

    def placed(self, obj: CatalogObject) -> _Placed:
        entry = self.objects.get(obj.name)
        if entry is None or (entry.obj is not obj and entry.obj != obj):
            candidates = self.world.candidates(obj)
            node = _object_node(obj, node_id(obj.name), self.world)
            places = tuple(
                (c, self.holds[c], Edge(source=node.id, relation=self.holds[c], target=c))  # type: ignore[arg-type]
                for c in candidates
            )
            entry = self.objects[obj.name] = _Placed(obj, node, view_of(node), candidates, places)
        return entry


def _placing(world: World) -> _Placing:
    placing = world.tables.get("sampler")
    if not isinstance(placing, _Placing):
        placing = world.tables["sampler"] = _Placing(world)
    return placing


@dataclass(frozen=True)
class Layout:
    """A scene's nodes, named and numbered, before anything is placed. Most of a draw asks only who is in
    the kitchen ("a mug": which nodes; which of them can do the job), and a fifth of draws end there; where
    each one stands (:func:`place`) is worked out only for a draft that goes on to be planned. ``graph``
    holds the nodes with ``relations_known`` false, so nothing can read a relation off it; ``objects`` pairs
    each scene object's node id with what the world says of where it may go, in the scene's order."""

    seed: int
    world: World
    graph: SceneGraph
    objects: tuple[tuple[str, _Placed], ...]


def lay_out(scene: Scene, seed: int, world: World | None = None) -> Layout:
    """The nodes of ``scene``'s graph for ``seed``: places from ``world`` (default: the packaged world.yaml),
    then the scene's objects, a second one of a name numbered (``mug_2``)."""
    world = world or cached_world()
    placing = _placing(world)
    nodes = list(placing.place_nodes)
    views = dict(placing.place_views)
    taken = {n.id for n in nodes}
    objects: list[tuple[str, _Placed]] = []
    for obj in scene.objects:
        placed = placing.placed(obj)
        node = placed.node
        oid = node.id
        if oid in taken:
            k = 2
            while f"{node.id}_{k}" in taken:
                k += 1
            oid = f"{node.id}_{k}"
            node = node.model_copy(update={"id": oid})
        taken.add(oid)
        nodes.append(node)
        views[oid] = placed.view  # a view does not depend on the node's id
        objects.append((oid, placed))
    graph = SceneGraph(seed=seed, relations_known=False, nodes=tuple(nodes))
    index(graph, views=views, base=placing.place_tables)  # every layout is asked who is in the kitchen
    return Layout(seed, world, graph, tuple(objects))


def place(layout: Layout) -> SceneGraph:
    """The layout's graph: each object in one of the places its placement rule allows, rows laid out by
    the seed (the same nodes: their lookup tables are the layout's)."""
    world = layout.world
    rng = random.Random(f"ambiforge.world:{layout.seed}")
    members: dict[str, list[str]] = {p.id: [] for p in world.places}
    triples: list[Triple] = []  # locations first, then each place's rows
    located: dict[Triple, Edge] = {}  # the location edges the world's table holds already
    for oid, placed in layout.objects:
        places = placed.places
        pid, holds, edge = rng.choice(places) if len(places) > 1 else places[0]
        members[pid].append(oid)
        triple = (oid, holds, pid)
        triples.append(triple)  # type: ignore[arg-type]
        if edge.source == oid:  # not a second one of a name (its id has a suffix)
            located[triple] = edge  # type: ignore[index]
    for pid, surface, edge in _placing(world).standing:  # appliances standing on a surface take part in its row
        members[surface].append(pid)
        triples.append((pid, "on", surface))
        located[(pid, "on", surface)] = edge
    width = world.row_width
    for ids in members.values():
        if len(ids) < 2:  # nothing to shuffle (no draw either) and no neighbours
            continue
        rng.shuffle(ids)
        triples += row_triples([ids[i : i + width] for i in range(0, len(ids), width)])
    triples.sort()  # the order of (source, relation, target): canonical bytes
    # made into Edges in one call, each as ``Edge(*triple)`` validates it (those of the world's table are
    # Edges already)
    edges = [located.get(t) or ArgsKwargs(t) for t in triples]
    graph = SceneGraph.model_validate({"seed": layout.seed, "nodes": layout.graph.nodes, "edges": edges})
    index(graph, like=layout.graph)  # every graph made here is looked up
    return graph


def build_graph(scene: Scene, seed: int, world: World | None = None) -> SceneGraph:
    """The graph of ``scene`` for ``seed``: places from ``world`` (default: the packaged world.yaml), each
    object in one of the places its placement rule allows, rows laid out by seed."""
    return place(lay_out(scene, seed, world))


def free_text_node(name: str, oid: str) -> Node:
    """An object known by its name only (an imported row's object the catalog does not hold): its noun is
    the name's last word ("dish soap" -> soap), kind ``unknown``, no attribute or state known."""
    return Node(id=oid, type="object", name=name, noun=node_id(name).split("_")[-1], kind="unknown")


def nodes_only_graph(objects: list[CatalogObject | str], world: World | None = None) -> SceneGraph:
    """A graph for data that lists objects and nothing else (an imported AmbiK row): places and objects,
    no edges, ``relations_known`` false, so no rule guesses where things are. A name (``str``) is an object
    the catalog does not hold: it becomes a node too (:func:`free_text_node`), so the graph has every
    object of the row."""
    world = world or cached_world()
    nodes = [place_node(p) for p in world.places]
    taken = {n.id for n in nodes}
    for obj in objects:
        name = obj if isinstance(obj, str) else obj.name
        oid, k = node_id(name), 2
        while oid in taken:
            oid, k = f"{node_id(name)}_{k}", k + 1
        taken.add(oid)
        nodes.append(free_text_node(name, oid) if isinstance(obj, str) else object_node(obj, oid, world))
    return SceneGraph(relations_known=False, nodes=tuple(nodes))
