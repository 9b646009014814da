"""world_environment: environment-induced items checked against both their kitchens.

An item of ``multiplicity``, ``absence``, ``reference`` or ``observation`` keeps its instruction and changes
its kitchen (``world.perturbation``), so its words prove nothing: its referent (``perturbation.referent``,
"mug" or "mug left of the tea kettle") must pick exactly the target in the clear graph, and in the perturbed
graph two or more nodes (multiplicity, reference), none (absence), or none the asking robot sees and one the
other robot sees (observation). The two graphs must differ by exactly the declared perturbation (every node
and edge they disagree on touches an added, removed or moved node, and every declared change happened); the
question names what tells the candidates apart and the answer picks one; the end of ambiguity is the first
step at which the answers' plans in the changed kitchen part, and the ambiguous plan says that kitchen's
shared steps before it (absence, the answer declining: it ends by telling the user). That the clear plan executes
is the ``world_plan`` rule's (:mod:`.world`). Every message names its evidence (nodes with their places).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambiforge.models import Item, Perturbation, World
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.textnorm import normalise
from ambiforge.validation.rules.base import family_rules
from ambiforge.validation.rules.world import located
from ambiforge.world import render_plan, resolve, simulate
from ambiforge.world.index import index
from ambiforge.world.perturb import (
    ASKING,
    OTHER,
    AnswerPlans,
    already_done,
    ambiguous_steps,
    answer_plans,
    kind_of,
    parse_referent,
    place_of,
    report,
    rivals,
    says,
    unexplained,
)

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

ORDER = 76  # right after the world rules

KINDS = ("multiplicity", "absence", "reference", "observation")


def _listed(graph: SceneGraph, nodes: list[Node]) -> str:
    return ", ".join(located(graph, n) for n in nodes) or "nothing"


def check_counts(item: Item, world: World, p: Perturbation) -> list[tuple[str, str]]:
    """The referent picks the target in the clear kitchen and the kind's count in the perturbed one."""
    found: list[tuple[str, str]] = []
    expr = parse_referent(p.referent)
    clear = resolve(world.graph, expr)
    if [n.id for n in clear] != [world.target]:
        found.append(
            (
                "world_env_referent",
                f"clear kitchen: {p.referent!r} matches {len(clear)} node(s) ({_listed(world.graph, clear)}), "
                f"must be exactly the target {world.target}",
            )
        )
    matched = resolve(p.graph, expr)
    said = f"perturbed kitchen: {p.referent!r} matches {_listed(p.graph, matched)}"
    if p.kind == "reference":
        kind = resolve(world.graph, expr.noun or "")
        if len(kind) < 2:
            found.append(
                (
                    "world_env_referent",
                    f"clear kitchen: {expr.noun!r} matches {_listed(world.graph, kind)}; reference needs two or "
                    "more of the kind, one picked by the relation",
                )
            )
        if len(matched) == 1:
            found.append(("world_env_referent", f"{said}; reference needs none or two or more"))
        anchor = expr.relations[0].target.name if expr.relations else None
        if anchor and expr.noun and kind_of(anchor, expr.noun):
            found.append(
                (
                    "world_env_referent",
                    f"reference: the anchor {anchor!r} is itself a {expr.noun}, so the words pick it too",
                )
            )
    elif p.kind == "multiplicity" and len(matched) < 2:
        found.append(("world_env_referent", f"{said}; {p.kind} needs two or more"))
    elif p.kind == "absence" and matched:
        found.append(("world_env_referent", f"{said}; absence needs none"))
    elif p.kind == "observation":
        views = {v.agent: set(v.nodes) for v in p.views}
        if set(views) != {ASKING, OTHER}:
            found.append(("world_env_referent", f"views: expected agents {ASKING} and {OTHER}, got {sorted(views)}"))
            return found
        seen = [n for n in matched if n.id in views[ASKING]]
        other = [n for n in matched if n.id in views[OTHER]]
        if seen:
            found.append(
                ("world_env_referent", f"{said}; the asking robot sees {_listed(p.graph, seen)}, must see none")
            )
        if len(other) != 1:
            found.append(
                ("world_env_referent", f"{said}; the other robot sees {_listed(p.graph, other)}, must see one")
            )
        unknown = sorted({i for v in views.values() for i in v} - set(index(p.graph).by_id))
        if unknown:
            found.append(("world_env_referent", f"views: name node(s) {', '.join(unknown)} the graph does not hold"))
    return found


