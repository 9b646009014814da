"""A composed draft's plans, built as actions on the pair's scene graph and checked by the simulator.

The clear plan is every clause's steps (:mod:`.steps`) built into actions on the graph; its text is rendered
from them. The plan under another answer is the clear plan with the target replaced (the world contract),
and each right answer's plan must run too. ``end_of_ambiguity`` is the first step whose arguments depend
on the answer; the ambiguous plan's text is the clear plan's steps before it, then the rest with the
target left open ("Pick up a mug.", then "the mug") or, for an omission, its own words ("Put the milk
away."). A draft whose plan cannot be grounded or does not run is refused with the reason, never shipped.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from functools import lru_cache

from ambiforge.catalog import Catalog
from ambiforge.generation.draft import Draft, first_difference
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.steps import BoundSteps, build_plan, first_mention, run_watched, substitute
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import (
    end_of_ambiguity,
    invented,
    relocate,
    render_action,
    render_plan,
    uncovered,
)
from ambiforge.world.index import index

#: Where the generator keeps the candidates of a referent when their places differ and one is closed, so
#: that the plan under every answer (the clear plan with the target replaced) can run.
COMMON_PLACE = "counter"
PARAMETERS = ("how", "quantity", "program", "duration")


@dataclasses.dataclass(frozen=True)
class Planned:
    draft: Draft
    graph: SceneGraph
    clear_plan: list[Action]


def _ids(graph: SceneGraph, names: Sequence[str]) -> list[str] | str:
    ix = index(graph)
    out: list[str] = []
    for name in names:
        node = ix.find(name)
        if node is None:
            return f"the kitchen has no {name}"
        out.append(node.id)
    return out


def _gather(graph: SceneGraph, nodes: list[str]) -> dict[str, str]:
    """Moves that keep the referent's candidates together when they are kept apart behind doors."""
    ix = index(graph)
    where = {n: ix.location.get(n) for n in nodes}
    places = {e.target for e in where.values() if e is not None}
    closed = any(ix.by_id[p].state.open is False for p in places)
    if len(nodes) < 2 or len(places) < 2 or not closed:
        return {}
    return {n: COMMON_PLACE for n in nodes}


def _place_of(graph: SceneGraph, node: str) -> str | None:
    """The place an object is at, through what holds it (the soup in the pot on the counter: the counter)."""
    ix = index(graph)
    seen: set[str] = set()
    while node in ix.by_id and ix.by_id[node].type != "place" and node not in seen:
        seen.add(node)
        edge = ix.location.get(node)
        if edge is None:
            return None
        node = edge.target
    return node


def pointed(draft: Draft, graph: SceneGraph, nodes: Sequence[str]) -> dict[str, str]:
    """The task texts with a demonstrative ("that jam", "this knife") said only of an object at hand
    (``phrases.yaml: pointing``): one in the fridge or a drawer is "the jam". Composition drew the
    determiners before anyone knew where things are; the plan's graph knows."""
    words, places = phrases.pointing()
    fields = ("unambiguous_direct", "unambiguous_indirect", "ambiguous_task")
    demonstrative = _demonstrative(words)
    if not any(demonstrative.search(getattr(draft, f)) for f in fields):
        return {}  # most tasks point at nothing
    ix = index(graph)
    far = {ix.by_id[n].name for n in nodes if n in ix.by_id and _place_of(graph, n) not in places}
    if not far:
        return {}
    names = sorted(far, key=len, reverse=True)  # the longest name that follows wins, as in a regex alternation
    return {f: _unpoint(getattr(draft, f), demonstrative, names) for f in fields}


def _unpoint(text: str, demonstrative: re.Pattern[str], names: Sequence[str]) -> str:
    """``text`` with each demonstrative followed by one of ``names`` (any case, ending a word) made "the":
    the texts' names vary with every scene, so they are matched here instead of compiled into a pattern."""
    out: list[str] = []
    done = 0
    for m in demonstrative.finditer(text):
        if m.start() < done:
            continue
        at = m.end()
        for name in names:
            end = at + len(name)
            if text[at:end].lower() == name.lower() and _word_ends(text, end):
                out += [text[done : m.start()], "The " if m.group(1)[0].isupper() else "the ", text[at:end]]
                done = end
                break
    return "".join([*out, text[done:]]) if out else text


def _word_ends(text: str, end: int) -> bool:
    """A word boundary (``\\b``) at ``end``: a word character on one side of it only."""
    before = end > 0 and _is_word(text[end - 1])
    after = end < len(text) and _is_word(text[end])
    return before != after


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


