"""Environment-induced ambiguity: one clear kitchen, one perturbed copy, and what tells them apart.

SG-CoT makes its environment-level items by keeping the instruction ("Bring me the mug.") and changing the
kitchen: a second mug appears (*multiplicity*), the mug is gone (*absence*), a second mug stands where the
reference "the mug left of the kettle" points (*reference*), or the mug is only where another robot can see
it (*observation*). The words never say the task is ambiguous; only the world does, so both kitchens are
kept and every claim is checked by resolving the referent in each (:mod:`ambiforge.validation.rules.
world_environment`).

A perturbation is declared as the node ids it adds, removes and moves; :func:`differences` finds every
node and edge the two graphs disagree on, and :func:`unexplained` says which of those the declaration does
not explain. Observation splits the kitchen into two agents' sides that share the counter (and the
appliances standing on it); :func:`agent_views` gives each agent's node ids.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ambiforge.models.action import Action
from ambiforge.models.item import AgentView
from ambiforge.models.scene_graph import SPATIAL_RELATIONS, Edge, Node, SceneGraph
from ambiforge.world.actions import render_plan
from ambiforge.world.divergence import end_of_ambiguity
from ambiforge.world.index import index
from ambiforge.world.query import Expression, RelationConstraint, resolve

ASKING, OTHER = "robot", "robot_b"
SHARED_PLACE = "counter"
#: The two sides of the kitchen in an observation item; places on neither side (the counter and what stands
#: on it) are shared: both agents see them, and an object put there passes from one agent to the other.
SIDES: dict[str, tuple[str, ...]] = {
    "left": ("fridge", "oven", "kitchen_table", "shelf_1", "cupboard_1", "drawer_1"),
    "right": ("dishwasher", "sink", "shelf_2", "cupboard_2", "drawer_2"),
}
RELATION_WORDS = {"left_of": "left of", "right_of": "right of", "next_to": "next to", "behind": "behind"}


def says(text: str, words: str) -> bool:
    """Whether ``text`` names ``words`` as whole words, case-insensitively: "apple juice" is not said by
    "pineapple juice" (a substring test would say it is)."""
    words = words.strip().lower()
    return bool(words) and re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text.lower()) is not None


def kind_of(name: str, noun: str) -> bool:
    """Whether an object called ``name`` is a ``noun`` by its words: the noun ends the name as a whole word
    ("ceramic mixing bowl" is a bowl; "sponge cake" is no sponge)."""
    words, head = name.lower().split(), noun.lower().split()
    return bool(head) and words[-len(head) :] == head


def named_nodes(graph: SceneGraph, text: str) -> list[Node]:
    """The nodes ``text`` names as whole words, longest names first; a name inside a longer one that is named
    there does not count ("the glass mug" names the glass mug, not a node called "mug")."""
    found: list[Node] = []
    taken: list[str] = []
    for node in sorted(graph.nodes, key=lambda n: -len(n.name)):
        name = node.name.lower()
        if says(text, node.name) and not any(says(t, name) for t in taken):
            found.append(node)
            taken.append(name)
    return found


def _sorted_edges(edges: Sequence[Edge]) -> tuple[Edge, ...]:
    return tuple(sorted(set(edges), key=lambda e: (e.source, e.relation, e.target)))


def place_of(graph: SceneGraph, node_id: str) -> str | None:
    """The place that holds ``node_id``, following objects inside objects (None: not located)."""
    ix, seen, cur = index(graph), set(), node_id
    while cur in ix.location and cur not in seen:
        seen.add(cur)
        cur = ix.location[cur].target
        if ix.by_id[cur].type == "place":
            return cur
    return None


def without(graph: SceneGraph, node_id: str) -> SceneGraph:
    """The graph with ``node_id`` and every edge touching it removed (objects inside it go too).

    What stood behind it keeps its row: its left/right neighbours in that row say where the row is. An
    object alone in its row has no such neighbours, so it is passed on the removed one's place in the row
    in front: it now stands behind the removed one's nearest neighbour there (:func:`passed_on`)."""
    ix = index(graph)
    gone = {node_id} | {s for s, e in ix.location.items() if e.target == node_id and e.relation == "inside"}
    kept = [e for e in graph.edges if e.source not in gone and e.target not in gone]
    return graph.model_copy(
        update={
            "nodes": tuple(n for n in graph.nodes if n.id not in gone),
            "edges": (*kept, *passed_on(graph, node_id)),
        }
    )


