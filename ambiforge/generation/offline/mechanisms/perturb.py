"""perturb: the instruction stays, the kitchen changes (SG-CoT's environment-induced ambiguity).

The task names its object by its noun ("Bring me the mug."), which picks exactly one node of the clear
kitchen's graph; a perturbed copy of that kitchen (:mod:`ambiforge.world.perturb`) makes the same words
ambiguous: a second mug that differs in an attribute or a place (``multiplicity``), no mug at all
(``absence``, the answer says what to use instead), a second mug where the reference "the mug left of the
kettle" points (``reference``), or the one mug only on the other robot's side of a kitchen two robots
share (``observation``: ask the other robot, which passes it over the shared counter).

The mechanism builds the item's world itself (the graph is seeded from the pair's random stream): the
clear plan as actions on the clear graph, checked in the simulator, and the perturbation. The template's
``plan`` is a short list of action steps on the target (as in every template): ``{fetch: t}`` (open, take
out, close, or pick up, wherever the graph keeps it), ``{hand_over: t}``, ``{place: t, target: <place id>}``,
``{put_in: t, target: <place id>}``; the plan's text
is rendered from the actions. The ambiguous plan is that text with the target named by its noun from the
first step that needs to know which node it is (the end of ambiguity); for ``observation`` that step is
asking the other robot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Literal

from pydantic import Field, field_validator

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.catalog.world import cached_world
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements
from ambiforge.generation.offline.rendering import Candidate
from ambiforge.generation.offline.spec import TemplateSpec, check_format
from ambiforge.generation.offline.steps import StepSpec
from ambiforge.models import Perturbation, World
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import Expression, RelationConstraint, build_graph, render_plan, resolve, simulate
from ambiforge.world.index import index
from ambiforge.world.perturb import (
    RELATION_WORDS,
    SHARED_PLACE,
    agent_views,
    fetch,
    first_use,
    fresh_id,
    place_of,
    referent_words,
    side_of,
    where,
    with_node,
    without,
)
from ambiforge.world.sampler import node_id, object_node

Kind = Literal["multiplicity", "absence", "reference", "observation"]
SLOTS = {"noun", "nouns", "referent", "options", "choice", "where"}
STEPS = ("fetch", "hand_over", "place", "put_in")


class PerturbSpec(TemplateSpec):
    mechanism: Literal["perturb"] = "perturb"
    kind: Kind = Field(description="how the kitchen is perturbed (the ambiguity type's own)")
    questions: tuple[str, ...] = Field(
        min_length=1, description="question forms; slots {noun} {nouns} {referent} {options} {choice} {where}"
    )
    answers: tuple[str, ...] = Field(min_length=1, description="answer forms; the same slots")

    @field_validator("questions", "answers")
    @classmethod
    def _forms(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for i, form in enumerate(value):
            check_format(form, SLOTS, f"[{i}]")
        return value

    @field_validator("plan")
    @classmethod
    def _steps(cls, value: tuple[StepSpec, ...]) -> tuple[StepSpec, ...]:
        verbs = [step.verb for step in value]
        if not verbs or verbs[0] != "fetch" or "fetch" in verbs[1:]:
            raise ValueError("starts with {fetch: t} (once): the target is fetched, then used")
        for i, step in enumerate(value):
            if step.verb not in STEPS or step.obj != "t" or (step.verb in ("place", "put_in")) != bool(step.target):
                raise ValueError(
                    f"[{i}]: not a step on the target ({{fetch: t}}, {{hand_over: t}}, "
                    "{place: t, target: <place>}, {put_in: t, target: <place>})"
                )
        return value


@dataclass(frozen=True)
class Made:
    """What a kind adds to the clear kitchen: the perturbation and the words of its question and answer."""

    perturbation: Perturbation
    options: str
    choice: str
    intent: list[str]
    where: str = ""


def clear_plan(spec: PerturbSpec, graph: SceneGraph, target: str) -> list[Action]:
    plan: list[Action] = []
    for step in spec.plan:
        if step.verb == "fetch":
            plan += fetch(graph, target)
        else:
            plan.append(Action(verb=step.verb, obj=target, target=step.target, person=step.person))  # type: ignore[arg-type]
    return plan


def _other_members(group: Group, scene: Scene, target: CatalogObject) -> list[CatalogObject]:
    """Members of the group the scene lacks whose distinguishing word differs from the target's."""
    held = {o.name for o in scene.objects}
    return [o for o in group.objects if o.name not in held and o.modifier.lower() != target.modifier.lower()]


