"""partition: a group's fitting objects in the scene split by a condition into right and wrong choices.

Safety (a metal and a ceramic bowl for the microwave: ``safe: {where: {microwave_safe: true}}``) and
cleanliness (a clean and a dirty mug: ``safe: {clean: true}``) are the same mechanism. The unambiguous task
names a right one; the ambiguous task uses the group noun; the intent lists the right options as
alternatives and the wrong ones' distinguishing words as negatives (``ceramic|glass``, ``-metal``).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Literal

from pydantic import Field, model_validator

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.catalog.conditions import Condition
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.mechanisms.base import Mechanism, Predicate
from ambiforge.generation.offline.rendering import Candidate, Slots, bind_co, bindable, draft_of, render
from ambiforge.generation.offline.spec import TemplateSpec, check_format


class PartitionSpec(TemplateSpec):
    mechanism: Literal["partition"] = "partition"
    safe: Condition = Field(description="what a right choice is, among the members that fit the target")
    question: str = Field(min_length=1, description="clarifying question; slot {noun}")
    answer: str = Field(min_length=1, description="answer; slots {name} (a right one), {unsafe} (a wrong one)")

    @model_validator(mode="after")
    def _check_forms(self) -> PartitionSpec:
        check_format(self.question, {"noun"}, "question")
        check_format(self.answer, {"name", "unsafe"}, "answer")
        return self


def build(
    spec: PartitionSpec,
    group: Group,
    safe: list[CatalogObject],
    unsafe: list[CatalogObject],
    scene: Scene,
    rng: random.Random,
) -> Draft | None:
    co = bind_co(spec, list(scene.objects), rng, group.key)
    if co is None:
        return None
    target = safe[rng.randrange(len(safe))]
    rendered = render(spec, Slots(target, group, co), rng)
    clear_text = " ".join([rendered.direct, *rendered.plan_clear])
    negatives = list(dict.fromkeys(o.modifier for o in unsafe))
    if any(phrases.mentions(clear_text, n) for n in negatives):
        return None  # a wrong option's word is part of the task itself: the intent would contradict it
    if any(phrases.mentions(rendered.ambiguous, o.modifier) for o in safe):
        return None
    intent = ["|".join(dict.fromkeys(o.modifier for o in safe)), *(f"-{n}" for n in negatives)]
    wrong = unsafe[rng.randrange(len(unsafe))]
    return draft_of(
        spec,
        rendered,
        question=spec.question.format(noun=group.noun),
        answer=spec.answer.format(name=target.name, unsafe=wrong.name),
        intent=intent,
        variants=[o.name for o in safe],
    )


def candidates(spec: PartitionSpec, scene: Scene, catalog: Catalog) -> list[Candidate]:
    out: list[Candidate] = []
    pool = list(scene.objects)
    for gkey in scene.groups():
        members = [o for o in scene.in_group(gkey) if spec.target.matches(o)]
        safe = [o for o in members if spec.safe.matches(o)]
        unsafe = [o for o in members if not spec.safe.matches(o)]
        if safe and unsafe and bindable(spec, pool, gkey):
            out.append(Candidate(spec.id, partial(build, spec, catalog.groups[gkey], safe, unsafe, scene)))
    return out


def requirements(spec: PartitionSpec) -> list[Predicate]:
    """A wrong member of a fitting group (right ones are common), then the co-slots."""
    target, safe = spec.target, spec.safe
    return [lambda o: target.matches(o) and not safe.matches(o), *(c.matches for c in spec.co.values())]


MECHANISM = Mechanism(
    "partition", PartitionSpec, candidates, requirements, "right vs wrong members by a condition", order=4
)