def passed_on(graph: SceneGraph, node_id: str) -> list[Edge]:
    """The "behind" edges removing ``node_id`` passes on: each object that stood behind it alone in its row
    (no left/right neighbour to keep its row by) stands behind the removed one's nearest neighbour in its
    row (the one next to it, else any left or right of it)."""
    across = ("left_of", "right_of")
    alone = [
        e.source
        for e in graph.edges
        if e.relation == "behind"
        and e.target == node_id
        and not any(f.source == e.source and f.relation in across for f in graph.edges)
    ]
    if not alone:
        return []
    mates = [e.target for e in graph.edges if e.source == node_id and e.relation == "next_to"]
    mates += [e.target for e in graph.edges if e.source == node_id and e.relation in across]
    if not mates:
        return []
    return [Edge(source=s, relation="behind", target=mates[0]) for s in alone]


def fresh_id(graph: SceneGraph, base: str) -> str:
    taken, k, oid = set(index(graph).by_id), 2, base
    while oid in taken:
        oid, k = f"{base}_{k}", k + 1
    return oid


def with_node(graph: SceneGraph, node: Node, place: str, beside: str | None = None) -> SceneGraph:
    """The graph with ``node`` added in ``place``. ``beside``: a node of that place the new one stands next
    to, taking over its spatial relations to the others (so "left of the kettle" fits both) and standing on
    its far side from the rest; without it the new node stands apart (no spatial relations)."""
    ix = index(graph)
    holder = ix.by_id[place]
    edges = [*graph.edges, Edge(source=node.id, relation=holder.holds or "on", target=place)]  # type: ignore[arg-type]
    if beside is not None:
        for e in graph.edges:
            if e.relation in SPATIAL_RELATIONS and e.source == beside:
                edges.append(Edge(source=node.id, relation=e.relation, target=e.target))
            elif e.relation in SPATIAL_RELATIONS and e.target == beside:
                edges.append(Edge(source=e.source, relation=e.relation, target=node.id))
        edges += [
            Edge(source=node.id, relation="next_to", target=beside),
            Edge(source=beside, relation="next_to", target=node.id),
        ]
    return graph.model_copy(update={"nodes": (*graph.nodes, node), "edges": _sorted_edges(edges)})


def replan(plan: Sequence[Action], clear: SceneGraph, target: str, graph: SceneGraph, candidate: str) -> list[Action]:
    """The clear plan as it runs under another answer: the steps that fetch ``target`` in the clear kitchen
    become the steps that fetch ``candidate`` in ``graph`` (another place, another way of getting it out),
    and every later step on the target acts on the candidate."""
    got = fetch(clear, target)
    start = next((i for i in range(len(plan)) if list(plan[i : i + len(got)]) == got), None)
    if start is None:
        return [a.replaced({"obj": candidate}) if a.obj == target else a for a in plan]
    rest = [a.replaced({"obj": candidate}) if a.obj == target else a for a in plan[start + len(got) :]]
    return [*plan[:start], *fetch(graph, candidate), *rest]


def asked_plan(plan: Sequence[Action], clear: SceneGraph, target: str, question: str) -> list[Action]:
    """Observation: the asking robot's plan. It cannot reach the other robot's side, so instead of
    fetching the target it asks the other robot (``ask_robot``) and picks it up from the shared counter."""
    got = fetch(clear, target)
    start = next((i for i in range(len(plan)) if list(plan[i : i + len(got)]) == got), 0)
    asked = [Action(verb="ask_robot", question=question), Action(verb="pick", obj=target)]
    return [*plan[:start], *asked, *plan[start + len(got) :]]


def ambiguity_end(clear_plan: Sequence[Action], others: Sequence[Sequence[Action]]) -> int | None:
    """The item's end of ambiguity: :func:`ambiforge.world.end_of_ambiguity` of the clear plan against the
    plans under the other candidates (the one function the docs name, so generator and rule agree)."""
    return end_of_ambiguity(clear_plan, list(others))


def report(noun: str) -> Action:
    """Absence, the answer declining: the plan ends by telling the user the object is not there. The verb
    agrees with the noun as said ("there are no carrots", "there is no coffee" for the espresso beans): a
    plural ends in -s (not -ss or -us: "glass", "hummus"), a mass noun does not ("coffee", "fish")."""
    plural = noun.endswith("s") and not noun.endswith(("ss", "us"))
    return Action(verb="tell", question=f"there {'are' if plural else 'is'} no {noun} in the kitchen")


