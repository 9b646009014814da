"""Who the ambiguous referent can mean, asked of the world: the kitchen's graph and the affordance table.

A template used to write its own variants ("peel with a peeler": the vegetable peeler), and missed the
Y-peeler and the swivel peeler lying next to it. Here the referent ("a peeler") is resolved on the pair's
scene graph (:func:`ambiforge.world.resolve`, so every node a person would call that counts), and the
right choices are the resolved nodes that afford the job (``affordances.yaml``) or, for a template whose
job has no affordance, that match its condition. Mechanisms build pairs only where the world says the
referent is ambiguous and name every right choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ambiforge.catalog import CatalogObject
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.conditions import Condition
from ambiforge.environment import Scene
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import Expression, resolve
from ambiforge.world.index import GraphIndex, index


@dataclass
class _Asked:
    """What the templates of one draw asked of one graph: its lookup tables, the nodes of each noun and
    those of them meeting a condition (each condition with its answers, found by identity: conditions are
    template data, not hashable values)."""

    graph: SceneGraph
    ix: GraphIndex
    nouns: dict[str, list[Node]] = field(default_factory=dict)
    filtered: dict[str, list[tuple[Condition, list[Node]]]] = field(default_factory=dict)


def _of(graph: SceneGraph) -> _Asked:
    """Every template of a draw asks the same nouns of the same graph: the answers are kept with it."""
    asked = graph.tables.get("referents")
    if not isinstance(asked, _Asked) or asked.graph is not graph:
        asked = graph.tables["referents"] = _Asked(graph, index(graph))
    return asked


def members(graph: SceneGraph, noun: str, condition: Condition | None = None) -> list[Node]:
    """The kitchen's objects "a <noun>" picks out (any group: a butter knife is a knife too) that meet
    ``condition`` (what the template's target allows: clean, microwave-safe known, ...)."""
    asked = _of(graph)
    nodes = asked.nouns.get(noun)
    if nodes is None:
        nodes = asked.nouns[noun] = resolve(graph, _expression(noun))
    if condition is None:
        return list(nodes)
    known = asked.filtered.setdefault(noun, [])
    for seen, kept in known:
        if seen is condition:
            return list(kept)
    kept = [n for n in nodes if condition.matches(asked.ix.view(n))]
    known.append((condition, kept))
    return list(kept)


def fitting(graph: SceneGraph, nodes: Sequence[Node], action: str | None, condition: Condition | None) -> list[Node]:
    """The nodes that can do the job: those affording ``action`` when the template names one, else those
    meeting ``condition`` (knowledge the affordance table does not hold, such as "a fillet knife fillets")."""
    if not action and condition is None:
        return list(nodes)
    rule: object = cached_affordances().get(action) if action else condition
    test = rule.allows if action else rule.matches  # type: ignore[attr-defined]
    ix = _of(graph).ix
    return [n for n in nodes if test(ix.view(n))]


@lru_cache(maxsize=1024)
def _expression(noun: str) -> Expression:
    return Expression(noun=noun, type="object")


def ambiguous(candidates: Sequence[Node], fit: Sequence[Node]) -> bool:
    """Whether choosing among ``candidates`` takes knowledge: some, not all, of them fit."""
    return 0 < len(fit) < len(candidates)


def objects(scene: Scene, nodes: Sequence[Node]) -> list[CatalogObject]:
    """The scene's catalog objects behind ``nodes`` (what the texts are rendered from), in node order."""
    by_name = {o.name: o for o in scene.objects}
    return [by_name[n.name] for n in nodes if n.name in by_name]


def names(nodes: Sequence[Node]) -> list[str]:
    return [n.name for n in nodes]
