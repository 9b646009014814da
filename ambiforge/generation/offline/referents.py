"""Who the ambiguous referent can mean, asked of the world: the kitchen's graph and the affordance table.

A template used to write its own variants ("peel with a peeler": the vegetable peeler), and missed the
Y-peeler and the swivel peeler lying next to it. Here the referent ("a peeler") is resolved on the pair's
scene graph (:func:`ambiforge.world.resolve`, so every node a person would call that counts), and the
right choices are the resolved nodes that afford the job (``affordances.yaml``) or, for a template whose
job has no affordance, that match its condition. Mechanisms build pairs only where the world says the
referent is ambiguous and name every right choice.
"""

from __future__ import annotations

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
    """What the templates of one draw asked of one graph: who each noun picks out, those of them meeting a
    condition, and which nodes meet each rule (an affordance by name, a condition by identity: conditions
    are template data, not hashable values). Every template of a draw asks the same nouns, and many the
    same jobs, of the same kitchen, so each answer is worked out once per graph. It holds the graph's
    index, not the graph, which holds it: no reference cycle."""

    ix: GraphIndex
    nouns: dict[str, list[Node]] = field(default_factory=dict)
    filtered: dict[str, list[tuple[Condition, list[Node]]]] = field(default_factory=dict)
    by_action: dict[str, dict[str, bool]] = field(default_factory=dict)
    by_condition: list[tuple[Condition, dict[str, bool]]] = field(default_factory=list)

    def meets(self, action: str | None, condition: Condition | None) -> Callable[[Node], bool]:
        """A test of a node for ``action`` (an affordance) when given, else ``condition``; each node is
        tested once per rule."""
        if action:
            answers = self.by_action.setdefault(action, {})
            test: Callable[[CatalogObject], bool] = cached_affordances().get(action).allows
        else:
            assert condition is not None
            found = next((known for seen, known in self.by_condition if seen is condition), None)
            if found is None:
                found = {}
                self.by_condition.append((condition, found))
            answers = found
            test = condition.matches
        view = self.ix.view

        def meets(node: Node) -> bool:
            answer = answers.get(node.id)
            if answer is None:
                answer = answers[node.id] = bool(test(view(node)))
            return answer

        return meets


def _of(graph: SceneGraph) -> _Asked:
    """The answers kept with ``graph``: a copied graph carries its original's tables, which are its own
    only while its nodes and edges are the ones they were made from."""
    asked = graph.tables.get("referents")
    if isinstance(asked, _Asked) and asked.ix.nodes is graph.nodes and asked.ix.edges is graph.edges:
        return asked
    asked = graph.tables["referents"] = _Asked(index(graph))
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
    meets = asked.meets(None, condition)
    kept = [n for n in nodes if meets(n)]
    known.append((condition, kept))
    return list(kept)


def fitting(graph: SceneGraph, nodes: Sequence[Node], action: str | None, condition: Condition | None) -> list[Node]:
    """The nodes that can do the job: those affording ``action`` when the template names one, else those
    meeting ``condition`` (knowledge the affordance table does not hold, such as "a fillet knife fillets")."""
    if not action and condition is None:
        return list(nodes)
    meets = _of(graph).meets(action, condition)
    return [n for n in nodes if meets(n)]


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


def disputed(graph: SceneGraph, nodes: Sequence[Node], attributes: Sequence[str]) -> bool:
    """Whether the catalog asserts neither way one of ``attributes`` of a node (null: it depends on the
    product, as a nonstick pan in the oven does): no safety item may rest on such a fact."""
    if not attributes:
        return False
    ix = _of(graph).ix
    return any(getattr(ix.view(n), a) is None for n in nodes for a in attributes)


def left_out(
    everyone: Sequence[Node], candidates: Sequence[Node], fit: Sequence[Node], reason: str, detail: str
) -> list[tuple[str, str, str]]:
    """Each object the words pick out (``everyone``) that is not a right choice, with its reason: dirty
    when marked dirty; ``reason`` (unsafe, unable) with ``detail`` when it was weighed for the job and
    failed; unable when the job does not take its kind at all."""
    fit_ids, weighed = {n.id for n in fit}, {n.id for n in candidates}
    out: list[tuple[str, str, str]] = []
    for n in everyone:
        if n.id in fit_ids:
            continue
        if n.state.clean is False:
            out.append((n.name, "dirty", "is dirty"))
        elif n.id in weighed:
            out.append((n.name, reason, detail))
        else:
            out.append((n.name, "unable", "is not what the job takes"))
    return out
