"""Which nodes an expression means: ``resolve(graph, "mug")``, "the metal bowl", "the mug left of the
kettle", "the milk in the fridge"; and SG-CoT's two retrieval functions.

One resolver for everything that asks "what does this referent pick out in this kitchen": the validation
rules (the clear referent must pick one node, the ambiguous one several), generation (shortlists and
variants computed, not written) and the SG-CoT method (its planner calls ``retrieve_node`` and
``retrieve_edge``). Matching is on the graph's structured fields, never on free text beyond the noun and
the name.

Noun matching: the node's noun ("mug"), a plural with -s/-es/-ves ("mugs", "knives"), or the last one or two words of
its name ("peeler" for the Y-peeler, "grater" for the microplane grater). Relations are direct edges:
"in the fridge" is an ``in`` edge to the fridge; a spoon inside a jar in the drawer is ``inside`` the jar.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from ambiforge.models.scene_graph import Attributes, Edge, Node, NodeType, Relation, SceneGraph, State
from ambiforge.world.index import GraphIndex, index

Scalar = str | bool | None
#: Keys an attribute constraint may test: what a node is, what state it is in, and its catalog identity.
ATTRIBUTE_KEYS: tuple[str, ...] = (
    *Attributes.model_fields,
    *State.model_fields,
    "group",
    "kind",
    "modifier",
    "type",
)


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RelationConstraint(_Frozen):
    """The node stands in ``relation`` to some node ``target`` resolves to ("left of the kettle")."""

    relation: Relation
    target: Expression


class Expression(_Frozen):
    """A referent: a noun or a name, attribute constraints, relation constraints (all must hold)."""

    noun: str | None = None
    name: str | None = None
    type: NodeType | None = None
    attributes: dict[str, Scalar] = {}
    relations: tuple[RelationConstraint, ...] = ()

    @field_validator("attributes")
    @classmethod
    def _known(cls, value: dict[str, Scalar]) -> dict[str, Scalar]:
        for key in value:
            if key not in ATTRIBUTE_KEYS:
                raise ValueError(f"unknown attribute {key!r} (known: {', '.join(ATTRIBUTE_KEYS)})")
        return value


RelationConstraint.model_rebuild()


def attribute(node: Node, key: str) -> Any:
    """The node's value for ``key`` (an attribute, a state or an identity field)."""
    if key in Attributes.model_fields:
        return getattr(node.attributes, key)
    if key in State.model_fields:
        return getattr(node.state, key)
    return getattr(node, key)


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or expected is None or isinstance(actual, bool) or actual is None:
        return actual is expected
    return str(actual).lower() == str(expected).lower()


def by_noun(ix: GraphIndex, noun: str) -> list[Node]:
    key = noun.lower().strip()
    found: dict[str, Node] = {}
    plurals = (key[:-1] if key.endswith("s") else "", key[:-2] if key.endswith("es") else "")
    if key.endswith("ves"):  # knives, shelves
        plurals += (key[:-3] + "fe", key[:-3] + "f")
    for k in (key, *plurals):
        if k:
            for n in ix.by_noun.get(k, ()):
                found[n.id] = n
            for n in ix.by_tail.get(k, ()):
                found[n.id] = n
    return list(found.values())


def by_name(ix: GraphIndex, name: str) -> list[Node]:
    node = ix.by_id.get(name)
    return [node] if node is not None else list(ix.by_name.get(name.lower(), ()))


def _candidates(ix: GraphIndex, expr: Expression) -> list[Node]:
    if expr.name is not None:
        nodes = by_name(ix, expr.name)
        if expr.noun is not None:
            allowed = {n.id for n in by_noun(ix, expr.noun)}
            nodes = [n for n in nodes if n.id in allowed]
        return nodes
    if expr.noun is not None:
        return by_noun(ix, expr.noun)
    return list(ix.nodes)


def _resolve(ix: GraphIndex, expr: Expression) -> list[Node]:
    nodes = _candidates(ix, expr)
    if expr.type is not None:
        nodes = [n for n in nodes if n.type == expr.type]
    for key, value in expr.attributes.items():
        nodes = [n for n in nodes if _same(attribute(n, key), value)]
    for constraint in expr.relations:
        if not nodes:
            break
        targets = {t.id for t in _resolve(ix, constraint.target)}
        nodes = [n for n in nodes if not targets.isdisjoint(ix.out.get((n.id, constraint.relation), ()))]
    nodes.sort(key=lambda n: ix.order[n.id])
    return nodes


def resolve(graph: SceneGraph, expression: Expression | str) -> list[Node]:
    """The nodes ``expression`` picks out, in graph order. A bare string picks the node of that id or name
    when there is one ("glass mug"), else every node of that noun ("mug")."""
    ix = index(graph)
    if isinstance(expression, str):
        named = by_name(ix, expression)
        return named if named else _resolve(ix, Expression(noun=expression))
    return _resolve(ix, expression)


def retrieve_node(
    graph: SceneGraph, name: str | None = None, attr_key: str | None = None, attr_val: Scalar = None
) -> list[Node]:
    """SG-CoT's node retrieval: by ``name`` (an id, a name, else a noun), or every node whose ``attr_key``
    equals ``attr_val`` (``retrieve_node(g, attr_key="material", attr_val="glass")``); both narrow."""
    if name is None and attr_key is None:
        raise ValueError("retrieve_node needs a name or an attribute key")
    if attr_key is not None and attr_key not in ATTRIBUTE_KEYS:
        raise ValueError(f"unknown attribute {attr_key!r} (known: {', '.join(ATTRIBUTE_KEYS)})")
    nodes = resolve(graph, name) if name is not None else list(graph.nodes)
    if attr_key is not None:
        nodes = [n for n in nodes if _same(attribute(n, attr_key), attr_val)]
    return nodes


def retrieve_edge(
    graph: SceneGraph, source: str | None = None, relation: Relation | None = None, target: str | None = None
) -> list[Edge]:
    """SG-CoT's edge retrieval: the edges from ``source`` by ``relation`` to ``target`` (each an id or a
    name; ``None`` matches any). ``retrieve_edge(g, "whole milk", "in")`` says where the milk is."""
    src = {n.id for n in resolve(graph, source)} if source is not None else None
    dst = {n.id for n in resolve(graph, target)} if target is not None else None
    return [
        e
        for e in graph.edges
        if (src is None or e.source in src)
        and (relation is None or e.relation == relation)
        and (dst is None or e.target in dst)
    ]