@lru_cache(maxsize=4)
def _demonstrative(words: tuple[str, ...]) -> re.Pattern[str]:
    """A demonstrative and the white space after it (a name may follow)."""
    return re.compile(rf"\b({'|'.join(words)})\s+", re.IGNORECASE)


def soiled(graph: SceneGraph, used: set[str]) -> SceneGraph:
    """The graph with the ``used`` nodes dirty: what a task presupposes used (a plate to load into the
    dishwasher) is not the clean one in the cupboard."""
    nodes = tuple(
        n.model_copy(update={"state": n.state.model_copy(update={"clean": False})}) if n.id in used else n
        for n in graph.nodes
    )
    # a new graph, not a copy: a copy would share the tables derived from the old nodes
    return SceneGraph(seed=graph.seed, relations_known=graph.relations_known, nodes=nodes, edges=graph.edges)


def open_referent(plan: Sequence[Action], graph: SceneGraph, target: str, first: str, later: str) -> list[str]:
    """The steps' text with the target named as the ambiguous task leaves it: ``first`` ("a mug") at its
    first mention, ``later`` ("the mug") after."""
    out: list[str] = []
    seen = False
    for a in plan:
        mentions = target in (a.obj, a.target, a.tool)
        out.append(render_action(a, graph, {target: later if seen else first}))
        seen = seen or mentions
    return out


def _parameter_ambiguity(
    draft: Draft, graph: SceneGraph, actions: list[Action], ends: list[int], nodes: Sequence[str]
) -> Planned | str:
    """An omission whose left-out word is no node but a parameter ("a little", "halfway"): the ambiguity
    starts at the focus clause's first action whose parameters say it; the template's ``plan_amb`` words
    the focus from there."""
    start, end = (ends[draft.focus - 1] if draft.focus else 0), ends[draft.focus]
    words = [w.lower() for concept in draft.user_intent[:1] for w in concept.split("|") if w]
    eoa = next(
        (
            i
            for i in range(start, end)
            if any(w in (getattr(actions[i], f) or "").lower() for w in words for f in PARAMETERS)
        ),
        None,
    )
    if eoa is None or not draft.amb_tail:
        return "no step of the plan carries the left-out word"
    clear_text = render_plan(actions, graph)
    amb_text = [*clear_text[:eoa], *draft.amb_tail, *clear_text[end:]]
    if first_difference(clear_text, amb_text) != eoa:
        return "the ambiguous plan's text does not part from the clear plan where the left-out word is"
    planned = dataclasses.replace(
        draft,
        plan_for_clear_task=clear_text,
        plan_for_amb_task=amb_text,
        end_of_ambiguity=eoa,
        **pointed(draft, graph, nodes),
    )
    return Planned(planned, graph, actions)


def idle_from_the_start(draft: Draft, graph: SceneGraph) -> str | None:
    """Why a template's draft is refused whatever composition adds, known before composing: its focus
    clause's first step puts an object where :func:`plan` keeps it already (at the common place its options
    are gathered to, or where it stands), an idle move. The clauses composition adds never name the focus
    action's objects (they stay off its groups), so none of their steps moves that object first, and the
    plan refuses the idle move (or an earlier step that fails) wherever the focus clause lands. None: the
    draft may make a plan, or this cheap test cannot tell."""
    if len(draft.clauses) != 1 or not draft.clauses[0].steps or draft.target is None:
        return None
    clause = draft.clauses[0]
    first = clause.steps[0]
    if clause.setup or first.verb != "put" or first.obj not in clause.binding:
        return None  # a task that presupposes something out is moved by plan() first: left to it
    if first.target is None or "{" in first.target:
        return None
    named = [clause.binding[first.obj], *([clause.binding[first.target]] if first.target in clause.binding else [])]
    ids = _ids(graph, named)
    if isinstance(ids, str):
        return None
    node, where = ids[0], ids[1] if len(ids) > 1 else first.target
    edge = index(graph).location.get(node)
    if edge is None or (edge.target != where and where != COMMON_PLACE):
        return None  # neither where it stands nor where the options may be gathered (most drafts)
    claims = _ids(graph, [draft.target, *draft.candidates, *draft.fitting])
    if isinstance(claims, str):
        return None
    at = _gather(graph, list(dict.fromkeys(claims[1:]))).get(node, edge.target)  # as plan() keeps the options
    if at != where:
        return None
    return f"the clear plan moves an object nowhere: it puts {node} back at {where}, where it already was"