def check_difference(world: World, p: Perturbation) -> list[tuple[str, str]]:
    problems = unexplained(world.graph, p.graph, p.added, p.removed, p.moved)
    if not problems:
        return []
    shown = "; ".join(problems[:4]) + (f"; and {len(problems) - 4} more" if len(problems) > 4 else "")
    return [("world_env_difference", f"the kitchens differ beyond the declared {p.kind} perturbation: {shown}")]


def _tells(graph: SceneGraph, node: Node, among: list[Node]) -> list[str]:
    """The words that tell ``node`` from the others: its name, and its place when another has the name."""
    words = [node.name]
    if any(o.id != node.id and o.name == node.name for o in among):
        place = place_of(graph, node.id)
        words.append(index(graph).by_id[place].name if place else "")
    return words


def check_question_answer(item: Item, world: World, p: Perturbation) -> list[tuple[str, str]]:
    """The question names what tells the candidates apart; the answer picks exactly one (the target), or,
    for absence, names an object of the perturbed kitchen to use instead."""
    found: list[tuple[str, str]] = []
    expr = parse_referent(p.referent)
    matched = resolve(p.graph, expr)
    if p.kind == "reference":
        # the question is about the relation: it names the anchor, and tells apart the candidates
        anchor = expr.relations[0].target.name if expr.relations else None
        if anchor and not says(item.question, anchor):
            found.append(("world_env_answer", f"question: does not name the {anchor} the reference is about"))
        if not matched:
            matched = resolve(p.graph, expr.noun or "")
    if p.kind in ("multiplicity", "reference") and len(matched) >= 2:
        unnamed = [n for n in matched if not all(says(item.question, w) for w in _tells(p.graph, n, matched))]
        if unnamed:
            found.append(("world_env_answer", f"question: does not tell apart {_listed(p.graph, unnamed)}"))
        picked = [n for n in matched if all(says(item.answer, w) for w in _tells(p.graph, n, matched))]
        if [n.id for n in picked] != [world.target]:
            found.append(
                (
                    "world_env_answer",
                    f"answer: picks {_listed(p.graph, picked)}, must pick exactly the target {world.target}",
                )
            )
    elif p.kind == "absence":
        instead = [n for n in p.graph.nodes if n.type == "object" and says(item.answer, n.name)]
        declined = says(item.answer, f"no {p.referent}")
        if not instead and not declined:
            found.append(
                (
                    "world_env_answer",
                    "answer: names nothing of the perturbed kitchen to use instead, nor says to report the "
                    f"missing {p.referent}",
                )
            )
    elif p.kind == "observation":
        target = index(p.graph).by_id.get(world.target or "")
        if target is not None and not says(item.answer, target.name):
            found.append(("world_env_answer", f"answer: the other robot does not name the {target.name}"))
    return found


def plans_of(item: Item, world: World, p: Perturbation) -> AnswerPlans:
    """The plans under the item's answers in the changed kitchen, by the function the generator uses
    (:func:`ambiforge.world.perturb.answer_plans`): the other nodes the referent fits there (multiplicity,
    reference; the target where it now is), for absence each object the question or answer offers and
    declining (telling the user), for observation asking the other robot."""
    assert world.target is not None
    noun = parse_referent(p.referent).noun or p.referent
    chosen: str | None = None
    if p.kind == "absence":
        candidates = [
            n.id for n in p.graph.nodes if n.type == "object" and says(item.question + " " + item.answer, n.name)
        ]
        chosen = next((n.id for n in p.graph.nodes if n.id in candidates and says(item.answer, n.name)), None)
    elif p.kind == "observation":
        candidates = []
    else:
        candidates = rivals(p.kind, p.graph, p.referent, world.target)
    return answer_plans(
        p.kind,
        world.clear_plan,
        world.graph,
        world.target,
        p.graph,
        candidates,
        question=item.question,
        chosen=chosen,
        declined=report(noun),
    )


def candidate_plans(item: Item, world: World, p: Perturbation) -> list[list[Action]]:
    """Every answer's plan in the changed kitchen, the item's own answer first."""
    plans = plans_of(item, world, p)
    return [plans.intended, *plans.others]


