"""tool_for_use: of several objects of a group in the scene, exactly one fits the job (``target``).

"Slice the rye bread with the bread knife." -> "... with a knife": any person takes the bread knife. The
target condition says what the job needs (``uses_any: [slice_bread]``); the pair exists only when the scene
holds the group with two or more objects and exactly one of them fits.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Literal

from pydantic import Field, model_validator

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements
from ambiforge.generation.offline.rendering import Candidate, Slots, bind_co, bindable, draft_of, render
from ambiforge.generation.offline.spec import TemplateSpec, check_format


class ToolForUseSpec(TemplateSpec):
    mechanism: Literal["tool_for_use"] = "tool_for_use"
    question: str = Field(min_length=1, description="clarifying question; slot {noun}")
    answer: str = Field(min_length=1, description="answer; slot {name}")

    @model_validator(mode="after")
    def _check_forms(self) -> ToolForUseSpec:
        check_format(self.question, {"noun"}, "question")
        check_format(self.answer, {"name"}, "answer")
        return self


def build(spec: ToolForUseSpec, group: Group, tool: CatalogObject, scene: Scene, rng: random.Random) -> Draft | None:
    co = bind_co(spec, list(scene.objects), rng, group.key)
    if co is None:
        return None
    rendered = render(spec, Slots(tool, group, co), rng)
    return draft_of(
        spec,
        rendered,
        question=spec.question.format(noun=group.noun),
        answer=spec.answer.format(name=tool.name),
        intent=[tool.name],
        variants=[tool.name],
        target=tool.name,
    )


def candidates(spec: ToolForUseSpec, scene: Scene, catalog: Catalog) -> list[Candidate]:
    out: list[Candidate] = []
    pool = list(scene.objects)
    for gkey in scene.groups():
        members = scene.in_group(gkey)
        if len(members) < 2:
            continue
        fit = [m for m in members if spec.target.matches(m)]
        if len(fit) == 1 and bindable(spec, pool, gkey):
            out.append(Candidate(spec.id, partial(build, spec, catalog.groups[gkey], fit[0], scene)))
    return out


MECHANISM = Mechanism(
    "tool_for_use", ToolForUseSpec, candidates, default_requirements, "the one member made for the job", order=3
)
