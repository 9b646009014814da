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
import weakref
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, GetJsonSchemaHandler, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from ambiforge.models.filling import new, set_extra, set_fields_set, set_private, set_values

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


class _EdgeFields(NamedTuple):
    source: str
    relation: Relation
    target: str


class Edge(_EdgeFields):
    """``source relation target``: a value, a named tuple of three strings rather than a model.

    A graph has about 140 edges and a build makes a graph for every pair: as pydantic models (an instance
    and a dict each, a microsecond to make, several cache lines to read) edges were the largest cost of
    the world model per pair, and caching them made reading them dearer still. A tuple is made in C, reads
    in one cache line and compares, sorts and hashes as its three strings.

    It still validates where a model did: ``Edge(...)`` checks its fields (a ValueError, wrapped in a
    ValidationError when a graph is validated), a graph read from JSON or a dict validates each edge, and
    it serialises to ``{"source", "relation", "target"}`` with the JSON schema the model had
    (``schemas/scene_graph.schema.json`` is unchanged). ``Edge.made`` trusts code that made its own
    fields from the vocabulary (the sampler, the simulator)."""

    __slots__ = ()

    def __new__(cls, source: str, relation: Relation, target: str) -> Edge:
        for name, value in (("source", source), ("target", target)):
            if not isinstance(value, str):
                raise ValueError(f"edge {name} must be a string, not {type(value).__name__}")
        if relation not in RELATIONS:
            raise ValueError(f"unknown relation {relation!r} (known: {', '.join(RELATIONS)})")
        return _new_edge((source, relation, target))

    @classmethod
    def made(cls, source: str, relation: str, target: str) -> Edge:
        """An edge between node ids that code made itself, from the fixed vocabulary: nothing to validate
        (the graph checks its edges as a whole); equal to ``Edge(...)`` of the same fields
        (tests/unit/world/test_scene_graph_model.py)."""
        return _new_edge((source, relation, target))

    def model_dump(self, mode: str = "python") -> dict[str, str]:
        """The edge as the item schema has it (the same in both modes: three strings)."""
        return _edge_fields(self)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        fields = core_schema.typed_dict_schema(
            {
                "source": core_schema.typed_dict_field(core_schema.str_schema(strict=True)),
                "relation": core_schema.typed_dict_field(core_schema.literal_schema(list(RELATIONS))),
                "target": core_schema.typed_dict_field(core_schema.str_schema(strict=True)),
            },
            extra_behavior="forbid",
        )
        from_fields = core_schema.no_info_after_validator_function(_edge_from_fields, fields)
        return core_schema.json_or_python_schema(
            json_schema=from_fields,
            python_schema=core_schema.no_info_wrap_validator_function(_edge_or_fields, fields),
            serialization=core_schema.plain_serializer_function_ser_schema(_edge_fields),
            ref="Edge",
        )

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        # The schema the model had, field for field (the published files do not change).
        return {
            "additionalProperties": False,
            "properties": {
                "source": {"title": "Source", "type": "string"},
                "relation": {"enum": list(RELATIONS), "title": "Relation", "type": "string"},
                "target": {"title": "Target", "type": "string"},
            },
            "required": ["source", "relation", "target"],
            "title": "Edge",
            "type": "object",
        }


#: ``tuple.__new__`` bound to Edge: an edge from its three fields, in C (``map(new_edge, triples)``).
_new_edge: Callable[[tuple[str, str, str]], Edge] = partial(tuple.__new__, Edge)  # type: ignore[assignment]


def new_edges(triples: Iterable[tuple[str, str, str]]) -> tuple[Edge, ...]:
    """Edges from (source, relation, target) triples code made from the vocabulary (unchecked, like
    :meth:`Edge.made`), in the triples' order."""
    return tuple(map(_new_edge, triples))


def _edge_from_fields(fields: dict[str, str]) -> Edge:
    return _new_edge((fields["source"], fields["relation"], fields["target"]))


def _edge_or_fields(value: Any, fields: Callable[[Any], dict[str, str]]) -> Edge:
    """An Edge as it is; anything else validated as the three fields (errors name the field)."""
    return value if isinstance(value, Edge) else _edge_from_fields(fields(value))