def _new_node(graph: SceneGraph, obj: CatalogObject) -> Node:
    oid = fresh_id(graph, node_id(obj.name))
    return object_node(obj, oid, cached_world())


def _elsewhere(obj: CatalogObject, not_in: str | None, rng: random.Random) -> str:
    """A place the catalog keeps ``obj`` in, other than ``not_in`` when there is one."""
    places = [p for p in cached_world().candidates(obj) if p != not_in] or [
        p for p in ("counter", "kitchen_table") if p != not_in
    ]
    return rng.choice(places)


def _options(names: list[str], rng: random.Random) -> str:
    """'the glass mug or the ceramic mug', in an order drawn by ``rng`` (the answer is not always first)."""
    order = list(names)
    rng.shuffle(order)
    return phrases.join_or(order)


def multiplicity(
    graph: SceneGraph, t: Node, obj: CatalogObject, group: Group, scene: Scene, rng: random.Random
) -> Made | None:
    """A second node the noun fits: another member of the group (differs in its distinguishing word), or
    (three times in ten, and whenever the catalog has no other member) the same object kept elsewhere
    (differs in its place; then the clear plan must name the target's place, or the pair is not made)."""
    others = _other_members(group, scene, obj)
    here = place_of(graph, t.id)
    if others and rng.random() < 0.7:
        dup_obj = rng.choice(others)
        dup = _new_node(graph, dup_obj)
        perturbed = with_node(graph, dup, _elsewhere(dup_obj, None, rng))
        options = _options([t.name, dup.name], rng)
        return Made(
            _perturbation("multiplicity", perturbed, added=[dup.id], referent=t.noun),
            options,
            t.name,
            [t.modifier or t.name],
        )
    dup = _new_node(graph, obj)
    perturbed = with_node(graph, dup, _elsewhere(obj, here, rng))
    mine, theirs = where(graph, t.id), where(perturbed, dup.id)
    if here is None or index(graph).by_id[here].name not in " ".join(render_plan(fetch(graph, t.id), graph)):
        return None  # the place tells them apart, so the clear plan must name it
    options = (
        f"the {t.name} {mine} or the one {theirs}"
        if rng.random() < 0.5
        else (f"the {t.name} {theirs} or the one {mine}")
    )
    return Made(
        _perturbation("multiplicity", perturbed, added=[dup.id], referent=t.noun),
        options,
        f"{t.name} {mine}",
        [index(graph).by_id[here].name],
        where=mine,
    )


def absence(
    graph: SceneGraph, t: Node, obj: CatalogObject, group: Group, scene: Scene, rng: random.Random
) -> Made | None:
    """The target is gone; objects of the kitchen of the same sort (the group's first tag: another kind of
    drinkware for a mug) are what the answer says to use instead."""
    tags = set(t.tags[:1])  # the group's first tag says what it is (drinkware, fruit); later ones what it affords
    subs = [
        n
        for n in graph.nodes
        if n.type == "object"
        and n.id != t.id
        and n.noun != t.noun
        and tags & set(n.tags)
        and n.kind == t.kind
        and n.plural == t.plural
        and n.state.clean is not False  # nobody offers the dirty pan instead
        and t.noun.lower() not in n.name.lower()  # "no glass here: the glass cup?" reads as a contradiction
    ]
    if not subs:
        return None
    offered = rng.sample(subs, min(2, len(subs)))
    choice = rng.choice(offered)
    options = _options([n.name for n in offered], rng)
    return Made(
        _perturbation("absence", without(graph, t.id), removed=[t.id], referent=t.noun),
        options,
        choice.name,
        [f"{t.name}|{choice.name}"],  # the clear kitchen's object, or what the answer puts in its place
        where=where(graph, choice.id),
    )


