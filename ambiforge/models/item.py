"""The item model. Field names follow AmbiK where AmbiK has one, so export to its CSV is a rename-free map.

Plans are lists of step texts without numbers (numbering is a rendering concern: the AmbiK CSV gets
"1. ..." lines). ``user_intent`` is a list of concepts: ``a|b`` means either alternative, ``-x`` means x must
not appear in the correct action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ambiforge import ambiguity
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import SceneGraph, nodes_spliced

if TYPE_CHECKING:
    from pydantic.main import IncEx


def _registered(name: str) -> str:
    if name not in ambiguity.names():
        raise ValueError(f"unknown ambiguity type {name!r} (known: {', '.join(ambiguity.names())})")
    return name


def _type_enum(schema: dict[str, Any]) -> None:
    """The JSON Schema lists the types registered when it is generated."""
    schema["enum"] = list(ambiguity.names())


#: An ambiguity type's name, checked against the registry (:mod:`ambiforge.ambiguity`) on validation.
AmbiguityTypeName = Annotated[
    str,
    AfterValidator(_registered),
    Field(json_schema_extra=_type_enum, description="a registered ambiguity type"),
]
Severity = Literal["error", "warning"]
Verdict = Literal["accept", "accept_with_fixes", "reject"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EnvObject(_Strict):
    """An object in the scene. Catalog objects carry their attributes; imported free text has only a name."""

    # Frozen: it says only what its catalog object says, so a build's items share one per catalog object
    # (:func:`ambiforge.environment.objects.environment_of`).
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    group: str | None = Field(default=None, description="catalog group, None for free-text objects")
    kind: Literal["food", "kitchen_item"] | None = None
    noun: str | None = Field(default=None, description="generic noun of the group ('mug')")
    material: str | None = None
    microwave_safe: bool | None = None
    oven_safe: bool | None = None
    dishwasher_safe: bool | None = None
    heat_resistant: bool | None = None
    sharp: bool | None = None
    needs_refrigeration: bool | None = None
    clean: bool | None = None


class PromptRef(_Strict):
    id: str
    version: str


class StepModel(_Strict):
    step: str
    provider: str
    model: str


class Provenance(_Strict):
    """How the item was made; enough to reproduce it (seed, run, prompts, catalog)."""

    generator: str = Field(description="'offline', 'llm' or 'import'")
    generator_version: str
    run_id: str
    seed: int | None = None
    index: int | None = Field(default=None, description="position of the pair in its run")
    template: str | None = Field(default=None, description="offline template or LLM candidate key")
    catalog_version: str | None = None
    catalog_sha256: str | None = None
    models: list[StepModel] = Field(default_factory=list)
    prompts: list[PromptRef] = Field(default_factory=list)
    call_ids: list[str] = Field(default_factory=list)


class RuleFailure(_Strict):
    rule: str
    severity: Severity
    message: str


class Validation(_Strict):
    passed: bool
    failed: list[RuleFailure] = Field(default_factory=list)


class Annotation(_Strict):
    """One annotator's judgement of one item, as pulled from Label Studio."""

    annotator: str
    verdict: Verdict | None = None
    ambiguity_type: AmbiguityTypeName | None = None
    failed_checks: list[str] = Field(default_factory=list)
    corrections: dict[str, str] = Field(default_factory=dict)
    task_id: int | None = None
    annotation_id: int | None = None


class AppliedCorrection(_Strict):
    field: str
    value: str
    annotators: list[str]


class Review(_Strict):
    """Outcome of human review: status, majority decision and the corrections applied (with who made them)."""

    status: Literal["pending", "unanimous", "majority", "split", "adjudicated"] = "pending"
    verdict: Verdict | None = None
    ambiguity_type: AmbiguityTypeName | None = None
    annotations: list[Annotation] = Field(default_factory=list)
    applied_corrections: list[AppliedCorrection] = Field(default_factory=list)
    queued_for_adjudication: bool = False
    adjudicated_by: str | None = None


class JudgeFlag(_Strict):
    """A semantic check the judge failed (``ambiforge.judge.checks``), with the severity configured in
    ``[judge] severity``."""

    check: str
    severity: Severity
    message: str


class HalfJudgement(_Strict):
    """The debates on one half of a pair (the ambiguous task or the clear one)."""

    verdict: Literal["ambiguous", "clear"] | None = Field(
        default=None, description="the majority of the debates' verdicts; None when no debate gave one"
    )
    debates: int = Field(default=0, ge=0, description="debates run (one per leader)")
    judged_ambiguous: int = Field(default=0, ge=0, description="debates whose final verdict was ambiguous")
    judged_clear: int = Field(default=0, ge=0, description="debates whose final verdict was clear")
    consensus: int = Field(default=0, ge=0, description="debates that ended in consensus")


