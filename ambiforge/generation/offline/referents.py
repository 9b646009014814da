"""Who the ambiguous referent can mean, asked of the world: the kitchen's graph and the affordance table.

A template used to write its own variants ("peel with a peeler": the vegetable peeler), and missed the
Y-peeler and the swivel peeler lying next to it. Here the referent ("a peeler") is resolved on the pair's
scene graph (:func:`ambiforge.world.resolve`, so every node a person would call that counts), and the
right choices are the resolved nodes that afford the job (``affordances.yaml``) or, for a template whose
job has no affordance, that match its condition. Mechanisms build pairs only where the world says the
referent is ambiguous and name every right choice.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
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
    """What the templates of one draw asked of one graph: its lookup tables and the nodes of each noun."""

    graph: SceneGraph
    ix: GraphIndex
    nouns: dict[str, list[Node]] = field(default_factory=dict)
    filtered: dict[tuple[str, int], tuple[Condition, list[Node]]] = field(default_factory=dict)


_asked: OrderedDict[int, _Asked] = OrderedDict()


def _of(graph: SceneGraph) -> _Asked:
    """Every template of a draw asks the same nouns of the same graph: answers are kept for the few graphs
    in use (a cache keyed by identity, holding the graph so an id is not reused while its entry lives)."""
    entry = _asked.get(id(graph))
    if entry is None or entry.graph is not graph:
        entry = _Asked(graph, index(graph))
        _asked[id(graph)] = entry
        while len(_asked) > 8:
            _asked.popitem(last=False)
    return entry


def members(graph: SceneGraph, noun: str, condition: Condition | None = None) -> list[Node]:
    """The kitchen's objects "a <noun>" picks out (any group: a butter knife is a knife too) that meet
    ``condition`` (what the template's target allows: clean, microwave-safe known, ...)."""
    asked = _of(graph)
    nodes = asked.nouns.get(noun)
    if nodes is None:
        nodes = asked.nouns[noun] = resolve(graph, _expression(noun))
    if condition is None:
        return list(nodes)
    kept = asked.filtered.get((noun, id(condition)))
    if kept is None or kept[0] is not condition:
        kept = asked.filtered[(noun, id(condition))] = (
            condition,
            [n for n in nodes if _passes(condition, condition.matches, n, asked.ix)],
        )
    return list(kept[1])


def fitting(graph: SceneGraph, nodes: Sequence[Node], action: str | None, condition: Condition | None) -> list[Node]:
    """The nodes that can do the job: those affording ``action`` when the template names one, else those
    meeting ``condition`` (knowledge the affordance table does not hold, such as "a fillet knife fillets")."""
    if not action and condition is None:
        return list(nodes)
    rule: object = cached_affordances().get(action) if action else condition
    test = rule.allows if action else rule.matches  # type: ignore[attr-defined]
    ix = _of(graph).ix
    return [n for n in nodes if _passes(rule, test, n, ix)]


@lru_cache(maxsize=1024)
def _expression(noun: str) -> Expression:
    return Expression(noun=noun, type="object")


#: Answers of a condition or affordance for a node, by identity of both (the rule's table, then the node):
#: graphs share their nodes, so "is this Y-peeler able to peel" is asked once per build, not once per
#: graph. Each rule's table holds the rule, each answer its node (an id is not reused while they live).
_PASSES: dict[int, tuple[object, dict[int, tuple[Node, bool]]]] = {}


def _passes(rule: object, test: Callable[[CatalogObject], bool], node: Node, ix: GraphIndex) -> bool:
    table = _PASSES.get(id(rule))
    if table is None or table[0] is not rule:
        if len(_PASSES) > 1_000:
            _PASSES.clear()
        table = _PASSES[id(rule)] = (rule, {})
    answers = table[1]
    entry = answers.get(id(node))
    if entry is not None and entry[0] is node:
        return entry[1]
    if len(answers) > 20_000:
        answers.clear()
    ok = test(ix.view(node))
    answers[id(node)] = (node, ok)
    return ok


def ambiguous(candidates: Sequence[Node], fit: Sequence[Node]) -> bool:
    """Whether choosing among ``candidates`` takes knowledge: some, not all, of them fit."""
    return 0 < len(fit) < len(candidates)


_scenes: OrderedDict[int, tuple[Scene, dict[str, CatalogObject]]] = OrderedDict()


def objects(scene: Scene, nodes: Sequence[Node]) -> list[CatalogObject]:
    """The scene's catalog objects behind ``nodes`` (what the texts are rendered from), in node order."""
    entry = _scenes.get(id(scene))
    if entry is None or entry[0] is not scene:
        entry = (scene, {o.name: o for o in scene.objects})
        _scenes[id(scene)] = entry
        while len(_scenes) > 8:
            _scenes.popitem(last=False)
    by_name = entry[1]
    return [by_name[n.name] for n in nodes if n.name in by_name]


def names(nodes: Sequence[Node]) -> list[str]:
    return [n.name for n in nodes]
