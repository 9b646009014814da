"""world: the item's claims checked against its scene graph, not its words (``docs/world-model.md``).

Text rules guess what "a peeler" means from the words; these rules ask the world. The clear referent
must pick out exactly its node; the ambiguous referent the candidates; the variants must be every
candidate that affords the job (``catalog/affordances.yaml``), so "peel with a peeler" cannot list one
peeler while the Y-peeler also peels; the clear plan and the plan under every other answer must execute in
the simulator, and the end of ambiguity is where those plans part. Every message names its evidence: the
nodes and where they are, the failing step.

An item without a world (made before the world model) is left to the text rules. A graph whose relations
are unknown (an imported AmbiK row: objects only, its candidates read from the row's own lists) skips every
world rule, and an item whose plan is not known as actions skips the plan rules; the report's ``world``
section counts the skips with their reason; nothing guesses a relation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambiforge.models import Item, World
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.validation.rules.base import family_rules
from ambiforge.world import Expression, can, end_of_ambiguity, resolve, simulate
from ambiforge.world.index import index
from ambiforge.world.integrity import graphs_problem

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

ORDER = 75  # after the text rules (variants is 70), before hygiene

_ARGS = ("obj", "target", "tool")


def located(graph: SceneGraph, node: Node) -> str:
    """'glass mug (shelf)': a node with its place, the evidence a person checks in the graph."""
    edge = index(graph).location.get(node.id)
    if edge is None:
        return node.name
    where = index(graph).by_id.get(edge.target)
    return f"{node.name} ({where.name if where is not None else edge.target})"


def _names(graph: SceneGraph, ids: list[str]) -> list[str]:
    by_id = index(graph).by_id
    return [by_id[i].name for i in ids if i in by_id]


def _listed(values: list[str]) -> set[str]:
    return {v.strip().lower() for v in values if v.strip() and not v.strip().startswith("-")}


def substituted(plan: list[Action], target: str, other: str) -> list[Action]:
    """The plan under another answer: every argument naming ``target`` names ``other`` instead."""
    out: list[Action] = []
    for action in plan:
        changes = {f: other for f in _ARGS if getattr(action, f) == target}
        out.append(action.model_copy(update=changes) if changes else action)
    return out


def answer_plans(world: World, among: list[str]) -> dict[str, list[Action]]:
    """The plan under each answer in ``among`` other than the intended one."""
    assert world.target is not None
    return {c: substituted(world.clear_plan, world.target, c) for c in among if c != world.target}


def _outside_environment(item: Item) -> set[str]:
    """Shortlisted names that are not among the environment's objects: the ``shortlist`` rule reports those
    (one defect, one check); the world rules report the graph disagreeing with the rest."""
    held = {o.name.lower() for o in item.environment}
    return {v for v in _listed(item.amb_shortlist) if v not in held}


def check_references(item: Item, world: World) -> list[tuple[str, str]]:
    """Every node id the world names exists; every name the item lists is a node of the graph."""
    found: list[tuple[str, str]] = []
    graph, by_id = world.graph, index(world.graph).by_id
    ids = [world.target] if world.target else []
    ids += world.candidates + world.fitting
    ids += [getattr(a, f) for a in world.clear_plan for f in _ARGS if getattr(a, f) is not None]
    missing_ids = sorted({i for i in ids if i not in by_id})
    if missing_ids:
        found.append(("world_names", f"world: names node(s) {', '.join(missing_ids)} the graph does not hold"))
    held = {n.name.lower() for n in graph.nodes}
    for field, values in (("variants", item.variants), ("amb_shortlist", item.amb_shortlist)):
        if not world.candidates and not world.fitting:
            break
        told = _outside_environment(item) if field == "amb_shortlist" else set()
        absent = sorted(v for v in _listed(values) if v not in held | told and not resolve(graph, v))
        if absent:
            found.append(("world_names", f"{field}: {', '.join(map(repr, absent))} not in the kitchen's graph"))
    return found


def check_referents(item: Item, world: World) -> list[tuple[str, str]]:
    """The clear referent resolves to exactly its node; the ambiguous one to the candidates."""
    found: list[tuple[str, str]] = []
    graph = world.graph
    target = index(graph).by_id.get(world.target) if world.target else None
    if target is None:
        return found
    same = resolve(graph, target.name)
    if len(same) != 1:
        found.append(
            (
                "world_referent",
                f"clear task: {target.name!r} matches {len(same)} nodes: " + ", ".join(located(graph, n) for n in same),
            )
        )
    if world.candidates:
        if world.target not in world.candidates:
            found.append(("world_referent", f"world: the target {target.name!r} is not among the candidates"))
        # "a bowl" picks out the mixing bowl too: the referent's head noun, as the generator resolves it
        head = target.noun.split()[-1]
        noun_ids = {n.id for n in resolve(graph, target.noun)} | {
            n.id for n in resolve(graph, Expression(noun=head, type=target.type))
        }
        strays = [c for c in world.candidates if c not in noun_ids]
        if strays:
            found.append(
                (
                    "world_referent",
                    f"ambiguous task: candidate(s) {', '.join(_names(graph, strays))} are not "
                    f"{target.noun!r} in the graph",
                )
            )
        if item.amb_shortlist and len(world.candidates) < 2:
            found.append(("world_referent", f"ambiguous task: {target.noun!r} fits only {located(graph, target)}"))
    return found


def check_variants(item: Item, world: World) -> list[tuple[str, str]]:
    """Variants are every candidate that affords the job; a shortlist is the candidates."""
    found: list[tuple[str, str]] = []
    graph, by_id = world.graph, index(world.graph).by_id
    target = by_id.get(world.target) if world.target else None
    if world.affordance and target is not None:
        # the candidates the ambiguous referent fits (all of a kind, across groups), else the target's noun
        pool = [by_id[c] for c in world.candidates if c in by_id] or [
            n for n in resolve(graph, target.noun) if n.type == target.type
        ]
        able = [n.id for n in pool if can(graph, n, world.affordance)]
        listed = _listed(item.variants)
        left_out = [by_id[i] for i in able if by_id[i].name.lower() not in listed]
        if left_out:
            found.append(
                (
                    "world_variants",
                    "variants: leave out "
                    + ", ".join(located(graph, n) for n in left_out)
                    + f", which can {world.affordance} too ({', '.join(_names(graph, able))} can)",
                )
            )
        cannot = [by_id[i] for i in world.fitting if i in by_id and i not in able]
        unable = [n for n in pool if n.name.lower() in listed and n.id not in able]
        for node in {n.id: n for n in cannot + unable}.values():
            found.append(("world_variants", f"variants: {located(graph, node)} cannot {world.affordance}"))
    if item.amb_shortlist and world.candidates:
        listed = _listed(item.amb_shortlist)
        names = {n.lower() for n in _names(graph, world.candidates)}
        if listed - _outside_environment(item) != names:
            extra, missing = sorted(listed - names - _outside_environment(item)), sorted(names - listed)
            parts = ([f"lists {', '.join(map(repr, extra))} the graph does not offer"] if extra else []) + (
                [f"leaves out {', '.join(map(repr, missing))}"] if missing else []
            )
            found.append(("world_variants", f"amb_shortlist: {'; '.join(parts)} (the candidates in the graph)"))
    return found


def check_plans(item: Item, world: World) -> list[tuple[str, str]]:
    """The clear plan and the plan under every other answer execute; the ambiguity ends where they part."""
    found: list[tuple[str, str]] = []
    result = simulate(world.graph, world.clear_plan)
    if not result.ok:
        found.append(("world_plan", f"plan_for_clear_task: {result.message}"))
        return found
    if world.target is None:
        return found
    # Every correct answer's plan must execute (a candidate that cannot do the job may well fail: that is
    # why it is not a variant); the ambiguity ends where any candidate's plan parts from the clear one.
    for other, plan in answer_plans(world, world.fitting or world.candidates).items():
        run = simulate(world.graph, plan)
        if not run.ok:
            name = _names(world.graph, [other])
            found.append(("world_plan", f"plan with {name[0] if name else other}: {run.message}"))
    plans = answer_plans(world, world.candidates or world.fitting)
    if plans:
        parted = end_of_ambiguity(world.clear_plan, plans)
        if parted is not None and parted != item.end_of_ambiguity:
            steps = item.plan_for_clear_task
            said = steps[parted] if parted < len(steps) else "(past the plan's end)"
            found.append(
                (
                    "world_end_of_ambiguity",
                    f"end_of_ambiguity: {item.end_of_ambiguity}, but the plans part at step {parted} "
                    f"(step {parted + 1}: {said})",
                )
            )
    return found


def skip_reason(world: World | None, need: str) -> str | None:
    """Why the world rules (``need`` 'all') or the plan rules ('plan') do not run on this world, or None."""
    if world is None:
        return "no world model"
    if not world.graph.relations_known:
        return "relations unknown (objects only, e.g. imported)"
    if need == "plan" and not world.clear_plan:
        return "plan not known as actions"
    return None


def check_world(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    world = item.world
    if world is not None and (problem := graphs_problem(world)) is not None:
        # the check every reader of items makes (release, verify, eval, import; the claims' nodes are
        # world_names here): the other world rules would reason on a kitchen that is not one
        return [("world_graph", problem)]
    if world is None or not world.graph.relations_known:
        # A nodes-only world (an imported row) is read from the row's own lists: checking the row against it
        # would restate the text rules (grounding, shortlist) as world findings. The report counts the skip.
        return []
    found = check_references(item, world) + check_referents(item, world) + check_variants(item, world)
    if skip_reason(world, "plan") is None and not any(rid == "world_names" for rid, _ in found):
        found += check_plans(item, world)
    return found


RULES = family_rules(
    check_world,
    (
        "world_graph",
        "error",
        "both kitchens are graphs: known ids, edges to known nodes, one place each, no containment cycle",
    ),
    ("world_names", "error", "every node and name the item's world lists is in its scene graph"),
    ("world_referent", "error", "the clear referent is one node; the ambiguous one the candidates"),
    ("world_variants", "error", "variants are every candidate that affords the job; shortlist = candidates"),
    ("world_plan", "error", "the clear plan and every other answer's plan execute in the simulator"),
    ("world_end_of_ambiguity", "error", "end_of_ambiguity is where the answers' plans part"),
)