def reference(
    graph: SceneGraph, t: Node, obj: CatalogObject, group: Group, scene: Scene, rng: random.Random
) -> Made | None:
    """ "The mug left of the kettle" picks the target in the clear kitchen; another member of the group set
    down beside it (so it stands in the same relations) makes the reference fit two."""
    ix = index(graph)
    relations = [e for e in graph.edges if e.source == t.id and e.relation in RELATION_WORDS]
    rng.shuffle(relations)
    others = _other_members(group, scene, obj)
    here = place_of(graph, t.id)
    if not others or here is None:
        return None
    for edge in relations:
        anchor = ix.by_id[edge.target]
        expr = Expression(
            noun=t.noun, relations=(RelationConstraint(relation=edge.relation, target=Expression(name=anchor.id)),)
        )
        if [n.id for n in resolve(graph, expr)] != [t.id] or len(resolve(graph, anchor.name)) != 1:
            continue
        dup_obj = rng.choice(others)
        dup = _new_node(graph, dup_obj)
        perturbed = with_node(graph, dup, here, beside=t.id)
        if sorted(n.id for n in resolve(perturbed, expr)) != sorted([t.id, dup.id]):
            continue
        options = _options([t.name, dup.name], rng)
        words = referent_words(t.noun, edge.relation, anchor.name)
        return Made(
            _perturbation("reference", perturbed, added=[dup.id], referent=words),
            options,
            t.name,
            [t.modifier or t.name],
        )
    return None


def observation(
    graph: SceneGraph, t: Node, obj: CatalogObject, group: Group, scene: Scene, rng: random.Random
) -> Made | None:
    """Two robots share the kitchen: each sees its own side and the counter. The target is on the other
    robot's side only, so the kitchen is the same and what the asking robot sees is not."""
    here = place_of(graph, t.id)
    side = side_of(here) if here is not None else None
    if side is None:
        return None
    views = agent_views(graph, side)
    perturbation = Perturbation(kind="observation", graph=graph, referent=t.noun, views=views)
    return Made(perturbation, "", t.name, [t.name], where=where(graph, t.id))


def _perturbation(
    kind: Kind, graph: SceneGraph, *, referent: str, added: list[str] | None = None, removed: list[str] | None = None
) -> Perturbation:
    return Perturbation(kind=kind, graph=graph, added=added or [], removed=removed or [], referent=referent)


KINDS: dict[str, Callable[..., Made | None]] = {
    "multiplicity": multiplicity,
    "absence": absence,
    "reference": reference,
    "observation": observation,
}


def _named(graph: SceneGraph, node_id: str, name: str) -> SceneGraph:
    """The graph with one node renamed (how the ambiguous plan names the target: by its noun)."""
    nodes = tuple(n.model_copy(update={"name": name}) if n.id == node_id else n for n in graph.nodes)
    return graph.model_copy(update={"nodes": nodes})


def ambiguous_plan(kind: str, graph: SceneGraph, plan: list[Action], t: Node, eoa: int, question: str) -> list[str]:
    """The clear plan's text up to the end of ambiguity (where it starts to fetch the target), then "Pick up
    the mug." for the fetching steps (which mug, and from where, is what the answer says) and the rest with
    the target named by its noun; for observation the robot first asks the other robot to pass it over the
    shared counter."""
    clear = render_plan(plan, graph)
    fetched = len(fetch(graph, t.id))
    rest = render_plan(plan[eoa + fetched :], _named(graph, t.id, t.noun))
    if kind == "observation":
        return [
            *clear[:eoa],
            f"Ask the other robot: {question}",
            f"Pick up the {t.noun} from the {SHARED_PLACE}.",
            *rest,
        ]
    return [*clear[:eoa], f"Pick up the {t.noun}.", *rest]


