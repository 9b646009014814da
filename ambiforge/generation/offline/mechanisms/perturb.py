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
``{put_in: t, target: <place id>}``, ``{put: t, target: "{dest}"}`` (a place of the kitchen the mechanism
chooses for the object, :func:`destinations`, said by ``{dest}``); the plan's text is rendered from the
actions. The plans under the answers are set in the changed kitchen (:func:`ambiforge.world.perturb.
answer_plans`); the end of ambiguity is where they part, and the ambiguous plan is the item's own plan there
with the target named by its noun from that step on (:func:`ambiforge.world.perturb.ambiguous_steps`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Literal

from pydantic import Field, field_validator

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.world import cached_world
from ambiforge.environment import Scene, with_article
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements, holding_bits
from ambiforge.generation.offline.rendering import Candidate
from ambiforge.generation.offline.spec import TemplateSpec, check_format
from ambiforge.generation.offline.steps import StepSpec
from ambiforge.models import Perturbation, World
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.textnorm import signature
from ambiforge.world import Expression, RelationConstraint, build_graph, can, render_plan, resolve, simulate
from ambiforge.world.index import index
from ambiforge.world.perturb import (
    RELATION_WORDS,
    SHARED_PLACE,
    AnswerPlans,
    agent_views,
    already_done,
    ambiguous_steps,
    answer_plans,
    fetch,
    fresh_id,
    kind_of,
    move,
    place_of,
    referent_words,
    report,
    rivals,
    side_of,
    telling,
    where,
    with_node,
    without,
)
from ambiforge.world.sampler import node_id, object_node

Kind = Literal["multiplicity", "absence", "reference", "observation"]
SLOTS = {"noun", "nouns", "referent", "options", "choice", "where", "fits", "it", "one", "is", "Is"}
STEPS = ("fetch", "hand_over", "place", "put_in", "put")
#: A ``put`` step's target that the mechanism chooses: one of the kitchen's places the target may go to
#: (:func:`destinations`); a template says it as ``{dest}`` ("Put {t} {dest}." -> "in the upper cupboard").
DEST = "{dest}"
#: Surfaces anything may be put down on, besides the places the catalog keeps the object in.
SURFACES = ("counter", "kitchen_table", "shelf_1", "shelf_2")
#: The kinds of place a ``{dest}`` template may name (its ``places``): where the catalog keeps such objects
#: (``kept``), the surfaces, the appliances (the sink for dishware, and those the catalog says it is safe in).
PLACE_KINDS = ("kept", "surfaces", "appliances")
#: What goes in the sink to be washed.
DISHWARE = frozenset(
    {"drinkware", "tableware", "cutlery", "utensil", "cookware", "container", "bakeware", "teaware", "drink_server"}
)


class PerturbSpec(TemplateSpec):
    mechanism: Literal["perturb"] = "perturb"
    kind: Kind = Field(description="how the kitchen is perturbed (the ambiguity type's own)")
    questions: tuple[str, ...] = Field(
        min_length=1,
        description="question forms; slots {noun} {nouns} {referent} {options} {choice} {where} {it} {is} {Is}",
    )
    answers: tuple[str, ...] = Field(min_length=1, description="answer forms; the same slots")
    asks_instead: tuple[str, ...] = Field(
        default=(), description="absence: question forms when nothing in the kitchen does the missing object's job"
    )
    declines: tuple[str, ...] = Field(
        default=(), description="absence: answer forms that decline (the plan then ends by telling the user)"
    )
    places: tuple[Literal["kept", "surfaces", "appliances"], ...] = Field(
        default=PLACE_KINDS, description="a {dest} template: the kinds of place it may name (destinations)"
    )

    @field_validator("questions", "answers", "asks_instead", "declines")
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
            if (
                step.verb not in STEPS
                or step.obj != "t"
                or (step.verb in ("place", "put_in", "put")) != bool(step.target)
            ):
                raise ValueError(
                    f"[{i}]: not a step on the target ({{fetch: t}}, {{hand_over: t}}, "
                    "{place: t, target: <place>}, {put_in: t, target: <place>}, {put: t, target: <place or {dest}>})"
                )
        return value

    def extra_slots(self) -> set[str]:
        return {"dest", "it"}  # it: "it" or "them", as the target's number says

    @property
    def has_destination(self) -> bool:
        """Whether the template puts the target somewhere the mechanism chooses (``{put: t, target: {dest}}``)."""
        return any(step.target == DEST for step in self.plan)


@dataclass(frozen=True)
class Made:
    """What a kind adds to the clear kitchen: the perturbation, the other candidates (node ids of the
    perturbed kitchen whose plans the answer chooses between), and the words of its question and answer."""

    perturbation: Perturbation
    options: str
    choice: str
    others: tuple[str, ...] = ()
    where: str = ""
    fits: str = ""
    #: absence: the answer refuses what is offered (or nothing is offered), so the plan ends by reporting
    refused: bool = False
    #: absence: the objects offered instead (node ids)
    offered: tuple[str, ...] = ()


#: Affordances that say what an object is *for* (a job): an absence substitute must share one with the
#: missing object. The rest (microwave, oven, dishwasher safe; fit for a child) say how it may be handled.
JOBS = frozenset(
    {
        "peel", "grate", "spread", "slice", "chop", "boil", "stir", "whisk", "flip", "ladle", "strain", "cut_surface",
        "hold_hot_liquid", "hold_cold_drink", "protect_hand", "wipe", "toast", "blend", "squeeze", "brew",
        "cook", "air_fry",
    }
)  # fmt: skip


def jobs(graph: SceneGraph, node: Node) -> frozenset[str]:
    """The jobs (:data:`JOBS`) the affordance table says ``node`` can do in ``graph``."""
    return frozenset(job for job in JOBS if can(graph, node, job))


@lru_cache(maxsize=4096)
def catalog_jobs(obj: CatalogObject) -> frozenset[str]:
    """The jobs (:data:`JOBS`) the affordance table says a catalog object can do."""
    table = cached_affordances()
    return frozenset(job for job in JOBS if job in table.actions and table.get(job).allows(obj))


def same_sort(a: CatalogObject, b: CatalogObject) -> bool:
    """Whether ``b`` could be offered in place of ``a``: the same sort of thing (first tag), in the same
    number, clean, called by another noun ("no glass here: the glass cup?" reads as a contradiction)."""
    return (
        b.name != a.name
        and b.noun != a.noun
        and b.tags[:1] == a.tags[:1]
        and b.plural == a.plural
        and b.clean is not False
        and a.noun.lower() not in b.name.lower()
    )


def stand_ins(catalog: Catalog, obj: CatalogObject) -> tuple[CatalogObject, ...]:
    """The catalog's objects a robot may offer for a missing ``obj``: of its sort (:func:`same_sort`) and
    doing one of its jobs by the affordance table (a glass for a mug; never a plate for a bowl, which
    holds no soup). Nothing for an object without a job: whether something else would do is then not
    the catalog's to say."""
    needed = catalog_jobs(obj)
    if not needed:
        return ()
    return tuple(
        o for o in catalog.objects.values() if o.group != obj.group and same_sort(obj, o) and needed & catalog_jobs(o)
    )


def with_stand_in(scene: Scene, doers: tuple[CatalogObject, ...], rng: random.Random) -> Scene:
    """The sampled kitchen with (two times in three) something that does the missing object's job, when
    it has none: a kitchen seldom holds one by chance, and without one the robot can only ask."""
    if not doers or any(o in scene.objects for o in doers) or rng.random() >= 2 / 3:
        return scene
    return Scene((*scene.objects, rng.choice(doers)))


def destinations(obj: CatalogObject, kinds: tuple[str, ...] = PLACE_KINDS) -> tuple[str, ...]:
    """Where a template may tell the robot to put ``obj``, by the kinds of place it names: the places the
    catalog keeps such objects in (``kept``), the surfaces anything goes on, the appliances (the sink for
    dishware; the microwave and the oven when the catalog says it is safe in them). Not the dishwasher: it
    takes used things at hand, and the object a perturbed kitchen asks about is a clean one where it is kept."""
    found: list[str] = []
    if "kept" in kinds:  # put away: where such objects are stored, not the worktops
        found += [p for p in cached_world().candidates(obj) if p not in ("counter", "kitchen_table")]
    if "surfaces" in kinds:
        found += SURFACES
    if "appliances" in kinds:
        found += [
            place
            for place, fits in (
                ("sink", bool(DISHWARE & set(obj.tags))),
                ("microwave", obj.microwave_safe),
                ("oven", obj.oven_safe),
            )
            if fits
        ]
    return tuple(dict.fromkeys(found))


def dest_words(graph: SceneGraph, place: str) -> str:
    """'in the upper cupboard' / 'on the counter'."""
    node = index(graph).by_id[place]
    return f"{'on' if node.holds == 'on' else 'in'} the {node.name}"


def _put(graph: SceneGraph, target: str, place: str) -> list[Action]:
    """Put what is held at ``place``: on a surface, or into it, opening and closing it when it is closed."""
    holder = index(graph).by_id[place]
    if holder.holds == "on":
        return [Action(verb="place", obj=target, target=place)]
    if holder.state.open is False:
        return [
            Action(verb="open", obj=place),
            Action(verb="put_in", obj=target, target=place),
            Action(verb="close", obj=place),
        ]
    return [Action(verb="put_in", obj=target, target=place)]


def clear_plan(spec: PerturbSpec, graph: SceneGraph, target: str, dest: str | None = None) -> list[Action]:
    plan: list[Action] = []
    for step in spec.plan:
        if step.verb == "fetch":
            plan += fetch(graph, target)
        elif step.verb == "put":
            plan += _put(graph, target, dest if step.target == DEST and dest else str(step.target))
        else:
            plan.append(Action(verb=step.verb, obj=target, target=step.target, person=step.person))  # type: ignore[arg-type]
    return plan


def said_noun(group: Group, node: Node | CatalogObject) -> str:
    """The noun the words call ``node`` by, agreeing with it in number: "the carrots" for the baby carrots,
    whose group says "carrot" of one (a plural or mass group noun fits every member: "the nuts", "the
    coffee")."""
    if node.plural and not (group.noun_plural or group.noun_mass):
        return phrases.plural(node.noun)
    return node.noun


def said_plural(group: Group, node: Node | CatalogObject) -> bool:
    """Whether the noun phrase :func:`said_noun` makes is plural ("the carrots are", "the coffee is"): what
    its pronoun and verb agree with."""
    return group.noun_plural or (not group.noun_mass and node.plural)


def agrees(group: Group, a: CatalogObject, b: CatalogObject) -> bool:
    """Whether one noun phrase fits both ``a`` and ``b``: "the carrot" is the orange carrot, never the baby
    carrots, so a singular group noun fits members of one number only."""
    return said_noun(group, a) == said_noun(group, b)


def _other_members(group: Group, scene: Scene, target: CatalogObject) -> list[CatalogObject]:
    """Members of the group the scene lacks whose distinguishing word differs from the target's and that
    the target's noun fits in the same number."""
    held = {o.name for o in scene.objects}
    mine = target.name.lower()
    return [
        o
        for o in group.objects
        if o.name not in held
        and agrees(group, o, target)
        and o.modifier.lower() != target.modifier.lower()
        and o.name.lower() not in mine
        and mine not in o.name.lower()  # "the ceramic plate" would name the dirty ceramic plate too
    ]


def _new_node(graph: SceneGraph, obj: CatalogObject) -> Node:
    oid = fresh_id(graph, node_id(obj.name))
    return object_node(obj, oid, cached_world())


#: Where the templates take their object: a change never puts a candidate there ("take the mug to the
#: table" when the mug is on the table already).
DESTINATIONS = frozenset({"kitchen_table", "sink"})


def _elsewhere(obj: CatalogObject, not_in: str | None, rng: random.Random, avoid: frozenset[str] = frozenset()) -> str:
    """A place the catalog keeps ``obj`` in, other than ``not_in``, the templates' destinations and
    ``avoid`` (where this task sends the object: a change never does the task)."""
    barred = DESTINATIONS | avoid | {not_in}
    places = [p for p in cached_world().candidates(obj) if p not in barred] or [
        p for p in ("counter", "shelf_1", "shelf_2") if p not in barred
    ]
    return rng.choice(places)


def _options(names: list[str], rng: random.Random) -> str:
    """'the glass mug or the ceramic mug', in an order drawn by ``rng`` (the answer is not always first)."""
    order = list(names)
    rng.shuffle(order)
    return phrases.join_or(order)


def multiplicity(
    graph: SceneGraph,
    t: Node,
    obj: CatalogObject,
    group: Group,
    scene: Scene,
    rng: random.Random,
    avoid: frozenset[str] = frozenset(),
) -> Made | None:
    """A second node the noun fits: another member of the group (differs in its distinguishing word), or
    (three times in ten, and whenever the catalog has no other member) the same object kept elsewhere
    (differs in its place). The added node stands apart: it copies none of the target's relations."""
    others = _other_members(group, scene, obj)
    here = place_of(graph, t.id)
    noun = said_noun(group, t)
    if others and rng.random() < 0.7:
        dup_obj = rng.choice(others)
        dup = _new_node(graph, dup_obj)
        perturbed = with_node(graph, dup, _elsewhere(dup_obj, None, rng, avoid))
        options = _options([t.name, dup.name], rng)
        return Made(_perturbation("multiplicity", perturbed, added=[dup.id], referent=noun), options, t.name, (dup.id,))
    dup = _new_node(graph, obj)
    perturbed = with_node(graph, dup, _elsewhere(obj, here, rng, avoid))
    mine, theirs = where(graph, t.id), where(perturbed, dup.id)
    if here is None:
        return None
    one = "ones" if t.plural else "one"
    options = (
        f"the {t.name} {mine} or the {one} {theirs}"
        if rng.random() < 0.5
        else (f"the {t.name} {theirs} or the {one} {mine}")
    )
    return Made(
        _perturbation("multiplicity", perturbed, added=[dup.id], referent=noun),
        options,
        f"{t.name} {mine}",
        (dup.id,),
        where=mine,
    )


def absence(
    graph: SceneGraph,
    t: Node,
    obj: CatalogObject,
    group: Group,
    scene: Scene,
    rng: random.Random,
    avoid: frozenset[str] = frozenset(),
) -> Made | None:
    """The target is gone. What is offered instead must do one of the target's jobs by the affordance table
    and be the same sort of thing (a glass for a mug: both drinkware that holds a cold drink; never a rolling
    pin for a whisk, nor a mug for a pan, which both hold hot liquid), and the answer takes it, since it does
    the job; with nothing that does, the robot asks what to do and the plan ends by telling the user."""
    needed = jobs(graph, t)
    subs = [
        n
        for n in graph.nodes
        if n.type == "object"
        and n.id != t.id
        and n.noun != t.noun
        and needed & jobs(graph, n)
        and n.tags[:1] == t.tags[:1]  # and is the same sort of thing: a glass for a mug, never a mug for a pan
        and n.plural == t.plural
        and n.state.clean is not False  # nobody offers the dirty pan instead
        and t.noun.lower() not in n.name.lower()  # "no glass here: the glass cup?" reads as a contradiction
    ]
    perturbation = _perturbation("absence", without(graph, t.id), removed=[t.id], referent=said_noun(group, t))
    if not subs:
        return Made(perturbation, "", "", refused=True)
    offered = rng.sample(subs, min(2, len(subs)))
    options = _options([n.name for n in offered], rng)
    ids = tuple(n.id for n in offered)
    choice = rng.choice(offered)
    return Made(perturbation, options, choice.name, ids, where=where(graph, choice.id), offered=ids)


def reference(
    graph: SceneGraph,
    t: Node,
    obj: CatalogObject,
    group: Group,
    scene: Scene,
    rng: random.Random,
    avoid: frozenset[str] = frozenset(),
) -> Made | None:
    """The clear kitchen holds two or more of the kind and "the mug left of the kettle" picks the target
    alone. The change moves one object so that the relation picks none (the target is put away elsewhere)
    or two (another mug is put directly beside the target, on its far side from the kettle)."""
    ix = index(graph)
    noun = said_noun(group, t)
    kind = [n for n in resolve(graph, t.noun)]
    if len(kind) < 2 or t.id not in {n.id for n in kind}:
        return None
    relations = [e for e in graph.edges if e.source == t.id and e.relation in ("left_of", "right_of", "next_to")]
    rng.shuffle(relations)
    here = place_of(graph, t.id)
    if here is None or ix.by_id[here].holds != "on":
        return None  # only on a surface does a reader see what stands left of what
    fronted = {e.target for e in graph.edges if e.relation == "behind"}
    for edge in relations:
        anchor = ix.by_id[edge.target]
        if anchor.type != "object" or anchor.noun == t.noun or kind_of(anchor.name, t.noun):
            continue  # "the bowl left of the ceramic mixing bowl": the anchor would be a bowl too
        expr = Expression(
            noun=noun, relations=(RelationConstraint(relation=edge.relation, target=Expression(name=anchor.id)),)
        )
        if [n.id for n in resolve(graph, expr)] != [t.id] or len(resolve(graph, anchor.name)) != 1:
            continue
        words = referent_words(noun, edge.relation, anchor.name)
        said = f"{RELATION_WORDS[edge.relation]} the {anchor.name}"
        others = [n for n in kind if n.id != t.id]
        # Only a node with nothing standing behind it is taken away: the rows of its place stay as they were
        # (the one behind would otherwise come to the front, and a reader would see it where the target was).
        free = [n for n in others if n.id not in fronted]
        two = edge.relation in ("left_of", "right_of") and bool(free) and rng.random() < 0.5
        if not two and t.id in fronted:
            continue
        neighbours = {e.target for e in graph.edges if e.source == t.id and e.relation == "next_to"}
        if not two and edge.relation == "next_to" and neighbours & {n.id for n in others}:
            continue  # with the target gone, its neighbour of the kind would read as next to the anchor
        if two:
            o = rng.choice(free)
            perturbed = move(graph, o.id, here, beside=t.id, side=edge.relation)
            if sorted(n.id for n in resolve(perturbed, expr)) != sorted([t.id, o.id]):
                continue
            options = _options([t.name, o.name], rng)
            fits = (
                f"Two {phrases.plural(noun)} are {said}"
                if not (t.mass or t.plural)
                else f"Two kinds of {noun} are {said}"
            )
            made = _perturbation("reference", perturbed, moved=[o.id], referent=words)
            return Made(made, options, t.name, (o.id,), fits=fits)
        perturbed = move(graph, t.id, _elsewhere(obj, here, rng, avoid))
        if resolve(perturbed, expr):
            continue
        named = [f"{n.name} {where(perturbed, n.id)}" for n in [t, *others]]
        order = list(named)
        rng.shuffle(order)
        fits = f"No {noun} {'are' if said_plural(group, t) else 'is'} {said} now"
        made = _perturbation("reference", perturbed, moved=[t.id], referent=words)
        return Made(made, phrases.join_or(order), t.name, tuple(n.id for n in others), fits=fits)
    return None


def observation(
    graph: SceneGraph,
    t: Node,
    obj: CatalogObject,
    group: Group,
    scene: Scene,
    rng: random.Random,
    avoid: frozenset[str] = frozenset(),
) -> Made | None:
    """Two robots share the kitchen: each sees its own side and the counter. The target is on the other
    robot's side only, so the kitchen is the same and what the asking robot sees is not."""
    here = place_of(graph, t.id)
    side = side_of(here) if here is not None else None
    if side is None:
        return None
    views = agent_views(graph, side)
    perturbation = Perturbation(kind="observation", graph=graph, referent=said_noun(group, t), views=views)
    return Made(perturbation, "", t.name, where=where(graph, t.id))


def _perturbation(
    kind: Kind,
    graph: SceneGraph,
    *,
    referent: str,
    added: list[str] | None = None,
    removed: list[str] | None = None,
    moved: list[str] | None = None,
) -> Perturbation:
    return Perturbation(
        kind=kind, graph=graph, added=added or [], removed=removed or [], moved=moved or [], referent=referent
    )


KINDS: dict[str, Callable[..., Made | None]] = {
    "multiplicity": multiplicity,
    "absence": absence,
    "reference": reference,
    "observation": observation,
}


def changed_environment(scene: Scene, group: Group, graph: SceneGraph, p: Perturbation) -> tuple[str, str]:
    """The changed kitchen as the item's environment lists are written (``environment_short``, ``_full``):
    the clear kitchen's objects in their order without the removed ones, then the added ones; for
    observation only what the asking robot sees."""
    ix, changed = index(graph), index(p.graph)
    gone = {ix.by_id[i].name for i in p.removed if i in ix.by_id}
    shown = [o for o in scene.objects if o.name not in gone]
    members = {o.name: o for o in group.objects}
    shown += [members[changed.by_id[i].name] for i in p.added if changed.by_id[i].name in members]
    if p.views:
        seen = {changed.by_id[i].name for i in p.views[0].nodes if i in changed.by_id}
        shown = [o for o in shown if o.name in seen]
    return ", ".join(o.name for o in shown), ", ".join(with_article(o) for o in shown)


def _intent(
    kind: str, made: Made, plan: list[Action], graph: SceneGraph, plans: AnswerPlans, t: Node, p: Perturbation
) -> list[str] | None:
    """What the correct step at the end of ambiguity must say: the names at that step of the plan under the
    answer that no other answer's plan has there (absence: the substitute the answer takes, or telling the
    user)."""
    eoa = plans.end or 0
    if kind == "absence":  # what the answer says to do, or what tells the clear step from the others'
        ix = index(graph)
        offered = [ix.by_id[i].name for i in made.offered]
        # the clear half's step there (the kitchen that still has the object): what it names
        told = telling(plan, graph, plans.others, p.graph, eoa) or telling(plan, graph, [], p.graph, eoa)
        said = "tell" if made.refused else made.choice
        negated = [f"-{o}" for o in offered] if made.refused else []
        return ["|".join(dict.fromkeys([said, t.name, *told])), *negated]
    if kind == "observation":  # the candidates are not objects: the target and where it is kept
        return [f"{t.name}|{made.where.split(' the ', 1)[-1]}" if made.where else t.name]
    changed = index(p.graph).by_id
    rival_names = {changed[c].name for c in rivals(kind, p.graph, p.referent, t.id) if c in changed}
    names = [n for n in telling(plans.intended, p.graph, plans.others, p.graph, eoa) if n not in rival_names]
    if names and t.name not in rival_names:
        names.insert(0, t.name)  # its own name tells it apart too (what the answer says)
    names = list(dict.fromkeys(names))
    return ["|".join(names)] if names else None


def build(
    spec: PerturbSpec,
    group: Group,
    obj: CatalogObject,
    sampled: Scene,
    rng: random.Random,
    catalog: Catalog | None = None,
) -> Draft | None:
    # The clear kitchen keeps one object of the target's kind (its noun picks exactly one node); for
    # reference two (the relation, not the noun, picks the target there).
    keep = {obj.name}
    if spec.kind == "reference":
        held = [
            o
            for o in sampled.objects
            if o.group == obj.group
            and o.name != obj.name
            and o.modifier.lower() != obj.modifier.lower()
            and o.name.lower() not in obj.name.lower()
            and obj.name.lower() not in o.name.lower()
            and agrees(group, o, obj)
        ]
        extra = held or _other_members(group, sampled, obj)
        if not extra:
            return None
        second = rng.choice(extra)
        if not held:
            sampled = Scene((*sampled.objects, second))
        keep.add(second.name)
    if spec.kind == "absence" and any(step.verb == "hand_over" for step in spec.plan):
        sampled = with_stand_in(sampled, stand_ins(catalog, obj) if catalog else (), rng)  # something to offer
    scene = Scene(tuple(o for o in sampled.objects if o.group != obj.group or o.name in keep))
    graph = build_graph(scene, rng.getrandbits(63))
    t = index(graph).find(obj.name)
    if t is None or t.name.lower() == t.noun.lower():
        return None
    if spec.kind != "reference" and [n.id for n in resolve(graph, t.noun)] != [t.id]:
        return None
    if any(e.relation == "inside" and e.target == t.id for e in graph.edges):
        return None
    dest: str | None = None
    if spec.has_destination:
        here = place_of(graph, t.id)
        # observation: the other robot passes the object over the counter, so the counter is no destination
        shared = SHARED_PLACE if spec.kind == "observation" else None
        options = [d for d in destinations(obj, spec.places) if d not in (here, shared) and d in index(graph).by_id]
        if not options:
            return None
        dest = rng.choice(options)
    plan = clear_plan(spec, graph, t.id, dest)
    sent = frozenset(str(a.target) for a in plan if a.verb in ("place", "put_in"))
    made = KINDS[spec.kind](graph, t, obj, group, scene, rng, avoid=sent)
    if made is None:
        return None
    if made.offered and not any(step.verb == "hand_over" for step in spec.plan):
        # a substitute is for a use: to be put away or carried off, something else is no answer
        made = Made(made.perturbation, "", "", refused=True)
    if any(a.target == place_of(graph, t.id) for a in plan if a.verb in ("place", "put_in")):
        return None  # "put the mug on the table" when it is there already
    if not simulate(graph, plan).ok:
        return None
    p = made.perturbation
    if p.views and any(a.target not in p.views[0].nodes for a in plan if a.verb in ("place", "put_in")):
        return None  # the asking robot takes the object where it cannot see (the sink on the other side)
    referent, noun, many = p.referent, said_noun(group, t), said_plural(group, t)
    slots = {
        "noun": noun,
        "nouns": phrases.plural(noun),
        "referent": referent,
        "options": made.options,
        "choice": made.choice,
        "where": made.where,
        "fits": made.fits,
        # number agreement with the noun: "Can you see them?" for chips, "Can you see it?" for a mug
        "it": "them" if many else "it",
        "one": "ones" if many else "one",
        "is": "are" if many else "is",
        "Is": "Are" if many else "Is",
    }
    # the answer names the object itself ("the espresso beans are"), the question the noun ("the coffee is")
    named = {**slots, "it": "them" if t.plural else "it", "is": "are" if t.plural else "is"}
    named["Is"] = named["is"].capitalize()
    if spec.kind == "absence" and not made.offered:
        if not spec.asks_instead:
            return None
        question = phrases.pick(rng, spec.asks_instead).format(**slots)
    else:
        question = phrases.pick(rng, spec.questions).format(**slots)
    if made.refused:
        if not spec.declines:
            return None
        answer = phrases.pick(rng, spec.declines).format(**slots)
    else:
        answer = phrases.pick(rng, spec.answers).format(**named)
    if spec.kind == "absence":
        candidates: list[str] = list(made.offered)
        chosen = next((n.id for n in p.graph.nodes if n.id in made.offered and n.name == made.choice), None)
    else:
        candidates, chosen = rivals(spec.kind, p.graph, referent, t.id), None
    if dest is not None and any(place_of(p.graph, c) == dest for c in candidates):
        return None  # "put the mug in the cupboard" when the other mug is in it: the place tells them apart
    plans = answer_plans(
        spec.kind,
        plan,
        graph,
        t.id,
        p.graph,
        candidates,
        question=question,
        chosen=None if made.refused else chosen,
        declined=report(noun),
    )
    eoa = plans.end
    if eoa is None or already_done(p.graph, plans) is not None:
        return None  # no answer changes the plan, or under one the change has done the task
    if spec.kind != "observation" and not simulate(p.graph, plans.intended).ok:
        return None  # the plan under the answer does not run in the changed kitchen
    intent = _intent(spec.kind, made, plan, graph, plans, t, p)
    if intent is None:
        return None  # the step where the plans part does not say which candidate it takes
    i = rng.randrange(len(spec.direct))
    said = dest_words(graph, dest) if dest is not None else ""
    task = spec.direct[i].format(t=f"the {referent}", dest=said, it="them" if many else "it")
    indirect = phrases.pick(rng, spec.indirect).format(
        t=f"the {referent}", ti=f"the {referent}", dest=said, it="them" if many else "it"
    )
    short, full = changed_environment(scene, group, graph, p)
    if not short:
        return None  # the asking robot sees none of the kitchen's objects: no list to show it
    p = p.model_copy(update={"environment_short": short, "environment_full": full})
    world = World(graph=graph, target=t.id, clear_plan=plan, perturbation=p)
    return Draft(
        template=spec.id,
        unambiguous_direct=task,
        unambiguous_indirect=indirect,
        ambiguous_task=task,
        question=question,
        answer=answer,
        plan_for_clear_task=render_plan(plan, graph),
        plan_for_amb_task=ambiguous_steps(spec.kind, plans, p.graph, t.id, noun),
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
                out.append(Candidate(spec.id, partial(build, spec, catalog.groups[gkey], obj, scene, catalog=catalog)))
    return out


def sentences(spec: PerturbSpec, catalog: Catalog) -> frozenset[str] | int:
    """The distinct tasks a template can make: its wordings with the noun of each object its target takes
    (the task names the object by its noun alone) and, for a ``{dest}`` template, each place the object may
    be put. Listed as signatures, since the types that name the object by its noun say the same sentences
    and so share one pool. A reference names an anchor and a relation too: a count, as wordings x nouns x
    places x three relations x the catalog's objects of other kinds (an upper bound on what sampling
    reaches)."""
    places = {p.id: f"{'on' if p.holds == 'on' else 'in'} the {p.name}" for p in cached_world().places}
    dests: dict[tuple[str, bool], set[str]] = {}  # (noun, plural) -> where objects so called may be put
    for obj in catalog.objects.values():
        if spec.target.matches(obj):
            group = catalog.groups[obj.group]
            mine = dests.setdefault((said_noun(group, obj), said_plural(group, obj)), set())
            if spec.has_destination:
                mine |= {places[d] for d in destinations(obj, spec.places) if d in places}
    texts = {
        wording.format(t=f"the {noun}", dest=d, it="them" if plural else "it")
        for (noun, plural), where in dests.items()
        for wording in spec.direct
        for d in (where or {""})
    }
    out = {signature(text) for text in texts}
    nouns = {noun for noun, _ in dests}
    if spec.kind != "reference":
        return frozenset(out)
    anchors = sum(1 for o in catalog.objects.values() if o.noun not in nouns) or len(catalog.objects)
    return len(out) * len(RELATION_WORDS) * anchors


MECHANISM = Mechanism(
    "perturb",
    PerturbSpec,
    candidates,
    default_requirements,
    "the instruction stays, a perturbed copy of the kitchen makes it ambiguous",
    order=5,
    sentences=sentences,
    needs=lambda spec, catalog: holding_bits((catalog.meeting_bits(spec.target),)),  # candidates ask no more
)
