"""choose_member: several objects of one group fit the task and only the user knows which one is meant.

The unambiguous task names one object ("the glass mug"); the ambiguous task uses the group noun ("a mug").
The shortlist is every object the noun picks out on the pair's scene graph that meets the template's target
condition (any group: a travel mug is a mug too), the intent is the word that tells the chosen one apart
("glass"), and the question offers the shortlist.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Literal

from pydantic import Field, field_validator

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases, referents
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements, holding_requirements
from ambiforge.generation.offline.rendering import Candidate, Slots, bind_co, bindable, draft_of, render
from ambiforge.generation.offline.spec import TemplateSpec, check_format
from ambiforge.models.scene_graph import Node, SceneGraph


class ChooseMemberSpec(TemplateSpec):
    mechanism: Literal["choose_member"] = "choose_member"
    exclude_group_tags: tuple[str, ...] = Field(
        default=(), description="groups with any of these tags are never alternatives (a toaster and a blender)"
    )
    dirty_fits: bool = Field(
        default=False,
        description="the job takes a dirty one as well (loading the dishwasher, rinsing): a dirty one is not left "
        "out as dirty, so no pair is made where the words pick one out",
    )
    questions: dict[str, tuple[str, ...]] = Field(
        description="question forms by group kind ('default' for any); slots {noun}, {nouns}, {options}"
    )
    answers: dict[str, tuple[str, ...]] = Field(
        description="answer forms: 'default', and 'plain' for objects whose name is their distinguishing "
        "word or that are plural; slots {name}, {modifier}"
    )

    @field_validator("questions")
    @classmethod
    def _questions(cls, value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        if not value.get("default"):
            raise ValueError("needs a non-empty 'default' list")
        for kind, forms in value.items():
            for i, form in enumerate(forms):
                check_format(form, {"noun", "nouns", "options"}, f"{kind}[{i}]")
        return value

    @field_validator("answers")
    @classmethod
    def _answers(cls, value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        if not value.get("default"):
            raise ValueError("needs a non-empty 'default' list")
        for kind, forms in value.items():
            for i, form in enumerate(forms):
                check_format(form, {"name", "modifier"}, f"{kind}[{i}]")
        return value


def question_and_answer(
    spec: ChooseMemberSpec, group: Group, target: CatalogObject, shortlist: list[CatalogObject], rng: random.Random
) -> tuple[str, str]:
    options = phrases.join_or([o.name for o in shortlist])
    q_forms = spec.questions.get(group.kind) or spec.questions["default"]
    question = phrases.pick(rng, q_forms).format(noun=group.noun, nouns=phrases.plural(group.noun), options=options)
    plain = target.plural or target.modifier == target.name
    a_forms = (spec.answers.get("plain") if plain else None) or spec.answers["default"]
    answer = phrases.pick(rng, a_forms).format(name=target.name, modifier=target.modifier)
    return question, answer


def build(
    spec: ChooseMemberSpec,
    group: Group,
    members: list[CatalogObject],
    everyone: list[Node],
    nodes: list[Node],
    scene: Scene,
    rng: random.Random,
) -> Draft | None:
    """``members``: the shortlist, resolved on the graph (every one is a right choice for some user);
    ``everyone``: what the words pick out (the shortlist's ``nodes`` and the dirty ones left out)."""
    co = bind_co(spec, list(scene.objects), rng, group.key)
    if co is None:
        return None
    target = rng.choice(members)
    rendered = render(spec, Slots(target, group, co), rng)
    # The distinguishing word must be what the ambiguous task leaves out, and every option must have one.
    if len({m.modifier.lower() for m in members}) < len(members):
        return None
    if any(phrases.mentions(rendered.ambiguous, m.modifier) for m in members):
        return None
    question, answer = question_and_answer(spec, group, target, members, rng)
    names = [m.name for m in members]
    return draft_of(
        spec,
        rendered,
        question=question,
        answer=answer,
        intent=[target.modifier],
        variants=names,
        shortlist=names,
        target=target.name,
        candidates=names,
        fitting=names,
        left_out=referents.left_out(everyone, nodes, nodes, "unable", "does not fit the job"),
    )


def candidates(spec: ChooseMemberSpec, scene: Scene, catalog: Catalog, graph: SceneGraph) -> list[Candidate]:
    pool = list(scene.objects)
    in_scene = referents.in_scene(graph, scene, catalog)
    if not bindable(spec, pool, catalog, in_scene=in_scene):
        return []  # a co-slot nothing in the kitchen fills: no group can make a pair, so none is asked
    out: list[Candidate] = []
    nouns: set[str] = set()
    for gkey in scene.groups():
        group = catalog.groups[gkey]
        if any(t in group.tags for t in spec.exclude_group_tags) or group.noun in nouns:
            continue
        nouns.add(group.noun)
        nodes = referents.members(graph, group.noun, spec.target)
        if len(nodes) < 2:
            continue  # one or none to choose among
        everyone = referents.members(graph, group.noun)
        kept = {n.id for n in nodes}
        if any(n.id not in kept and (spec.dirty_fits or n.state.clean is not False) for n in everyone):
            continue  # the words pick out one the job leaves out for no reason a reader could check
        members = referents.objects(scene, nodes)
        if any(any(t in catalog.groups[m.group].tags for t in spec.exclude_group_tags) for m in members):
            continue
        if len(members) >= 2 and bindable(spec, pool, catalog, gkey, in_scene):
            out.append(Candidate(spec.id, partial(build, spec, group, members, everyone, nodes, scene)))
    return out


MECHANISM = Mechanism(
    "choose_member",
    ChooseMemberSpec,
    candidates,
    default_requirements,
    "the user picks one of several members",
    order=1,
    needs=holding_requirements,
)