def _edge_fields(edge: tuple[str, str, str]) -> dict[str, str]:
    return {"source": edge[0], "relation": edge[1], "target": edge[2]}


#: Graphs whose consistency was checked, by identity (weak: a graph is forgotten with its last reference).
_CHECKED: weakref.WeakValueDictionary[int, SceneGraph] = weakref.WeakValueDictionary()
# Shared by every made graph: a set, not a frozenset, because model_copy copies it and adds the changed
# names to the copy; nothing changes it in place (the models are frozen).
_GRAPH_FIELDS = {"seed", "nodes", "edges"}  # what model_construct(seed=, nodes=, edges=) sets


class SceneGraph(_Frozen):
    """Nodes and edges of one kitchen. ``relations_known`` is false for a graph made from data that lists
    objects only (an imported AmbiK row): rules that need relations must skip it, not guess."""

    version: Literal[1] = 1
    seed: int | None = None
    relations_known: bool = True
    # Not strict on the containers only: a graph read back from JSON has lists where the model keeps tuples.
    nodes: tuple[Node, ...] = Field(strict=False)
    edges: tuple[Edge, ...] = Field(default=(), strict=False)

    @model_validator(mode="after")
    def _consistent(self) -> SceneGraph:
        # pydantic runs an "after" validator again whenever a graph is given to a model that holds one (a
        # World, an Item): a graph is frozen, so one check per instance is enough.
        if _CHECKED.get(id(self)) is not self:
            check_consistent(self.nodes, self.edges, self.relations_known)
            _CHECKED[id(self)] = self
        return self

    @classmethod
    def made(cls, seed: int | None, nodes: tuple[Node, ...], edges: tuple[Edge, ...]) -> SceneGraph:
        """A graph the sampler made from its own nodes and edges, which are consistent by construction
        (tests/unit/world/test_sampler.py checks many seeds with :func:`check_consistent`): built without
        validating every node and edge again, which cost a fifth of making a pair."""
        graph = new(cls)
        set_values(graph, {"version": 1, "seed": seed, "relations_known": True, "nodes": nodes, "edges": edges})
        set_fields_set(graph, _GRAPH_FIELDS)
        set_extra(graph, None)
        set_private(graph, None)
        _CHECKED[id(graph)] = graph
        return graph

    def node(self, node_id: str) -> Node:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def to_json(self) -> str:
        """Canonical JSON (sorted keys, no spaces): the bytes a seed fixes."""
        return canonical_json(self.model_dump(mode="json"))


def check_consistent(nodes: Sequence[Any], edges: Sequence[Any], relations_known: bool) -> None:
    """Raise ValueError naming the first way nodes and edges do not form a graph: a duplicate id, edges on a
    graph whose relations are unknown, an edge to a node not in it or to itself, ``in``/``on`` to a place
    that does not hold things that way, ``inside`` to a place, two locations of one node.

    Works on anything with the models' attributes: ``ambiforge verify`` checks released rows (whose fields
    the item schema has checked) without building a model per node and edge, which costs ten times more."""
    by_id: dict[str, Any] = {}
    for node in nodes:
        if node.id in by_id:
            raise ValueError(f"duplicate node id {node.id!r}")
        by_id[node.id] = node
    if not relations_known and edges:
        raise ValueError("a graph whose relations are unknown has no edges")
    located: set[str] = set()
    for edge in edges:
        for end in (edge.source, edge.target):
            if end not in by_id:
                raise ValueError(f"edge {edge.source} {edge.relation} {edge.target}: unknown node {end!r}")
        if edge.source == edge.target:
            raise ValueError(f"edge {edge.source} {edge.relation} {edge.target}: a node relates to itself")
        target = by_id[edge.target]
        if edge.relation in ("in", "on") and (target.type != "place" or target.holds != edge.relation):
            raise ValueError(
                f"edge {edge.source} {edge.relation} {edge.target}: {edge.target!r} does not hold things "
                f"{edge.relation!r}"
            )
        if edge.relation == "inside" and target.type != "object":
            raise ValueError(f"edge {edge.source} inside {edge.target}: 'inside' is for objects in objects")
        if edge.relation in LOCATION_RELATIONS:
            if edge.source in located:
                raise ValueError(f"node {edge.source!r} has two locations")
            located.add(edge.source)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
