"""The scene graph: the kitchen of an item as objects, places and the relations between them.

A flat list of names cannot say that the milk is in the (closed) fridge or that two mugs stand on
different shelves, so every claim an item makes about its world had to be judged from text. The graph is
the world those claims are checked against (``docs/world-model.md``): the sampler in
:mod:`ambiforge.world` builds it from a seeded scene, the resolver answers "which nodes does 'the mug
left of the kettle' mean", and the simulator executes plans on it.

The models are strict and frozen: a graph is a value (canonical JSON, same seed, same bytes); the
simulator derives a new graph for every step instead of editing one in place.

Relations (``source relation target``), a fixed vocabulary:

- ``in``: the object is held by a *place* that encloses it (fridge, cupboard, drawer, oven, microwave,
  dishwasher, sink, tea kettle): "the milk is in the fridge".
- ``on``: the object (or a place such as the tea kettle) rests on a *surface place* (counter, shelf,
  kitchen table): "the glass mug is on the upper shelf".
- ``inside``: the object is held by another *object* (a spoon inside a jar, bread inside a bag).
- ``next_to``: immediate neighbours in the same row of the same place (symmetric: both directions stored).
- ``left_of`` / ``right_of``: in the same row of the same place, anywhere to the left / right (seen from
  the front); both directions are stored.
- ``behind``: in the back row of the same place, straight behind the node in the front row.

Spatial relations only ever hold between nodes that share a place: "left of the kettle" means on the
counter, to the left of the kettle.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, Strict
from pydantic.dataclasses import dataclass as pydantic_dataclass

if TYPE_CHECKING:
    from pydantic.main import IncEx

Relation = Literal["in", "on", "inside", "next_to", "left_of", "right_of", "behind"]
RELATIONS: tuple[str, ...] = ("in", "on", "inside", "next_to", "left_of", "right_of", "behind")
#: Relations that say where a node is kept (at most one per node); the rest are spatial, among neighbours.
LOCATION_RELATIONS: tuple[str, ...] = ("in", "on", "inside")
SPATIAL_RELATIONS: tuple[str, ...] = ("next_to", "left_of", "right_of", "behind")

NodeType = Literal["object", "place"]
Temperature = Literal["cold", "room", "hot"]
Size = Literal["small", "medium", "large"]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Attributes(_Frozen):
    """What a node *is* (does not change while a plan runs); ``None``: does not apply or unknown."""

    material: str | None = None
    colour: str | None = None
    size: Size | None = None
    microwave_safe: bool | None = None
    oven_safe: bool | None = None
    dishwasher_safe: bool | None = None
    heat_resistant: bool | None = None
    sharp: bool | None = None
    needs_refrigeration: bool | None = None


class State(_Frozen):
    """What a node is *now* (plans change it); ``None``: the state does not apply (a mug has no door)."""

    open: bool | None = Field(default=None, description="open (true) or closed (false); null: cannot open")
    switched_on: bool | None = Field(default=None, description="running; null: has no switch")
    clean: bool | None = Field(default=None, description="clean (true) or dirty (false)")
    full: bool | None = Field(default=None, description="holds something poured in; null: not a vessel")
    temperature: Temperature | None = None


class Node(_Frozen):
    """An object from the catalog or a place of the kitchen (an appliance, a surface, a storage place)."""

    id: str = Field(pattern=r"^[a-z0-9]+(_[a-z0-9]+)*$", description="stable, readable: glass_mug, shelf_1")
    type: NodeType
    name: str = Field(min_length=1, description="catalog name (objects) or place name ('upper shelf')")
    noun: str = Field(min_length=1, description="the generic noun a person would use: mug, shelf, fridge")
    group: str | None = Field(default=None, description="catalog group of an object; null for places")
    kind: str = Field(min_length=1, description="food | kitchen_item (objects); appliance | surface | storage")
    modifier: str | None = Field(default=None, description="the words that tell it from its noun: 'glass'")
    mass: bool = False
    plural: bool = False
    tags: tuple[str, ...] = Field(default=(), strict=False, description="catalog group tags (what templates apply)")
    uses: tuple[str, ...] = Field(default=(), strict=False, description="catalog uses (what the object is for)")
    holds: Literal["in", "on"] | None = Field(
        default=None, description="places: how they hold things (in: encloses; on: surface)"
    )
    attributes: Attributes = Attributes()
    state: State = State()

    @cached_property
    def _json(self) -> dict[str, Any]:
        # The node's JSON form, made once per node: a build's graphs share most of their nodes (the
        # kitchen's places, the catalog's objects), and every item's record holds its graph's nodes.
        return self.model_dump(mode="json")

    def json_record(self) -> dict[str, Any]:
        """The node as ``model_dump(mode="json")`` gives it, a fresh copy each time (a record is the
        caller's to change), made from the node's own JSON form."""
        data = self._json
        return {
            **data,
            "tags": [*data["tags"]],
            "uses": [*data["uses"]],
            "attributes": {**data["attributes"]},
            "state": {**data["state"]},
        }

    def __copy__(self) -> Self:
        # ``model_copy`` copies the instance dict, cached values with it; an update changes the node, so
        # the copy makes its JSON form anew.
        copied = super().__copy__()
        if "_json" in copied.__dict__:
            del copied._json
        return copied

    def __getstate__(self) -> dict[Any, Any]:
        # A pickle (an item sent to a worker process) carries the node's fields, not its JSON form.
        state = super().__getstate__()
        if "_json" in self.__dict__:
            state["__dict__"] = {k: v for k, v in self.__dict__.items() if k != "_json"}
        return state


# ``source relation target``: one relation between two nodes of a graph, by node id. (No docstring: it
# would become the schema's description, and the published schemas describe edges as they are.) A slotted
# dataclass, validated like a model: a graph holds some hundred edges and every item keeps its graph, so an
# edge is one object instead of a model's three (instance, field dict, set of fields given).
@pydantic_dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid"))
class Edge:
    source: Annotated[str, Strict()]
    relation: Relation
    target: Annotated[str, Strict()]


class SceneGraph(_Frozen):
    """Nodes and edges of one kitchen. ``relations_known`` is false for a graph made from data that lists
    objects only (an imported AmbiK row): rules that need relations must skip it, not guess."""

    version: Literal[1] = 1
    seed: int | None = None
    relations_known: bool = True
    # Not strict on the containers only: a graph read back from JSON has lists where the model keeps tuples.
    nodes: tuple[Node, ...] = Field(strict=False)
    edges: tuple[Edge, ...] = Field(default=(), strict=False)

    def model_post_init(self, context: Any, /) -> None:
        # After the fields are validated, once per graph made (an "after" model validator would run again
        # each time the graph is given to a model that holds one: a World, an Item). A ValueError here is
        # a ValidationError to the caller, as from any validator.
        check_consistent(self.nodes, self.edges, self.relations_known)

    @cached_property
    def tables(self) -> dict[str, Any]:
        """Lookup tables other layers derive from this graph (the world's index), by name: a graph is frozen,
        so they hold for as long as it lives and go with it."""
        return {}

    def node(self, node_id: str) -> Node:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def json_record(self) -> dict[str, Any]:
        """``model_dump(mode="json")``, with each node's JSON form made once per node (:meth:`Node.json_record`)."""
        return nodes_spliced(self.model_dump(mode="json", exclude=_NODES), self)

    def to_json(self) -> str:
        """Canonical JSON (sorted keys, no spaces): the bytes a seed fixes."""
        return canonical_json(self.json_record())


def check_consistent(nodes: Sequence[Any], edges: Sequence[Any], relations_known: bool) -> None:
    """Raise ValueError naming the first way nodes and edges do not form a graph: a duplicate id, edges on a
    graph whose relations are unknown, an edge to a node not in it or to itself, ``in``/``on`` to a place
    that does not hold things that way, ``inside`` to a place, two locations of one node.

    Works on anything with the models' attributes: ``ambiforge verify`` checks released rows (whose fields
    the item schema has checked) without building a model per node and edge, which costs ten times more."""
    by_id: dict[str, Any] = {node.id: node for node in nodes}
    if len(by_id) != len(nodes):
        seen: set[str] = set()
        for node in nodes:
            if node.id in seen:
                raise ValueError(f"duplicate node id {node.id!r}")
            seen.add(node.id)
    if not relations_known and edges:
        raise ValueError("a graph whose relations are unknown has no edges")
    located: set[str] = set()
    for edge in edges:
        source, relation, target_id = edge.source, edge.relation, edge.target
        if source not in by_id or target_id not in by_id:
            end = source if source not in by_id else target_id
            raise ValueError(f"edge {source} {relation} {target_id}: unknown node {end!r}")
        if source == target_id:
            raise ValueError(f"edge {source} {relation} {target_id}: a node relates to itself")
        if relation not in _LOCATED:
            continue  # a spatial relation: between any two nodes of the graph
        target = by_id[target_id]
        if relation != "inside" and (target.type != "place" or target.holds != relation):
            raise ValueError(f"edge {source} {relation} {target_id}: {target_id!r} does not hold things {relation!r}")
        if relation == "inside" and target.type != "object":
            raise ValueError(f"edge {source} inside {target_id}: 'inside' is for objects in objects")
        if source in located:
            raise ValueError(f"node {source!r} has two locations")
        located.add(source)


_LOCATED = frozenset(LOCATION_RELATIONS)
_FIELDS = tuple(SceneGraph.model_fields)


_NODES: IncEx = {"nodes"}


def nodes_spliced(dumped: dict[str, Any], graph: SceneGraph) -> dict[str, Any]:
    """``graph``'s JSON dump, from ``dumped`` (the same without its nodes) and the nodes' JSON forms, in the
    model's field order."""
    return {name: [n.json_record() for n in graph.nodes] if name == "nodes" else dumped[name] for name in _FIELDS}


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