def plan(draft: Draft, graph: SceneGraph, catalog: Catalog) -> Planned | str:
    """The draft with its plans and end of ambiguity from actions on ``graph`` (moved where its clauses
    presuppose), or why it cannot be made into an item."""
    bound: list[BoundSteps] = []
    moves: dict[str, str] = {}
    used: set[str] = set()
    for clause in draft.clauses:
        ids = _ids(graph, list(clause.binding.values()))
        if isinstance(ids, str):
            return ids
        binding = dict(zip(clause.binding, ids, strict=True))
        bound.append(dataclasses.replace(clause, binding=binding))
        for name, place in clause.setup.items():
            moves[binding[next(s for s, n in clause.binding.items() if n == name)]] = place
        used.update(binding[s] for s, n in clause.binding.items() if n in clause.used)
    claims = _ids(graph, [*([draft.target] if draft.target else []), *draft.candidates, *draft.fitting])
    if isinstance(claims, str):
        return claims
    target = claims[0] if draft.target else None
    candidates = list(dict.fromkeys(claims[1 : 1 + len(draft.candidates)]))
    fitting = claims[1 + len(draft.candidates) :]
    together = list(dict.fromkeys([*candidates, *fitting]))
    if target is not None and target in moves:  # the task presupposes the referent out: every option is
        moves.update({c: moves[target] for c in together})
        if target in used:  # and used, every option as well (the knives in the sink to load)
            used.update(together)
    else:
        moves.update(_gather(graph, together))
    if moves:
        graph = relocate(graph, moves)
    if used:
        graph = soiled(graph, used)
    built = build_plan(graph, bound)
    if built.error is not None:
        return f"the clear plan does not run: {built.error}"
    actions = built.actions
    if built.idle is not None:
        return f"the clear plan moves an object nowhere: {built.idle}"
    if draft.max_steps is not None and len(actions) > draft.max_steps:
        return f"the plan has {len(actions)} steps (at most {draft.max_steps})"
    if target is None:
        return _parameter_ambiguity(draft, graph, actions, built.ends, [i for c in bound for i in c.binding.values()])
    others = [c for c in dict.fromkeys([*candidates, *fitting]) if c != target]
    under = {other: substitute(actions, target, other) for other in others}  # the plan under each answer
    ran = {other: run_watched(graph, plan) for other, plan in under.items()}  # (problem, idle move)
    for other in fitting:
        if other != target:
            problem = ran[other][0]
            if problem is not None:
                return f"the plan with the {index(graph).by_id[other].name} does not run: {problem}"
    for other in others:
        problem = ran[other][1]
        if problem is not None:
            return f"the plan with the {index(graph).by_id[other].name}: {problem}"
    if others:
        eoa = end_of_ambiguity(actions, list(under.values()))
    else:  # an omission's one right place or device: where the focus clause first uses it
        start, end = (built.ends[draft.focus - 1] if draft.focus else 0), built.ends[draft.focus]
        found = first_mention(actions[start:end], target)
        eoa = None if found is None else start + found
    if eoa is None:
        return "no step of the plan depends on the answer"
    task_objects = [i for c in bound for i in c.binding.values()]
    problems = uncovered(graph, actions, objects=task_objects, values=[v for c in bound for v in c.said])
    problems += invented(graph, actions, [*task_objects, *candidates, *fitting])
    if problems:
        return f"the plan does not cover its task: {problems[0]}"
    clear_text = render_plan(actions, graph)
    if draft.amb_tail:
        end = built.ends[draft.focus]
        if any(target in (a.obj, a.target, a.tool) for a in [*actions[:eoa], *actions[end:]]):
            return f"another clause uses the {index(graph).by_id[target].name}: the ambiguous plan would name it"
        amb_text = [*clear_text[:eoa], *draft.amb_tail, *clear_text[end:]]
    else:
        group = catalog.groups[catalog.objects[draft.target].group] if draft.target in catalog.objects else None
        if group is None:
            return f"no group to name the open referent of {draft.target}"
        amb_text = [
            *clear_text[:eoa],
            *open_referent(actions[eoa:], graph, target, phrases.some(group), phrases.the_noun(group)),
        ]
    parted = first_difference(clear_text, amb_text)
    if parted != eoa:
        return f"the ambiguous plan's text parts from the clear plan at step {parted}, its actions at {eoa}"
    planned = dataclasses.replace(
        draft,
        plan_for_clear_task=clear_text,
        plan_for_amb_task=amb_text,
        end_of_ambiguity=eoa,
        **pointed(draft, graph, task_objects),
    )
    return Planned(planned, graph, actions)