class DialogueCheck(_Strict):
    """The item's own question put to the simulated user."""

    reply_kind: str | None = Field(default=None, description="gold, redirect, confirmation... (None on error)")
    gets_gold: bool | None = None
    resolves_step: bool | None = None


class Judgement(_Strict):
    """The judge stage's verdicts on a pair (``[judge]``): debates over both halves and the simulated
    user's reply to the item's question. The full transcripts are in ``raw/<run-id>/judgements.jsonl``."""

    methods: list[str] = Field(default_factory=list, description="debate, dialogue")
    provider: str = ""
    models: list[str] = Field(default_factory=list, description="the debating agents' models")
    personas: list[str] = Field(
        default_factory=list, description="the agents' persona texts, one per model in order (empty: none)"
    )
    rounds: int = Field(default=5, ge=1, description="the round limit of a debate")
    ambiguous_task: HalfJudgement | None = None
    clear_task: HalfJudgement | None = None
    dialogue: DialogueCheck | None = None
    flags: list[JudgeFlag] = Field(default_factory=list)


class AgentView(_Strict):
    """What one agent sees: the node ids in its part of the kitchen (the shared counter in both views)."""

    agent: str = Field(min_length=1, description="'robot' (the asking agent) or 'robot_b' (the other)")
    nodes: list[str] = Field(default_factory=list)


class Perturbation(_Strict):
    """Environment-induced ambiguity: the instruction stays the same and the *environment* changes. ``graph``
    is the perturbed kitchen (the ambiguous item's); the item's ``world.graph`` stays the clear one."""

    kind: Literal["multiplicity", "absence", "reference", "observation"]
    graph: SceneGraph
    added: list[str] = Field(default_factory=list, description="node ids the perturbation adds")
    removed: list[str] = Field(default_factory=list, description="node ids the perturbation removes")
    moved: list[str] = Field(default_factory=list, description="node ids the perturbation puts elsewhere")
    referent: str = Field(default="", description="the instruction's referent as words ('the mug left of the kettle')")
    views: list[AgentView] = Field(
        default_factory=list, description="observation: each agent's view of the perturbed graph"
    )
    environment_short: str = Field(
        default="",
        description="the changed kitchen as the item's environment_short is written (observation: what the asking "
        "robot sees); '' when not made (older items)",
    )
    environment_full: str = Field(default="", description="the same with articles, as environment_full")


LeftOutReason = Literal["dirty", "broken", "unsafe", "unable"]


class LeftOut(_Strict):
    """An object the ambiguous words pick out that is not a right choice, and why: a reader checks each
    reason against the kitchen, and a candidate left out with no reason is a missing variant."""

    node: str = Field(min_length=1, description="node id of the object left out")
    reason: LeftOutReason = Field(
        description="dirty (marked dirty), broken, unsafe (the job would be unsafe with it: not oven-safe, "
        "too sharp for a child) or unable (it cannot do the job: a julienne peeler does not peel)"
    )
    detail: str = Field(default="", description="the reason in words: 'is not oven-safe', 'cannot peel'")


class World(_Strict):
    """The item's kitchen as a scene graph, and what the item claims about it (``docs/world-model.md``).

    The ambiguous plan is not stored as actions: it is the clear plan with the target left open, so the
    plan under each candidate is the clear plan with ``target`` replaced by that candidate, and the end of
    ambiguity is the first step whose arguments change (:func:`ambiforge.world.end_of_ambiguity`).
    """

    graph: SceneGraph
    target: str | None = Field(default=None, description="node id the ambiguous referent means (the intent)")
    candidates: list[str] = Field(
        default_factory=list,
        description="node ids the ambiguous referent fits in this kitchen (target included); "
        "a preference item's shortlist, a common-sense or safety item's candidates before knowledge filters",
    )
    affordance: str | None = Field(
        default=None,
        description="the action the job needs (catalog/affordances.yaml: peel, grate...) that selects the "
        "fitting candidates; None: any candidate fits (preferences) or the item names no job",
    )
    fitting: list[str] = Field(
        default_factory=list,
        description="node ids among the candidates that are correct choices (the affordance-filtered set): "
        "a common-sense or safety item's variants",
    )
    left_out: list[LeftOut] = Field(
        default_factory=list,
        description="the objects the ambiguous words pick out that are not right choices, each with its reason "
        "(a common-sense or safety item); empty: none left out or not known (imported, LLM)",
    )
    rationale: str | None = Field(
        default=None,
        description="a common-sense item: why common sense picks the intended one ('the bread knife is the "
        "knife made for slicing bread'); None: not a common-sense item or not known",
    )
    clear_plan: list[Action] = Field(
        default_factory=list, description="the clear plan as actions on graph nodes; empty: not known (imported)"
    )
    perturbation: Perturbation | None = Field(
        default=None, description="environment-induced types: the perturbed kitchen the ambiguous task is set in"
    )