def check_end(item: Item, world: World) -> list[tuple[str, str]]:
    p = world.perturbation
    if not world.clear_plan or world.target is None or p is None:
        return [("world_env_end_of_ambiguity", "world: no clear plan as actions to find the end of ambiguity in")]
    plans = plans_of(item, world, p)
    first = plans.end
    if first is None:
        return [("world_env_end_of_ambiguity", "the plans under the candidates never part: nothing to ask about")]
    found: list[tuple[str, str]] = []
    if first != item.end_of_ambiguity:
        steps = ambiguous_steps(p.kind, plans, p.graph, world.target, parse_referent(p.referent).noun or p.referent)
        said = steps[first] if first < len(steps) else ""
        found.append(
            (
                "world_env_end_of_ambiguity",
                f"end_of_ambiguity: {item.end_of_ambiguity}, but the candidates' plans first differ at step {first} "
                f"(step {first + 1} of the ambiguous plan: {said})",
            )
        )
    return found + check_amb_plan(item, world, p, plans)


def check_amb_plan(item: Item, world: World, p: Perturbation, plans: AnswerPlans) -> list[tuple[str, str]]:
    """The ambiguous plan is set in the changed kitchen: before the end of ambiguity it says the steps every
    answer's plan shares, and from there on it is the plan under the item's answer with the target named by
    its noun (every step of it, so the plan carries out the answer: "Pick up the pot." is no step when the
    answer's pot is in a closed cupboard); that plan runs there and does not find the task done already;
    for absence when the answer declines, it ends by telling the user."""
    assert world.target is not None
    noun = parse_referent(p.referent).noun or p.referent
    want = ambiguous_steps(p.kind, plans, p.graph, world.target, noun)
    have = item.plan_for_amb_task
    end = plans.end or 0
    if p.kind in ("multiplicity", "reference"):  # the answer's own steps, whatever ambiguous_steps says
        named = {world.target: f"the {noun}"}
        want = [*render_plan(plans.intended[:end], p.graph), *render_plan(plans.intended[end:], p.graph, named)]
    upto = len(want) if p.kind in ("multiplicity", "reference") else min(end + 1, len(want))
    for i in range(max(upto, len(have) if p.kind in ("multiplicity", "reference") else 0)):
        got = have[i] if i < len(have) else ""
        wanted = want[i] if i < len(want) else ""
        if normalise(got) != normalise(wanted):
            return [
                (
                    "world_env_plan",
                    f"plan_for_amb_task[{i}]: {got!r}, but in the changed kitchen step {i + 1} under the answer is "
                    f"{wanted!r} (end_of_ambiguity {end})",
                )
            ]
    if p.kind != "observation":
        ran = simulate(p.graph, plans.intended)
        if not ran.ok:
            return [
                (
                    "world_env_plan",
                    "the plan under the answer does not run in the changed kitchen: "
                    f"step {ran.failed_step}: {ran.message}",
                )
            ]
    done = already_done(p.graph, plans)
    if done is not None:
        return [("world_env_plan", f"under an answer the task is already done: {done}")]
    declined = p.kind == "absence" and bool(plans.intended) and plans.intended[-1].verb == "tell"
    if declined and (not have or normalise(have[-1]) != normalise(want[-1])):
        last = have[-1] if have else ""
        return [
            (
                "world_env_plan",
                f"plan_for_amb_task: the answer declines, so the plan ends by telling the user "
                f"({want[-1]!r}), not {last!r}",
            )
        ]
    return []


def check_environment(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    world = item.world
    p = world.perturbation if world is not None else None
    if world is None or p is None:
        if item.ambiguity_type in KINDS:
            return [("world_env_referent", f"world: a {item.ambiguity_type} item without its perturbed kitchen")]
        return []
    if p.kind != item.ambiguity_type:
        return [("world_env_referent", f"world.perturbation: kind {p.kind!r}, item type {item.ambiguity_type!r}")]
    if world.target is None or world.target not in index(world.graph).by_id:
        return [("world_env_referent", f"world: target {world.target!r} is not a node of the clear kitchen")]
    return (
        check_counts(item, world, p)
        + check_difference(world, p)
        + check_question_answer(item, world, p)
        + check_end(item, world)
    )


RULES = family_rules(
    check_environment,
    ("world_env_referent", "error", "the referent is one node in the clear kitchen, the kind's count perturbed"),
    ("world_env_difference", "error", "the two kitchens differ by exactly the declared perturbation"),
    ("world_env_answer", "error", "the question tells the candidates apart; the answer picks one"),
    ("world_env_end_of_ambiguity", "error", "end_of_ambiguity is where the answers' plans in the changed kitchen part"),
    ("world_env_plan", "error", "the ambiguous plan runs in the changed kitchen up to the step that needs the answer"),
)
