"""A generated pair before it becomes an :class:`~ambiforge.models.Item`, and the one way it becomes one.

Every generator (offline templates, LLM steps) produces drafts; :func:`to_item` adds the scene, the content
id and the provenance, so the item's sixteen fields are mapped in one place for all generators.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from ambiforge.catalog import Catalog
from ambiforge.environment import Scene, render_environment
from ambiforge.environment.objects import environment_of
from ambiforge.models import Frame, Item, Provenance, World
from ambiforge.version import __version__


def first_difference(clear: list[str], ambiguous: list[str]) -> int:
    """The first step where the two plans part (both plans agree before it)."""
    for i, (a, b) in enumerate(zip(clear, ambiguous, strict=False)):
        if a != b:
            return i
    return min(len(clear), len(ambiguous)) - 1


@dataclass
class Draft:
    """``end_of_ambiguity``: given by the generator (an LLM says where the plans part) or, when None, the
    first step where the plans differ."""

    template: str
    unambiguous_direct: str
    unambiguous_indirect: str
    ambiguous_task: str
    question: str
    answer: str
    plan_for_clear_task: list[str]
    plan_for_amb_task: list[str]
    user_intent: list[str]
    variants: list[str]
    amb_shortlist: list[str] = field(default_factory=list)
    target: str | None = None  # catalog name of the intended object or place (grounded in the item's world)
    candidates: list[str] = field(default_factory=list)  # catalog names the ambiguous referent fits
    fitting: list[str] = field(default_factory=list)  # catalog names of the right choices among them
    affordance: str | None = None  # the job that selects ``fitting`` (catalog/affordances.yaml), if any
    # (catalog name, reason, detail) of each object the ambiguous words pick out that is not a right choice
    left_out: list[tuple[str, str, str]] = field(default_factory=list)
    rationale: str | None = None  # a common-sense item: why common sense picks the intended one
    # words no context clause may say: another way to do the job the answer picks ("the oven" beside a
    # reheat in the microwave would make both answers fit)
    rivals: list[str] = field(default_factory=list)
    # Offline: the task's clauses as plan steps bound to objects (BoundSteps of generation.offline.steps),
    # the focus clause's position among them, and an omission's own ambiguous steps; the plans' text is
    # rendered from the actions they build (generation.offline.planning).
    clauses: list[Any] = field(default_factory=list)
    focus: int = 0
    amb_tail: list[str] = field(default_factory=list)
    max_steps: int | None = None  # the longest plan the composition allows (None: no bound)
    end_of_ambiguity: int = None  # type: ignore[assignment]  # None: computed in __post_init__
    #: A draft that grounded itself: an environment-induced type's clear graph and its perturbation (the
    #: instruction is one sentence for both kitchens), kept as made instead of re-grounded from names.
    world: World | None = None
    #: The scene the draft is set in when the mechanism narrowed the sampled one (a perturbed kitchen's clear
    #: copy keeps one object of the target's kind, so that its noun picks exactly one); None: the sampled one.
    scene: Scene | None = None
    #: The discourse frame the tasks were said in (offline composition draws it); None: not drawn.
    frame: Frame | None = None

    def __post_init__(self) -> None:
        if self.end_of_ambiguity is None:
            self.end_of_ambiguity = first_difference(self.plan_for_clear_task, self.plan_for_amb_task)


def item_id(ambiguity_type: str, environment_short: str, unambiguous_direct: str) -> str:
    """A content id: the same pair in the same scene gets the same id in any run."""
    digest = hashlib.sha256(f"{ambiguity_type}\n{environment_short}\n{unambiguous_direct}".encode()).hexdigest()
    return f"amb-{digest[:12]}"


def provenance_of(
    generator: str,
    draft: Draft,
    *,
    run_id: str,
    seed: int,
    index: int,
    attempt: int,
    catalog: Catalog,
    **extra: Any,
) -> Provenance:
    """What every generator records of a pair: who made it, from which run, seed, pair, attempt and catalog;
    ``extra`` adds a generator's own fields (prompts, models, call ids)."""
    return Provenance(
        generator=generator,
        generator_version=__version__,
        run_id=run_id,
        seed=seed,
        index=index,
        template=f"{draft.template}#attempt={attempt}",
        catalog_version=catalog.version,
        catalog_sha256=catalog.sha256,
        **extra,
    )


def to_item(
    draft: Draft, ambiguity_type: str, scene: Scene, provenance: Provenance, world: World | None = None
) -> Item:
    """The item of a draft made in ``scene``; ``provenance`` says which generator made it and how; ``world``
    the scene graph and the draft's claims on it (:mod:`ambiforge.generation.grounding`)."""
    short, full = render_environment(scene)
    return Item.model_validate(
        {
            "id": item_id(ambiguity_type, short, draft.unambiguous_direct),
            "environment": environment_of(scene.objects),
            "environment_short": short,
            "environment_full": full,
            "unambiguous_direct": draft.unambiguous_direct,
            "unambiguous_indirect": draft.unambiguous_indirect,
            "ambiguous_task": draft.ambiguous_task,
            "ambiguity_type": ambiguity_type,
            "amb_shortlist": draft.amb_shortlist,
            "question": draft.question,
            "answer": draft.answer,
            "plan_for_clear_task": draft.plan_for_clear_task,
            "plan_for_amb_task": draft.plan_for_amb_task,
            "end_of_ambiguity": draft.end_of_ambiguity,
            "user_intent": draft.user_intent,
            "variants": draft.variants,
            "world": world,
            "frame": draft.frame,
            "provenance": provenance,
        },
        from_attributes=True,
    )
