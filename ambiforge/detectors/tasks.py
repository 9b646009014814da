"""The unit an eval scores: one half of a pair (the ambiguous task or its clear twin) at ``end_of_ambiguity``.

What the model is shown is what AmbiK's pipeline shows it: the scene as ``environment_full``, the task, the
half's own plan up to the ambiguous step (``previous_steps``) and that step (``next_step``: the ambiguous
half's ``plan_for_amb_task[end_of_ambiguity]``, the clear half's ``plan_for_clear_task[end_of_ambiguity]``).
The options a method proposes are ways to carry out ``next_step``; the gold is the clear plan's step there.

An environment-induced pair's ambiguous half shows the changed kitchen's text (``world.perturbation.
environment_short``/``environment_full``), its clear half the clear kitchen's.

Both halves share the item's intent: the correct next action of the clear task and the correct action of
the ambiguous task once the user has answered carry the same concepts (AmbiK's ``user_intent``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ambiforge.catalog.loader import APPLIANCES
from ambiforge.models import Item
from ambiforge.models.item import World

AMBIGUOUS, CLEAR = "ambiguous", "unambiguous"


@dataclass(frozen=True)
class EvalTask:
    item_id: str
    half: str  # AMBIGUOUS or CLEAR
    ambiguity_type: str  # the pair's type (also for its clear half: the pair is stratified by it)
    task: str
    environment: str
    previous_steps: tuple[str, ...]
    gold_step: str
    intent: tuple[str, ...]
    variants: tuple[str, ...]
    shortlist: tuple[str, ...]
    question: str = ""
    answer: str = ""
    appliances: tuple[str, ...] = field(default=APPLIANCES)
    twin: str = ""  # the other half's task (what a simulated user knows of the pair)
    pair_shortlist: tuple[str, ...] = ()  # the pair's shortlist, on both halves (``shortlist`` is the scored one)
    environment_full: str = ""  # the scene as AmbiK writes it (with articles); the prompts show it
    next_step: str = ""  # the half's own plan step at end_of_ambiguity (the step the options are for)
    world: World | None = field(default=None, compare=False)  # the pair's world (SG-CoT queries its graphs)

    @property
    def key(self) -> str:
        return f"{self.item_id}:{self.half}"

    @property
    def ambiguous(self) -> bool:
        return self.half == AMBIGUOUS

    @property
    def level(self) -> str:
        """``environment`` when the pair's words are the same and its kitchens differ (a perturbed graph),
        else ``instruction`` (AmbiK's types: the ambiguity is in the words)."""
        world = self.world
        return "environment" if world is not None and world.perturbation is not None else "instruction"

    @property
    def scene_objects(self) -> tuple[str, ...]:
        return tuple(o.strip() for o in self.environment.split(",") if o.strip()) + self.appliances


def _step(plan: Sequence[str], index: int) -> str:
    return plan[index] if 0 <= index < len(plan) else ""


def halves(item: Item) -> tuple[EvalTask, EvalTask]:
    """``(ambiguous, clear)`` tasks of one pair."""
    eoa = item.end_of_ambiguity
    common = {
        "item_id": item.id,
        "ambiguity_type": item.ambiguity_type,
        "environment": item.environment_short,
        "intent": tuple(item.user_intent),
        "variants": tuple(item.variants),
        "question": item.question,
        "answer": item.answer,
        "pair_shortlist": tuple(item.amb_shortlist),
        "environment_full": item.environment_full or item.environment_short,
        "world": item.world,
    }
    # An environment-induced pair's ambiguous half is set in the changed kitchen: its text is what a text
    # method sees there (the clear kitchen's would hide the ambiguity and leave only the plan as a cue).
    changed = item.world.perturbation if item.world is not None else None
    scene = (
        {"environment": changed.environment_short, "environment_full": changed.environment_full}
        if changed is not None and changed.environment_short
        else {}
    )
    amb = EvalTask(
        half=AMBIGUOUS,
        task=item.ambiguous_task,
        previous_steps=tuple(item.plan_for_amb_task[:eoa]),
        gold_step=_step(item.plan_for_clear_task, eoa),
        next_step=_step(item.plan_for_amb_task, eoa),
        shortlist=tuple(item.amb_shortlist),
        twin=item.unambiguous_direct,
        **{**common, **scene},
    )
    clear = EvalTask(
        half=CLEAR,
        task=item.unambiguous_direct,
        previous_steps=tuple(item.plan_for_clear_task[:eoa]),
        gold_step=_step(item.plan_for_clear_task, eoa),
        next_step=_step(item.plan_for_clear_task, eoa),
        shortlist=(),
        twin=item.ambiguous_task,
        **common,
    )
    return amb, clear