def build(spec: PerturbSpec, group: Group, obj: CatalogObject, sampled: Scene, rng: random.Random) -> Draft | None:
    # The clear kitchen keeps one object of the target's kind: its noun must pick exactly one node.
    scene = Scene(tuple(o for o in sampled.objects if o.group != obj.group or o.name == obj.name))
    graph = build_graph(scene, rng.getrandbits(63))
    t = index(graph).find(obj.name)
    if t is None or t.name.lower() == t.noun.lower() or [n.id for n in resolve(graph, t.noun)] != [t.id]:
        return None
    if any(e.relation == "inside" and e.target == t.id for e in graph.edges):
        return None
    made = KINDS[spec.kind](graph, t, obj, group, scene, rng)
    if made is None:
        return None
    plan = clear_plan(spec, graph, t.id)
    if any(a.target == place_of(graph, t.id) for a in plan if a.verb in ("place", "put_in")):
        return None  # "put the mug on the table" when it is there already
    if not simulate(graph, plan).ok:
        return None
    views = made.perturbation.views
    if views and any(a.target not in views[0].nodes for a in plan if a.verb in ("place", "put_in")):
        return None  # the asking robot takes the object where it cannot see (the sink on the other side)
    eoa = first_use(plan, t.id, place_of(graph, t.id))
    assert eoa is not None
    opened = plan[eoa].obj if plan[eoa].verb == "open" else None
    if opened is not None:  # the plan needs the target from the moment it opens the place that keeps it
        name = index(graph).by_id[opened].name
        intent = [f"{c}|{name}" if name not in c.split("|") else c for c in made.intent]
    else:
        intent = made.intent
    referent = made.perturbation.referent
    slots = {
        "noun": t.noun,
        "nouns": phrases.plural(t.noun),
        "referent": referent,
        "options": made.options,
        "choice": made.choice,
        "where": made.where,
    }
    i = rng.randrange(len(spec.direct))
    task = spec.direct[i].format(t=f"the {referent}")
    indirect = phrases.pick(rng, spec.indirect).format(t=f"the {referent}", ti=f"the {referent}")
    question = phrases.pick(rng, spec.questions).format(**slots)
    answer = phrases.pick(rng, spec.answers).format(**slots)
    world = World(graph=graph, target=t.id, clear_plan=plan, perturbation=made.perturbation)
    return Draft(
        template=spec.id,
        unambiguous_direct=task,
        unambiguous_indirect=indirect,
        ambiguous_task=task,
        question=question,
        answer=answer,
        plan_for_clear_task=render_plan(plan, graph),
        plan_for_amb_task=ambiguous_plan(spec.kind, graph, plan, t, eoa, question),
        user_intent=intent,
        variants=[],
        target=t.name,
        end_of_ambiguity=eoa,
        world=world,
        scene=scene,
    )


def candidates(spec: PerturbSpec, scene: Scene, catalog: Catalog, graph: SceneGraph) -> list[Candidate]:
    """One candidate per object the template's target condition takes (the clear kitchen then drops the other
    members of its group). ``graph`` (the sampled scene's) goes unused: the draft builds the graph of its
    narrowed clear kitchen and the perturbed copy itself."""
    out: list[Candidate] = []
    for gkey in scene.groups():
        for obj in scene.in_group(gkey):
            if spec.target.matches(obj):
                out.append(Candidate(spec.id, partial(build, spec, catalog.groups[gkey], obj, scene)))
    return out


MECHANISM = Mechanism(
    "perturb",
    PerturbSpec,
    candidates,
    default_requirements,
    "the instruction stays, a perturbed copy of the kitchen makes it ambiguous",
    order=5,
)
