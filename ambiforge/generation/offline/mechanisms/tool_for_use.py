"""tool_for_use: of the objects a group noun picks out in the kitchen, common sense picks exactly one.

"Slice the baguette with the bread knife." -> "... with a knife": a person takes the bread knife, the knife
made for loaves. The template names the job's affordance (``action: slice_bread``, an action of
``affordances.yaml``, written as narrowly as common sense takes the job: a chef's knife can cut a loaf, but
the knife for bread is the bread knife). The referent is resolved on the pair's scene graph; the pair exists
only where exactly one of the resolved nodes affords the job and it is the one made for it (the template's
``target``), so the answer, the variants and the intent all name that one object. Where several do the job
(a chef's knife and a fillet knife both cut a chicken breast) common sense picks none of them: no pair.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ambiforge.catalog import Catalog, Group
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import referents
from ambiforge.generation.offline.mechanisms.base import Mechanism, default_requirements, holding_requirements
from ambiforge.generation.offline.rendering import (
    Candidate,
    Slots,
    bind_co,
    bindable,
    draft_of,
    rationale,
    render,
)
from ambiforge.generation.offline.spec import TemplateSpec, check_action, check_format
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world.index import index


class ToolForUseSpec(TemplateSpec):
    mechanism: Literal["tool_for_use"] = "tool_for_use"
    question: str = Field(min_length=1, description="clarifying question; slot {noun}")
    answer: str = Field(min_length=1, description="answer; slot {name}")
    action: str | None = Field(
        default=None, description="the affordance the job needs (affordances.yaml); none: the target condition"
    )

    @field_validator("action")
    @classmethod
    def _known_action(cls, value: str | None) -> str | None:
        return check_action(value)

    @model_validator(mode="after")
    def _check_forms(self) -> ToolForUseSpec:
        check_format(self.question, {"noun"}, "question")
        check_format(self.answer, {"name"}, "answer")
        return self


def build(
    spec: ToolForUseSpec,
    group: Group,
    candidates_: list[Node],
    fit: list[Node],
    scene: Scene,
    rng: random.Random,
) -> Draft | None:
    co = bind_co(spec, list(scene.objects), rng, group.key)
    if co is None:
        return None
    (tool,) = referents.objects(scene, fit)
    slots = Slots(tool, group, co)
    rendered = render(spec, slots, rng)
    fitting = referents.names(fit)  # the one tool: the answer, the variants and the intent agree
    return draft_of(
        spec,
        rendered,
        question=spec.question.format(noun=group.noun),
        answer=spec.answer.format(name=tool.name),
        intent=fitting,
        variants=fitting,
        target=tool.name,
        candidates=referents.names(candidates_),
        fitting=fitting,
        left_out=referents.left_out(candidates_, candidates_, fit, "unable", _cannot(spec.action)),
        rationale=rationale(spec, slots, tool.name, group.noun),
    )


def _cannot(action: str | None) -> str:
    """'cannot take the skin off fruit or vegetables': the job in the affordance table's words."""
    return f"cannot {cached_affordances().get(action).description}" if action else "does not do the job"


def candidates(spec: ToolForUseSpec, scene: Scene, catalog: Catalog, graph: SceneGraph) -> list[Candidate]:
    pool = list(scene.objects)
    in_scene = referents.in_scene(graph, scene, catalog)
    if not bindable(spec, pool, catalog, in_scene=in_scene):
        return []  # a co-slot nothing in the kitchen fills: no group can make a pair, so none is asked
    out: list[Candidate] = []
    nouns: set[str] = set()
    for gkey in scene.groups():
        group = catalog.groups[gkey]
        if group.noun in nouns:
            continue
        nouns.add(group.noun)
        found = referents.members(graph, group.noun)
        if len(found) < 2:
            continue
        fit = referents.fitting(graph, found, spec.action, None if spec.action else spec.target)
        if len(fit) != 1 or (spec.action is not None and not spec.target.matches(index(graph).view(fit[0]))):
            continue  # several do the job, or the one that does is not made for it: common sense picks none
        if referents.ambiguous(found, fit) and bindable(spec, pool, catalog, gkey, in_scene):
            out.append(Candidate(spec.id, partial(build, spec, group, found, fit, scene)))
    return out


MECHANISM = Mechanism(
    "tool_for_use",
    ToolForUseSpec,
    candidates,
    default_requirements,
    "the one member made for the job",
    order=3,
    needs=holding_requirements,
)
