"""omission: the ambiguous wording leaves out the place or device a person infers from everyday knowledge.

"Put the milk in the fridge." -> "Put the milk away."; "Toast the rye bread in the toaster." -> "Toast the
rye bread.". The template gives both wordings explicitly (``ambiguous``, ``plan_amb``); the intent is the
left-out word, which the ambiguous wording must not contain.
"""

from __future__ import annotations

import random
from functools import partial
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from ambiforge.catalog import Catalog
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements
from ambiforge.generation.offline.rendering import Candidate, Slots, bind_co, bindable, draft_of, render, render_text
from ambiforge.generation.offline.spec import CO_SUFFIXES, TemplateSpec, check_format


class OmissionSpec(TemplateSpec):
    uses_target: ClassVar[bool] = False
    mechanism: Literal["omission"] = "omission"
    intent: str = Field(min_length=1, description="the left-out word ('fridge'); absent from the ambiguous task")
    question: str = Field(min_length=1, description="clarifying question (co-slots allowed)")
    answer: str = Field(min_length=1, description="answer (co-slots allowed)")
    variant: str = Field(default="", description="the correct option (co-slots allowed); empty: the intent")

    @model_validator(mode="after")
    def _check_omission(self) -> OmissionSpec:
        if not self.ambiguous or not self.plan_amb:
            raise ValueError("an omission needs explicit 'ambiguous' wordings and a 'plan_amb'")
        slots = {f"{slot}{suffix}" for slot in self.co for suffix in CO_SUFFIXES}
        for name in ("question", "answer", "variant"):
            check_format(getattr(self, name), slots, name)
        return self


def build(spec: OmissionSpec, scene: Scene, rng: random.Random) -> Draft | None:
    co = bind_co(spec, list(scene.objects), rng, None)
    if co is None:
        return None
    slots = Slots(None, None, co)
    rendered = render(spec, slots, rng)
    if phrases.mentions(rendered.ambiguous, spec.intent):
        return None
    return draft_of(
        spec,
        rendered,
        question=render_text(spec.question, slots),
        answer=render_text(spec.answer, slots),
        intent=[spec.intent],
        variants=[render_text(spec.variant, slots) if spec.variant else spec.intent],
    )


def candidates(spec: OmissionSpec, scene: Scene, catalog: Catalog) -> list[Candidate]:
    if not bindable(spec, list(scene.objects)):
        return []
    return [Candidate(spec.id, partial(build, spec, scene))]


MECHANISM = Mechanism(
    "omission", OmissionSpec, candidates, default_requirements, "a place or device is left out", order=2
)