TimeOfDay = Literal["morning", "afternoon", "evening"]
Occasion = Literal["everyday", "breakfast", "lunch", "dinner", "guests", "party"]
Speaker = Literal["adult", "parent", "student"]
Needed = Literal["now", "soon", "later"]


class Frame(_Strict):
    """The one moment and the one speaker a task is said by (docs/generation.md, "The discourse frame").

    Every time reference, greeting and context phrase of the item's tasks agrees with these values: they are
    the item's tags (``time:morning``...), and the phrase library's list of incompatible tags says which of
    them no item may carry together.
    """

    time: TimeOfDay = Field(description="when the task is said")
    occasion: Occasion = Field(description="the meal or occasion the task is part of ('everyday': none)")
    speaker: Speaker = Field(description="who asks: an adult, a parent (children at home), a student")
    needed: Needed = Field(description="when the result is needed: now, soon, or later (planned ahead)")

    def tags(self) -> tuple[str, ...]:
        """The frame as tags, ``dimension:value``."""
        return tuple(f"{name}:{getattr(self, name)}" for name in type(self).model_fields)


class Item(_Strict):
    """One minimal pair: an unambiguous task and its ambiguous rewrite in one environment."""

    id: str = Field(min_length=1, description="stable id")
    environment: list[EnvObject] = Field(min_length=1, description="objects in the scene (appliances implicit)")
    environment_short: str = Field(min_length=1, description="comma list of objects without articles")
    environment_full: str = Field(description="comma list of objects with articles")
    unambiguous_direct: str = Field(min_length=1, description="task naming objects exactly")
    unambiguous_indirect: str = Field(default="", description="same task paraphrased ('' when unknown)")
    ambiguous_task: str = Field(min_length=1, description="minimal rewrite that is ambiguous in this scene")
    ambiguity_type: AmbiguityTypeName
    amb_shortlist: list[str] = Field(
        default_factory=list,
        description="types with a shortlist (preferences over objects): the >=2 scene objects to choose from",
    )
    # Empty text and plans are representable (a published file may have empty cells); the validation
    # rules, not the schema, judge them, so an audit reports them per row instead of refusing the file.
    question: str = Field(description="clarifying question")
    answer: str = Field(description="answer that resolves the ambiguity")
    plan_for_clear_task: list[str] = Field(description="steps for the unambiguous task")
    plan_for_amb_task: list[str] = Field(description="steps for the ambiguous task")
    # The bound is far beyond any plan, and keeps the value within Parquet's int64 (1e30 did not fit).
    end_of_ambiguity: int = Field(ge=0, le=10_000, description="0-based plan step where the ambiguity starts")
    user_intent: list[str] = Field(
        default_factory=list,
        description="concepts the correct action must contain; a|b alternatives, -x never",
    )
    variants: list[str] = Field(default_factory=list, description="correct options before disambiguation")
    world: World | None = Field(
        default=None, description="scene graph and the item's claims about it; None: made without a world model"
    )
    frame: Frame | None = Field(
        default=None,
        description="the moment and speaker the tasks are said by (time, occasion, who asks, when needed); "
        "None: not drawn (imported or LLM items, items made before the frame was recorded)",
    )
    provenance: Provenance
    validation: Validation | None = None
    review: Review | None = None
    judgement: Judgement | None = Field(default=None, description="the judge stage's verdicts; None when not judged")
    extra: dict[str, str] = Field(
        default_factory=dict, description="columns of an imported file that ambiforge has no field for"
    )

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready dict with a stable key order (the model's field order): ``model_dump(mode="json")``,
        with the scene graphs' nodes in their JSON forms made once per node (:meth:`Node.json_record`; most
        of a record's bytes, and the same few hundred nodes recur across a build's kitchens)."""
        world = self.world
        if world is None:
            return self.model_dump(mode="json")
        record = self.model_dump(mode="json", exclude=_GRAPH_NODES)
        dumped = record["world"]
        dumped["graph"] = nodes_spliced(dumped["graph"], world.graph)
        if world.perturbation is not None:
            dumped["perturbation"]["graph"] = nodes_spliced(dumped["perturbation"]["graph"], world.perturbation.graph)
        return record


_GRAPH_NODES = cast("IncEx", {"world": {"graph": {"nodes": True}, "perturbation": {"graph": {"nodes": True}}}})
