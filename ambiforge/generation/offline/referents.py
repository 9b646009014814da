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

from ambiforge.catalog import Catalog, CatalogObject
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.conditions import Condition
from ambiforge.environment import Scene
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import Expression, nodes_only_graph, resolve
from ambiforge.world.index import GraphIndex, index


@dataclass
class _Asked:
    """What the templates of one draw ask of one graph: who each noun picks out, those of them meeting a
    condition, and which nodes meet each rule (an affordance by name, a condition by value). Every template
    of a draw asks the same nouns, and many the same rules, of the same kitchen, so each answer is worked
    out once per graph, and each rule is tested only on the nodes it is asked about. It holds the graph's
    index, not the graph, which holds it: no reference cycle."""

    ix: GraphIndex
    nouns: dict[str, tuple[Node, ...]] = field(default_factory=dict)
    filtered: dict[tuple[str, Condition], list[Node]] = field(default_factory=dict)
    answers: dict[str | Condition, dict[str, bool]] = field(default_factory=dict)
    #: The scene's objects as the catalog's bits (:meth:`Catalog.bits_of`), once asked.
    scene_bits: int | None = None

    def named(self, graph: SceneGraph, noun: str) -> tuple[Node, ...]:
        """The objects "a <noun>" picks out in ``graph`` (the one indexed), in graph order."""
        nodes = self.nouns.get(noun)
        if nodes is None:
            nodes = self.nouns[noun] = tuple(resolve(graph, _expression(noun)))
        return nodes

    def meeting(self, nodes: Sequence[Node], action: str | None, condition: Condition | None) -> list[Node]:
        """The ``nodes`` affording ``action`` when given, else meeting ``condition``."""
        rule: str | Condition | None = action or condition
        assert rule is not None
        answers = self.answers.get(rule)
        if answers is None:
            answers = self.answers[rule] = {}
        test: Callable[[CatalogObject], bool] | None = None
        out = []
        for n in nodes:
            answer = answers.get(n.id)
            if answer is None:
                if test is None:
                    test = cached_affordances().get(action).allows if action else condition.matches  # type: ignore[union-attr]
                answer = answers[n.id] = bool(test(self.ix.view(n)))
            if answer:
                out.append(n)
        return out


def _of(graph: SceneGraph) -> _Asked:
    """The answers kept with ``graph``: a copied graph carries its original's tables, which are its own
    only while its nodes and edges are the ones they were made from."""
    asked = graph.tables.get("referents")
    if isinstance(asked, _Asked) and asked.ix.nodes is graph.nodes and asked.ix.edges is graph.edges:
        return asked
    asked = graph.tables["referents"] = _Asked(index(graph))
    return asked


def in_scene(graph: SceneGraph, scene: Scene, catalog: Catalog) -> int:
    """The bits (:meth:`Catalog.bits_of`) of the objects of ``scene``, whose kitchen ``graph`` is: every
    template of a draw asks whether its co-slots can be filled in the same scene."""
    asked = _of(graph)
    if asked.scene_bits is None:
        asked.scene_bits = catalog.bits_of(scene.objects)
    return asked.scene_bits


def holds(graph: SceneGraph, bits: int) -> None:
    """Tell :func:`in_scene` the bits of the scene whose kitchen ``graph`` is, when the caller has them."""
    _of(graph).scene_bits = bits


def members(graph: SceneGraph, noun: str, condition: Condition | None = None) -> list[Node]:
    """The kitchen's objects "a <noun>" picks out (any group: a butter knife is a knife too) that meet
    ``condition`` (what the template's target allows: clean, microwave-safe known, ...)."""
    asked = _of(graph)
    nodes = asked.named(graph, noun)
    if condition is None:
        return list(nodes)
    kept = asked.filtered.get((noun, condition))
    if kept is None:
        kept = asked.filtered[noun, condition] = asked.meeting(nodes, None, condition)
    return list(kept)


def fitting(graph: SceneGraph, nodes: Sequence[Node], action: str | None, condition: Condition | None) -> list[Node]:
    """The nodes that can do the job: those affording ``action`` when the template names one, else those
    meeting ``condition`` (knowledge the affordance table does not hold, such as "a fillet knife fillets")."""
    if not action and condition is None:
        return list(nodes)
    return _of(graph).meeting(nodes, action, condition)


def picked(catalog: Catalog, noun: str) -> tuple[tuple[str, CatalogObject], ...]:
    """The catalog's objects "a <noun>" (the noun of one of its groups) picks out in any kitchen, resolved
    on a kitchen of every catalog object as :func:`members` resolves it on a scene's, each by name with its
    node as a catalog object (what a template's tests read on a graph). A table of the catalog, worked out
    once for every group's noun: plain data, so the catalog still pickles."""
    table = catalog.tables.get("referents.picked")
    if not isinstance(table, dict):
        kitchen = nodes_only_graph(list(catalog.objects.values()))
        ix = index(kitchen)
        table = {}
        for group in catalog.groups.values():
            if group.noun not in table:
                table[group.noun] = tuple((n.name, ix.view(n)) for n in resolve(kitchen, _expression(group.noun)))
        catalog.tables["referents.picked"] = table
    return table[noun]  # type: ignore[no-any-return]


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
