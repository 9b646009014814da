"""omission: the ambiguous wording leaves out the place or device a person infers from everyday knowledge.

"Put the milk in the fridge." -> "Put the milk away."; "Toast the rye bread in the toaster." -> "Toast the
rye bread.". The template gives both wordings explicitly (``ambiguous``, ``plan_amb``); the intent is the
left-out word, which the ambiguous wording must not contain. The variants are the nodes of the pair's
scene graph that do the job: those affording the template's ``action`` (``toast``: every toaster of the
kitchen), else the node the ``variant`` (or the intent) names.
"""

from __future__ import annotations

import random
from functools import partial
from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from ambiforge.catalog import Catalog
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases, referents
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements, holding_requirements
from ambiforge.generation.offline.rendering import (
    Candidate,
    Slots,
    bind_co,
    bindable,
    draft_of,
    rationale,
    render,
    render_text,
)
from ambiforge.generation.offline.spec import CO_SUFFIXES, TemplateSpec, check_action, check_format
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import able, resolve


class OmissionSpec(TemplateSpec):
    uses_target: ClassVar[bool] = False
    mechanism: Literal["omission"] = "omission"
    intent: str = Field(min_length=1, description="the left-out word ('fridge'); absent from the ambiguous task")
    question: str = Field(min_length=1, description="clarifying question (co-slots allowed)")
    answer: str = Field(min_length=1, description="answer (co-slots allowed)")
    variant: str = Field(default="", description="the correct option (co-slots allowed); empty: the intent")
    action: str | None = Field(default=None, description="the affordance the job needs (affordances.yaml)")
    rivals: tuple[str, ...] = Field(
        default=(),
        description="words no other clause of the task may say: another way to do the job that, used in the same "
        "task, would fit as well as the answer ('oven' beside a reheat in the microwave)",
    )

    alternatives: tuple[str, ...] = Field(
        default=(),
        description="affordances of other appliances that do the job as well ('air_fry' beside 'cook in the oven'): "
        "a kitchen with one gets no item, since common sense would not pick one of them",
    )

    @field_validator("action")
    @classmethod
    def _known_action(cls, value: str | None) -> str | None:
        return check_action(value)

    @field_validator("alternatives")
    @classmethod
    def _known_alternatives(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for action in value:
            check_action(action)
        return value

    @model_validator(mode="after")
    def _check_omission(self) -> OmissionSpec:
        if not self.ambiguous or not self.plan_amb:
            raise ValueError("an omission needs explicit 'ambiguous' wordings and a 'plan_amb'")
        slots = {f"{slot}{suffix}" for slot in self.co for suffix in CO_SUFFIXES}
        for name in ("question", "answer", "variant"):
            check_format(getattr(self, name), slots, name)
        return self


def build(spec: OmissionSpec, scene: Scene, graph: SceneGraph, rng: random.Random) -> Draft | None:
    if any(able(graph, action) for action in spec.alternatives):
        return None  # another appliance does the job as well: common sense picks no one place
    co = bind_co(spec, list(scene.objects), rng, None)
    if co is None:
        return None
    slots = Slots(None, None, co)
    rendered = render(spec, slots, rng)
    if phrases.mentions(rendered.ambiguous, spec.intent):
        return None
    variant = render_text(spec.variant, slots) if spec.variant else spec.intent
    named = resolve(graph, variant)
    if not named:  # the left-out word is no object or place (an amount, a manner): no node to claim
        return draft_of(
            spec,
            rendered,
            question=render_text(spec.question, slots),
            answer=render_text(spec.answer, slots),
            intent=[spec.intent],
            variants=[variant],
        )
    fit = able(graph, spec.action) if spec.action else named[:1]
    if named[0].id not in {n.id for n in fit}:
        return None
    fitting = referents.names(fit)
    intent = "|".join(dict.fromkeys([spec.intent, *(n for n in fitting if not phrases.mentions(n, spec.intent))]))
    return draft_of(
        spec,
        rendered,
        question=render_text(spec.question, slots),
        answer=render_text(spec.answer, slots),
        intent=[intent],
        variants=fitting,
        target=named[0].name,
        candidates=fitting,
        fitting=fitting,
        rationale=rationale(spec, slots, named[0].name, named[0].noun),
    )


def candidates(spec: OmissionSpec, scene: Scene, catalog: Catalog, graph: SceneGraph) -> list[Candidate]:
    if not bindable(spec, list(scene.objects), catalog, in_scene=referents.in_scene(graph, scene, catalog)):
        return []
    return [Candidate(spec.id, partial(build, spec, scene, graph))]


MECHANISM = Mechanism(
    "omission",
    OmissionSpec,
    candidates,
    default_requirements,
    "a place or device is left out",
    order=2,
    needs=holding_requirements,
)
