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

from ambiforge.catalog import CatalogObject
from ambiforge.catalog.conditions import Condition
from ambiforge.environment import Scene
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import Expression, can, resolve
from ambiforge.world.index import index


def members(graph: SceneGraph, noun: str, condition: Condition | None = None) -> list[Node]:
    """The kitchen's objects "a <noun>" picks out (any group: a butter knife is a knife too) that meet
    ``condition`` (what the template's target allows: clean, microwave-safe known, ...)."""
    nodes = resolve(graph, Expression(noun=noun, type="object"))
    if condition is None:
        return nodes
    ix = index(graph)
    return [n for n in nodes if condition.matches(ix.view(n))]


def fitting(graph: SceneGraph, nodes: Sequence[Node], action: str | None, condition: Condition | None) -> list[Node]:
    """The nodes that can do the job: those affording ``action`` when the template names one, else those
    meeting ``condition`` (knowledge the affordance table does not hold, such as "a fillet knife fillets")."""
    if action:
        return [n for n in nodes if can(graph, n, action)]
    if condition is None:
        return list(nodes)
    ix = index(graph)
    return [n for n in nodes if condition.matches(ix.view(n))]


def ambiguous(candidates: Sequence[Node], fit: Sequence[Node]) -> bool:
    """Whether choosing among ``candidates`` takes knowledge: some, not all, of them fit."""
    return 0 < len(fit) < len(candidates)


def objects(scene: Scene, nodes: Sequence[Node]) -> list[CatalogObject]:
    """The scene's catalog objects behind ``nodes`` (what the texts are rendered from), in node order."""
    by_name = {o.name: o for o in scene.objects}
    return [by_name[n.name] for n in nodes if n.name in by_name]


def names(nodes: Sequence[Node]) -> list[str]:
    return [n.name for n in nodes]