def rivals(kind: str, perturbed: SceneGraph, referent: str, target: str) -> list[str]:
    """The other nodes the answer chooses the target from in the changed kitchen (multiplicity, reference):
    those the referent fits there, or, when a reference picks none, every node of its noun."""
    expr = parse_referent(referent)
    matched = resolve(perturbed, expr)
    if kind == "reference" and len(matched) < 2:
        matched = resolve(perturbed, expr.noun or referent)
    return [n.id for n in matched if n.id != target]


@dataclass(frozen=True)
class AnswerPlans:
    """The plans of an environment item in its changed kitchen: under the answer the item gives
    (``intended``) and under every other answer (``others``), and ``end``, the item's end of ambiguity
    (the first step at which they part, by :func:`ambiforge.world.end_of_ambiguity`), an index into ``intended``."""

    intended: list[Action]
    others: list[list[Action]]
    end: int | None


def answer_plans(
    kind: str,
    clear_plan: Sequence[Action],
    clear: SceneGraph,
    target: str,
    perturbed: SceneGraph,
    candidates: Sequence[str],
    *,
    question: str = "",
    chosen: str | None = None,
    declined: Action | None = None,
) -> AnswerPlans:
    """The plans under each answer, each run in the changed kitchen (:func:`replan`), and where they part.

    - multiplicity, reference: the target and each other ``candidates`` node fetched where the changed
      kitchen keeps it; the end is the first step at which the target's plan and the others' differ (both
      mugs in one closed cupboard: both open it, and they part at taking one out).
    - absence: each offered node (``candidates``) and declining (the plan is ``declined``, telling the
      user); the intended one is ``chosen``'s, or declining when None. The end is measured against the clear
      plan, which the changed kitchen cannot run: the first step no answer's plan shares with it.
    - observation: the asking robot's plan (:func:`asked_plan`); the end is its ``ask_robot`` step, before
      which nothing needs the other robot.
    """
    if kind == "absence":
        plans = {c: replan(clear_plan, clear, target, perturbed, c) for c in candidates}
        refusal = [declined] if declined is not None else []
        intended = plans[chosen] if chosen is not None else refusal
        others = [p for c, p in plans.items() if c != chosen] + ([refusal] if chosen is not None else [])
        return AnswerPlans(intended, others, end_of_ambiguity(clear_plan, [intended, *others]))
    if kind == "observation":
        asked = asked_plan(clear_plan, clear, target, question)
        return AnswerPlans(asked, [], end_of_ambiguity(clear_plan, [asked]))
    intended = replan(clear_plan, clear, target, perturbed, target)
    others = [replan(clear_plan, clear, target, perturbed, c) for c in candidates]
    return AnswerPlans(intended, others, end_of_ambiguity(intended, others))


def already_done(perturbed: SceneGraph, plans: AnswerPlans) -> str | None:
    """Evidence that under some answer the task is done before the robot moves: the plan puts an object in
    or on the place the changed kitchen already keeps it in (the change moved the target where the task
    sends it)."""
    ix = index(perturbed)
    for plan in (plans.intended, *plans.others):
        for action in plan:
            if action.verb in ("place", "put_in") and action.obj and place_of(perturbed, action.obj) == action.target:
                node, place = ix.by_id.get(action.obj), ix.by_id.get(action.target or "")
                if node is not None and place is not None:
                    return f"the changed kitchen already keeps the {node.name} {place.holds or 'in'} the {place.name}"
    return None


def ambiguous_steps(kind: str, plans: AnswerPlans, perturbed: SceneGraph, target: str, noun: str) -> list[str]:
    """The ambiguous plan's text, AmbiK's way, in the changed kitchen: the steps every answer's plan shares,
    then from the end of ambiguity on the plan under the answer with the target named by its noun ("Take
    the mug out of the upper cupboard." when both are in it; "Open the upper cupboard." when the answer's mug
    is there and the other on a shelf: a bare "Pick up the mug." would not fetch the answer's). Absence: the plan
    the answer leads to (the substitute's, or telling the user). Observation: the question to the other
    robot is the item's question, not a step; the step at the end of ambiguity picks the object up from the
    shared counter, the first step that needs the answer."""
    plan, end = plans.intended, plans.end if plans.end is not None else 0
    if kind == "absence":
        return render_plan(plan, perturbed)
    names = {target: f"the {noun}"}
    if kind == "observation":
        asked = next((i for i, a in enumerate(plan) if a.verb == "ask_robot"), 0)
        rest = [*plan[:asked], *plan[asked + 1 :]]
        text = render_plan(rest, perturbed, names)
        if asked < len(text):
            shared = index(perturbed).by_id.get(SHARED_PLACE)
            text[asked] = f"Pick up the {noun} from the {shared.name if shared else SHARED_PLACE}."
        return text
    return [*render_plan(plan[:end], perturbed), *render_plan(plan[end:], perturbed, names)]


