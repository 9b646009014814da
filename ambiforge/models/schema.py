"""The JSON Schema of the item, generated from the pydantic model.

``schemas/item.schema.json`` is the published contract for researchers and other tools; it is generated
from :class:`ambiforge.models.Item` (``ambiforge schema --write``) and a test fails when the file and the
model drift apart.
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import compress, repeat
from operator import is_, is_not, itemgetter
from pathlib import Path
from typing import Any

import jsonschema_rs

from ambiforge import ambiguity
from ambiforge.models.item import EnvObject, Item
from ambiforge.models.scene_graph import Edge, Node, SceneGraph

SCHEMA_ID = "https://ambiforge.dev/schemas/item.schema.json"


def item_json_schema() -> dict[str, Any]:
    """The schema as of now: ``ambiguity_type`` is an enum of the registered types (built-in ones for the
    published file; a build that registers a type's folder validates against a schema that knows it)."""
    schema = Item.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def render_item_schema() -> str:
    return json.dumps(item_json_schema(), indent=2, ensure_ascii=False) + "\n"


def repo_schema_path() -> Path:
    from ambiforge.resources import schema_path

    return schema_path("item.schema.json")


def item_validator() -> Any:
    """Validator over the schema for the types registered now (compiled once per set of types)."""
    return _validator(ambiguity.names())


@lru_cache(maxsize=8)
def _validator(type_names: tuple[str, ...]) -> Any:
    """Validator over the generated schema (the same text as the file, which a test keeps in step).

    jsonschema-rs (Rust) rather than the pure-Python ``jsonschema``: it checks draft 2020-12 about 400
    times faster (0.02 ms against 9 ms an item here), which is what lets the release gate check 100,000
    rows in seconds.
    """
    return jsonschema_rs.validator_for(item_json_schema())


def item_errors(item: Item) -> list[str]:
    """Every way ``item`` breaks the item schema (the ``path: message`` lines of :func:`schema_errors`).

    Each scene-graph node is checked once per build, not once per graph that holds it: nodes are frozen
    values the sampler shares among graphs, and the schema puts no constraint across the items of a
    graph's lists, so a node that passed once passes again. A graph's 140 edges are checked as a whole, in
    C, against what the schema's Edge definition says (:func:`_edge_relations`), not as JSON. Checking a
    graph's nodes and edges as JSON in every item was most of the gate's time. Scene objects: each item holds its
    own copy of the same few hundred catalog objects, and one whose every field is the very value of a copy
    that passed passes again (their JSON was half of an item's). A failing item is checked again whole, so
    its messages point at the right list positions."""
    record, fresh, fresh_objects = _record_to_check(item)
    if item_validator().is_valid(record):
        if len(_PASSED) + len(fresh) > _PASSED_MAX:
            _PASSED.clear()
        _PASSED.update((id(m), m) for m in fresh)
        if len(_OBJECTS) + len(fresh_objects) > _PASSED_MAX:
            _OBJECTS.clear()
        _OBJECTS.update(fresh_objects)
        return []
    return schema_errors(item.to_record())


#: Nodes that passed the schema, by identity (each entry holds its model: an id is not reused
#: while it lives). Bounded: cleared when full, so a long build's memory stays flat.
_PASSED: dict[int, Node] = {}
_PASSED_MAX = 100_000

#: Scene objects that passed, by name: the values of their fields (the objects themselves, in field
#: order) and their JSON. Bounded like _PASSED.
_OBJECTS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {}


def _record_to_check(
    item: Item,
) -> tuple[dict[str, Any], list[Node], list[tuple[str, tuple[tuple[Any, ...], dict[str, Any]]]]]:
    """``item.to_record()`` with each scene graph's nodes and edges, and the scene objects, cut to those
    not checked before (and returned, to be remembered once the record passes). Read only: node JSON is
    shared (made once per node)."""
    world = item.world
    fresh: list[Node] = []
    fresh_objects: list[tuple[str, tuple[tuple[Any, ...], dict[str, Any]]]] = []
    if world is None:
        record = item.model_dump(mode="json", exclude=_OBJECTS_ONLY)
    else:
        record = item.model_dump(mode="json", exclude=_GRAPHS if world.perturbation is not None else _GRAPH)
        record["world"]["graph"] = _graph_json(world.graph, fresh)
        if world.perturbation is not None:
            record["world"]["perturbation"]["graph"] = _graph_json(world.perturbation.graph, fresh)
    objects = _objects_json(item.environment, fresh_objects)
    if objects is None:  # not all scene objects are models (an item built without validation): as dumped
        objects = item.model_dump(mode="json", include=_OBJECTS_ONLY)["environment"]
    record["environment"] = objects
    return record, fresh, fresh_objects


def _objects_json(
    objects: list[Any], fresh: list[tuple[str, tuple[tuple[Any, ...], dict[str, Any]]]]
) -> list[dict[str, Any]] | None:
    """The scene objects' JSON, less those whose fields are the very values of one that passed (the first
    always stays: the list may not be empty); None when one of them is not an EnvObject."""
    out: list[dict[str, Any]] = []
    for i, obj in enumerate(objects):
        if not isinstance(obj, EnvObject):
            return None
        fields = obj.__dict__
        name = fields.get("name")
        entry = _OBJECTS.get(name) if type(name) is str else None
        if entry is not None and len(entry[0]) == len(fields) and all(map(is_, entry[0], fields.values())):
            if i == 0:
                out.append(entry[1])
            continue
        data = obj.model_dump(mode="json")
        out.append(data)
        if type(name) is str:
            fresh.append((name, (tuple(fields.values()), data)))
    return out


_OBJECTS_ONLY: Any = {"environment"}
_GRAPH: Any = {"world": {"graph"}, "environment": True}
_GRAPHS: Any = {"world": {"graph": True, "perturbation": {"graph"}}, "environment": True}


def _graph_json(graph: SceneGraph, fresh: list[Node]) -> dict[str, Any]:
    fields = {name: getattr(graph, name) for name in SceneGraph.model_fields if name not in ("nodes", "edges")}
    known = map(_PASSED.get, map(id, graph.nodes))  # in C: map, is_not and compress, no Python loop
    nodes = list(compress(graph.nodes, map(is_not, known, graph.nodes)))
    fresh += nodes
    relations = _edge_relations(ambiguity.names())
    if relations is not None and _plain_edges(graph.edges, relations):
        edges: list[Any] = []  # every edge checked here: as the schema would, without its JSON
    else:
        edges = graph.model_dump(mode="json", include={"edges"})["edges"]
    return {**fields, "nodes": [_node_json(n) for n in nodes], "edges": edges}


def _plain_edges(edges: tuple[Edge, ...], relations: frozenset[str]) -> bool:
    """Whether every edge is an Edge (three fields, so exactly the definition's properties) whose ends are
    strings and whose relation is one of ``relations``: the JSON of each would pass the Edge definition
    :func:`_edge_relations` read. In C (maps over the tuples), a few microseconds for a graph."""
    return (
        all(map(isinstance, edges, repeat(Edge)))
        and relations.issuperset(map(_RELATION, edges))
        and all(map(isinstance, map(_SOURCE, edges), repeat(str)))
        and all(map(isinstance, map(_TARGET, edges), repeat(str)))
    )


_SOURCE, _RELATION, _TARGET = itemgetter(0), itemgetter(1), itemgetter(2)
_EDGE_OBJECT = {"additionalProperties": False, "required": ["source", "relation", "target"], "type": "object"}
_WORDS = ("title", "description")  # annotations: they constrain nothing


@lru_cache(maxsize=8)
def _edge_relations(type_names: tuple[str, ...]) -> frozenset[str] | None:
    """The relations the schema (for ``type_names``) allows an edge, when its Edge definition says no
    more than: an object of exactly a ``source`` string, a ``relation`` from an enum and a ``target``
    string. Then an edge's JSON passes it exactly when :func:`_plain_edges` holds, and the gate checks
    edges that way. None when the definition says anything else (a pattern, a length, another field):
    every edge is then checked as JSON, as before."""
    found = item_json_schema().get("$defs", {}).get("Edge")
    if not isinstance(found, dict):
        return None
    properties = found.get("properties")
    if {k: v for k, v in found.items() if k not in ("properties", *_WORDS)} != _EDGE_OBJECT:
        return None
    if not isinstance(properties, dict) or set(properties) != {"source", "relation", "target"}:
        return None
    plain = {name: {k: v for k, v in spec.items() if k not in _WORDS} for name, spec in properties.items()}
    if plain["source"] != {"type": "string"} or plain["target"] != {"type": "string"}:
        return None
    relation = plain["relation"]
    if set(relation) != {"enum", "type"} or relation["type"] != "string" or not isinstance(relation["enum"], list):
        return None
    if not all(isinstance(r, str) for r in relation["enum"]):
        return None
    return frozenset(relation["enum"])


#: JSON of nodes by identity (each entry holds its node): a build has a few hundred distinct nodes.
_JSON: dict[int, tuple[Node, dict[str, Any]]] = {}


def _node_json(node: Node) -> dict[str, Any]:
    entry = _JSON.get(id(node))
    if entry is None or entry[0] is not node:
        if len(_JSON) > 20_000:
            _JSON.clear()
        entry = _JSON[id(node)] = (node, node.model_dump(mode="json"))
    return entry[1]


def schema_errors(record: dict[str, Any]) -> list[str]:
    """Every way ``record`` breaks the item schema, as 'path: message' lines (empty when valid)."""
    validator = item_validator()
    if validator.is_valid(record):
        return []
    return [
        f"{'/'.join(str(p) for p in e.instance_path) or '(item)'}: {e.message}" for e in validator.iter_errors(record)
    ]
