"""partition: the objects a group noun picks out in the kitchen split into right and wrong choices.

Safety (a metal and a ceramic bowl for the microwave: ``action: microwave``, an affordance of
``affordances.yaml``) and cleanliness (a clean and a dirty mug: ``safe: {clean: true}``, a state) are the
same mechanism. The referent is resolved on the pair's scene graph (members meeting ``target``); the right
ones are those affording ``action`` (or, without one, meeting ``safe``). The unambiguous task names a right
one; the ambiguous task uses the group noun; the variants are every right one, and the intent lists them as
alternatives and the wrong ones' distinguishing words as negatives (``ceramic|glass``, ``-metal``).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ambiforge.catalog import Catalog, Group
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.conditions import Condition
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases, referents
from ambiforge.generation.offline.mechanisms.base import Mechanism, Predicate, SceneTest
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


class PartitionSpec(TemplateSpec):
    mechanism: Literal["partition"] = "partition"
    safe: Condition | None = Field(
        default=None, description="what a right choice is, among the members that fit the target (no action)"
    )
    action: str | None = Field(default=None, description="the affordance a right choice has (affordances.yaml)")

    @field_validator("action")
    @classmethod
    def _known_action(cls, value: str | None) -> str | None:
        return check_action(value)

    question: str = Field(min_length=1, description="clarifying question; slot {noun}")
    answer: str = Field(min_length=1, description="answer; slots {name} (a right one), {unsafe} (a wrong one)")
    unsafe: str = Field(
        default="", description="why a wrong member is left out, in words ('is not oven-safe'); recorded on the item"
    )
    only_one: bool = Field(
        default=False,
        description="common sense must pick exactly one member (a common-sense item: the clear task names it and "
        "the answer resolves to it); no pair where several are right, since which of them is a preference",
    )

    @model_validator(mode="after")
    def _check_forms(self) -> PartitionSpec:
        check_format(self.question, {"noun"}, "question")
        check_format(self.answer, {"name", "unsafe"}, "answer")
        if (self.safe is None) == (self.action is None):
            raise ValueError("a partition names either 'action' (an affordance) or 'safe' (a condition)")
        return self


def build(
    spec: PartitionSpec,
    group: Group,
    everyone: list[Node],
    candidates_: list[Node],
    fit: list[Node],
    scene: Scene,
    rng: random.Random,
) -> Draft | None:
    co = bind_co(spec, list(scene.objects), rng, group.key)
    if co is None:
        return None
    fit_ids = {n.id for n in fit}
    safe = referents.objects(scene, fit)
    unsafe = referents.objects(scene, [n for n in candidates_ if n.id not in fit_ids])
    target = rng.choice(safe)
    rendered = render(spec, Slots(target, group, co), rng)
    clear_text = rendered.direct
    negatives = list(dict.fromkeys(o.modifier for o in unsafe))
    if any(phrases.mentions(clear_text, n) for n in negatives):
        return None  # a wrong option's word is part of the task itself: the intent would contradict it
    if any(phrases.mentions(rendered.ambiguous, o.modifier) for o in safe):
        return None
    intent = ["|".join(dict.fromkeys(o.modifier for o in safe)), *(f"-{n}" for n in negatives)]
    wrong = rng.choice(unsafe)
    fitting = referents.names(fit)
    return draft_of(
        spec,
        rendered,
        question=spec.question.format(noun=group.noun),
        answer=spec.answer.format(name=target.name, unsafe=wrong.name),
        intent=intent,
        variants=fitting,
        target=target.name,
        candidates=referents.names(candidates_),
        fitting=fitting,
        left_out=referents.left_out(
            everyone, candidates_, fit, "unsafe" if spec.action else "unable", spec.unsafe or "does not fit the job"
        ),
        rationale=rationale(spec, Slots(target, group, co), target.name, group.noun),
    )


def candidates(spec: PartitionSpec, scene: Scene, catalog: Catalog, graph: SceneGraph) -> list[Candidate]:
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
        found = referents.members(graph, group.noun, spec.target)
        if len(found) < 2:
            continue  # one or none to choose among: never ambiguous
        everyone = referents.members(graph, group.noun)
        if referents.disputed(graph, everyone, spec.target.known):
            continue  # the fact the item would rest on depends on the product for one of them
        fit = referents.fitting(graph, found, spec.action, spec.safe)
        by_state = spec.safe is not None and spec.safe.clean is not None
        if by_state and len(referents.fitting(graph, everyone, None, spec.safe)) > len(fit):
            continue  # a right-state member the job leaves out (a plastic mug for tea): "any clean one" is untrue
        if spec.only_one and len(fit) != 1:
            continue  # several right ones: which of them is the user's preference, not common sense
        if referents.ambiguous(found, fit) and bindable(spec, pool, catalog, gkey, in_scene):
            out.append(Candidate(spec.id, partial(build, spec, group, everyone, found, fit, scene)))
    return out


def requirements(spec: PartitionSpec) -> list[Predicate]:
    """A wrong member of a fitting group (right ones are common), then the co-slots."""
    target, right = spec.target, _right(spec)
    return [lambda o: target.matches(o) and not right(o), *(c.matches for c in spec.co.values())]


def needs(spec: PartitionSpec, catalog: Catalog) -> SceneTest:
    """The test :func:`candidates` passes: a scene group whose noun picks out (:func:`referents.picked`) a
    wrong and a right member and nothing disputed, as many right ones as the template allows, and an
    object for each co-slot outside the group."""
    co = [catalog.meeting_bits(c) for c in spec.co.values()]
    split: dict[str, tuple[int, int, int, int] | None] = {}  # per noun: wrong, right, disputed, right state
    rows: list[tuple[int, int, int, int, int, tuple[int, ...]]] = []
    for key, group in catalog.groups.items():
        if group.noun not in split:
            split[group.noun] = _split(spec, catalog, group.noun)
        found = split[group.noun]
        if found is not None:
            outside = ~catalog.group_bits[key]
            rows.append((catalog.group_bits[key], *found, tuple(b & outside for b in co)))
    only_one = spec.only_one

    def test(held: int) -> bool:
        for members, wrong, right, disputed, right_state, co_bits in rows:
            if not members & held or not wrong & held or disputed & held:
                continue
            n_right = (right & held).bit_count()
            if not n_right or (only_one and n_right != 1) or (right_state & held).bit_count() > n_right:
                continue
            if all(b & held for b in co_bits):
                return True
        return False

    return test


def _split(spec: PartitionSpec, catalog: Catalog, noun: str) -> tuple[int, int, int, int] | None:
    """What ``noun`` picks out as bits, read as :func:`candidates` reads a scene's nodes: the wrong members,
    the right ones, those whose fact is disputed, and (a partition by state) those of the right state;
    None when it picks no wrong or no right one."""
    bits, target, safe = catalog.bits, spec.target, spec.safe
    fits = cached_affordances().get(spec.action).allows if spec.action else safe.matches  # type: ignore[union-attr]
    right = wrong = disputed = right_state = 0
    by_state = safe is not None and safe.clean is not None
    for name, view in referents.picked(catalog, noun):
        bit = bits.get(name, 0)
        if target.matches(view):
            if fits(view):
                right |= bit
            else:
                wrong |= bit
        if any(getattr(view, a) is None for a in target.known):
            disputed |= bit
        if by_state and safe.matches(view):  # type: ignore[union-attr]
            right_state |= bit
    if not right or not wrong:
        return None
    return wrong, right, disputed, right_state


def _right(spec: PartitionSpec) -> Predicate:
    """A right choice, tested on a catalog object (scene steering has no graph yet)."""
    if spec.action is not None:
        rule = cached_affordances().get(spec.action)
        return rule.allows
    assert spec.safe is not None
    return spec.safe.matches


MECHANISM = Mechanism(
    "partition",
    PartitionSpec,
    candidates,
    requirements,
    "right vs wrong members by a condition",
    order=4,
    needs=needs,
)