def telling(
    clear_plan: Sequence[Action],
    clear: SceneGraph,
    others: Sequence[Sequence[Action]],
    graph: SceneGraph,
    step: int,
) -> list[str]:
    """The names at the clear plan's step ``step`` that no other candidate's plan has there: what tells the
    target's step from the others' (the cupboard when the other mug is on the shelf, the glass mug when
    both are in the cupboard). Empty: the words of that step do not tell them apart."""
    mine = clear_plan[step] if step < len(clear_plan) else None
    if mine is None:
        return []
    clear_ix, ix = index(clear), index(graph)

    def names(action: Action | None, by_id: dict[str, Node]) -> set[str]:
        if action is None:
            return set()
        return {by_id[v].name for v in (action.obj, action.target, action.tool) if v is not None and v in by_id}

    theirs: set[str] = set()
    for plan in others:
        theirs |= names(plan[step] if step < len(plan) else None, ix.by_id)
    ordered = [mine.obj, mine.target, mine.tool]
    out = [clear_ix.by_id[v].name for v in ordered if v is not None and v in clear_ix.by_id]
    return [n for n in dict.fromkeys(out) if n not in theirs]


def move(graph: SceneGraph, node_id: str, place: str, beside: str | None = None, side: str = "left_of") -> SceneGraph:
    """The graph with ``node_id`` taken from where it is and put in ``place``: its old location and spatial
    edges go. With ``beside`` (a node of ``place``), it stands directly on the ``side`` of it in its row, so
    it shares that node's left/right relations and stands next to it; nothing else is copied."""
    ix = index(graph)
    holder = ix.by_id[place]
    kept = [
        e
        for e in graph.edges
        if not (e.source == node_id and (e.relation in SPATIAL_RELATIONS or e.relation in ("in", "on", "inside")))
        and not (e.target == node_id and e.relation in SPATIAL_RELATIONS)
    ]
    edges = [*kept, Edge(source=node_id, relation=holder.holds or "on", target=place)]  # type: ignore[arg-type]
    if beside is not None:
        flip = {"left_of": "right_of", "right_of": "left_of"}
        for e in graph.edges:
            if e.source == beside and e.relation in flip and e.target != node_id:
                edges += [
                    Edge(source=node_id, relation=e.relation, target=e.target),  # type: ignore[arg-type]
                    Edge(source=e.target, relation=flip[e.relation], target=node_id),  # type: ignore[arg-type]
                ]
        edges += [
            Edge(source=node_id, relation=side, target=beside),  # type: ignore[arg-type]
            Edge(source=beside, relation=flip[side], target=node_id),  # type: ignore[arg-type]
            Edge(source=node_id, relation="next_to", target=beside),
            Edge(source=beside, relation="next_to", target=node_id),
        ]
    return graph.model_copy(update={"edges": _sorted_edges(edges)})


def referent_words(noun: str, relation: str | None = None, anchor: str | None = None) -> str:
    """'mug left of the kettle' (``relation`` a spatial relation, ``anchor`` a node name) or 'mug'."""
    if relation is None or anchor is None:
        return noun
    return f"{noun} {RELATION_WORDS[relation]} the {anchor}"


def parse_referent(words: str) -> Expression:
    """The expression of a referent as :func:`referent_words` writes it: 'mug left of the kettle' is the
    noun mug with a ``left_of`` relation to the node named kettle."""
    for relation, said in RELATION_WORDS.items():
        noun, sep, anchor = words.partition(f" {said} the ")
        if sep and noun and anchor:
            target = Expression(name=anchor)
            return Expression(noun=noun, relations=(RelationConstraint(relation=relation, target=target),))
    return Expression(noun=words)


def where(graph: SceneGraph, node_id: str) -> str:
    """'on the upper shelf' / 'in the fridge': where a node is kept, as words."""
    place = place_of(graph, node_id)
    if place is None:
        return ""
    node = index(graph).by_id[place]
    return f"{'on' if node.holds == 'on' else 'in'} the {node.name}"


def side_of(place: str) -> str | None:
    return next((side for side, places in SIDES.items() if place in places), None)


def agent_views(graph: SceneGraph, other_side: str) -> list[AgentView]:
    """Each agent's view: the places of its side, the shared ones, and every node kept in them. The asking
    robot stands on the side that is not ``other_side``."""
    shared = {p.id for p in graph.nodes if p.type == "place" and side_of(p.id) is None}
    views = []
    for agent, side in ((ASKING, next(s for s in SIDES if s != other_side)), (OTHER, other_side)):
        places = set(SIDES[side]) | shared
        seen = [n.id for n in graph.nodes if (n.id in places) or (place_of(graph, n.id) in places)]
        views.append(AgentView(agent=agent, nodes=seen))
    return views


def fetch(graph: SceneGraph, node_id: str) -> list[Action]:
    """The actions that get ``node_id`` into the hand from where it is kept: open, take out, close for a
    closed place; pick for anything in reach."""
    ix = index(graph)
    loc = ix.location.get(node_id)
    holder = ix.by_id.get(loc.target) if loc is not None else None
    if holder is not None and holder.type == "place" and holder.state.open is False and loc.relation == "in":
        return [
            Action(verb="open", obj=holder.id),
            Action(verb="take_out", obj=node_id, target=holder.id),
            Action(verb="close", obj=holder.id),
        ]
    return [Action(verb="pick", obj=node_id)]


def first_use(plan: Sequence[Action], node_id: str, place: str | None = None) -> int | None:
    """The first step (0-based) whose arguments name ``node_id`` or the ``place`` that keeps it: where a
    plan needs to know which node (opening the cupboard the mug is in already presumes that mug)."""
    names = {node_id, place} - {None}
    return next((i for i, a in enumerate(plan) if names & {a.obj, a.target, a.tool}), None)


@dataclass(frozen=True)
class Differences:
    """What two graphs disagree on: node ids only in one, nodes in both that changed, and edges only in one."""

    added: frozenset[str]
    removed: frozenset[str]
    changed: frozenset[str]
    edges_added: tuple[Edge, ...]
    edges_removed: tuple[Edge, ...]


def differences(clear: SceneGraph, perturbed: SceneGraph) -> Differences:
    a, b = index(clear).by_id, index(perturbed).by_id
    ea, eb = set(clear.edges), set(perturbed.edges)
    return Differences(
        added=frozenset(set(b) - set(a)),
        removed=frozenset(set(a) - set(b)),
        changed=frozenset(i for i in set(a) & set(b) if a[i] != b[i]),
        edges_added=_sorted_edges(list(eb - ea)),
        edges_removed=_sorted_edges(list(ea - eb)),
    )


def _edge(e: Edge) -> str:
    return f"{e.source} {e.relation} {e.target}"


def unexplained(
    clear: SceneGraph, perturbed: SceneGraph, added: list[str], removed: list[str], moved: list[str]
) -> list[str]:
    """Every way the two graphs differ that ``added``/``removed``/``moved`` do not declare, and every
    declared change that did not happen, as evidence ('node glass_mug_2 added but not declared')."""
    d = differences(clear, perturbed)
    out: list[str] = []
    for label, found, declared in (("added", d.added, set(added)), ("removed", d.removed, set(removed))):
        out += [f"node {i} {label} but not declared" for i in sorted(found - declared)]
        out += [f"node {i} declared {label} but the graphs agree on it" for i in sorted(declared - found)]
    out += [f"node {i} changed (attributes or state)" for i in sorted(d.changed)]
    touched = set(added) | set(removed) | set(moved)
    handed = {e for r in removed for e in passed_on(clear, r)}  # what a removal passes on is the removal's
    for label, edges in (("added", d.edges_added), ("removed", d.edges_removed)):
        out += [f"edge {_edge(e)} {label}" for e in edges if not ({e.source, e.target} & touched) and e not in handed]
    for i in sorted(set(moved)):
        before = index(clear).location.get(i)
        after = index(perturbed).location.get(i)
        spatial = {(e.relation, e.target) for e in clear.edges if e.source == i and e.relation in SPATIAL_RELATIONS}
        still = {(e.relation, e.target) for e in perturbed.edges if e.source == i and e.relation in SPATIAL_RELATIONS}
        if before is not None and after is not None and before == after and spatial == still:
            out.append(f"node {i} declared moved but stays {after.relation} {after.target}")
    return out


__all__ = [
    "ASKING",
    "OTHER",
    "SHARED_PLACE",
    "SIDES",
    "AnswerPlans",
    "already_done",
    "Differences",
    "ambiguous_steps",
    "answer_plans",
    "report",
    "rivals",
    "agent_views",
    "ambiguity_end",
    "asked_plan",
    "move",
    "named_nodes",
    "passed_on",
    "replan",
    "says",
    "telling",
    "differences",
    "fetch",
    "first_use",
    "fresh_id",
    "kind_of",
    "parse_referent",
    "place_of",
    "referent_words",
    "side_of",
    "unexplained",
    "where",
    "with_node",
    "without",
]
