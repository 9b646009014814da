"""The offline generator: steered scene -> candidate pairs from the type's templates -> one draft -> item.

Each pair ``index`` draws from its own ``random.Random(f"{seed}:{index}:{attempt}")``, so a pair does not
depend on how many pairs came before it or on which worker made it: threads, Dask workers and a resumed run
give byte-identical items. An attempt that yields no fitting candidate resamples the scene; after
``max_attempts`` the pair is reported as rejected with the reason, never dropped in silence.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ambiforge import ambiguity
from ambiforge.catalog import Catalog
from ambiforge.config.sampler import SamplerConfig
from ambiforge.environment import Scene, SceneSteering
from ambiforge.errors import GenerationError
from ambiforge.generation.draft import Draft, provenance_of, to_item
from ambiforge.generation.grounding import scene_layout, world_of
from ambiforge.generation.offline import library, phrases, planning, referents
from ambiforge.generation.offline.composition import compose
from ambiforge.generation.offline.mechanisms.base import SceneTest
from ambiforge.generation.offline.rendering import Candidate
from ambiforge.generation.offline.spec import TemplateSpec
from ambiforge.models import Item, PromptRef
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.textnorm import signature
from ambiforge.world.sampler import place

TEMPLATE_VERSION = "1"
#: Templates with candidates tried per sampled scene before the scene is resampled.
_TRIES = 8
#: A type's templates by id, their ids sorted, and each id with what it needs (:func:`library.needs`).
_Templates = tuple[dict[str, TemplateSpec], list[str], tuple[tuple[str, SceneTest | None], ...]]


def sane(draft: Draft) -> str | None:
    """Why a draft is unfit as a pair, or None. (Full rules live in validation; these are generator bugs.)"""
    perturbed = draft.world is not None and draft.world.perturbation is not None
    if not perturbed and draft.ambiguous_task.strip().lower() == draft.unambiguous_direct.strip().lower():
        return "ambiguous task equals the unambiguous task"
    if draft.plan_for_clear_task == draft.plan_for_amb_task:
        return "the two plans are identical"
    return None


def scene_steering(catalog: Catalog, limits: SamplerConfig = SamplerConfig()) -> SceneSteering:  # noqa: B008
    """Scene steering from the registered types' offline templates (the LLM generator samples here too)."""
    return SceneSteering(catalog, library.requirements, limits)


class OfflineGenerator:
    name = "offline"
    parallelism = 1

    def __init__(
        self,
        catalog: Catalog,
        seed: int,
        run_id: str,
        limits: SamplerConfig = SamplerConfig(),  # noqa: B008
        max_attempts: int = 200,
    ) -> None:
        self.catalog, self.seed, self.run_id = catalog, seed, run_id
        self.limits, self.max_attempts = limits, max_attempts
        self.steering = scene_steering(catalog, limits)
        #: Drafts refused because their plan could not be grounded or run, by reason (named in the
        #: error of a pair that finds no other draft, so the run's rejected.jsonl says why).
        self.refused: Counter[str] = Counter()
        #: Per type: its templates by id, their ids sorted, and each id with what the template needs of a
        #: scene (:func:`library.needs`, for this catalog): worked out once, not once per draw.
        self._templates: dict[str, _Templates] = {}

    def draw(
        self, index: int, ambiguity_type: str, attempt: int
    ) -> tuple[Scene, SceneGraph, Draft, list[Action]] | None:
        """One attempt: a scene, its graph and a draft of the wanted type, or None when the scene offers none."""
        rng = random.Random(f"{self.seed}:{index}:{attempt}")
        scene, wanted = self.steering.scene(rng, ambiguity_type)
        specs, ids, needs = self._templates_of(ambiguity_type)
        # Only the templates whose scene holds every object they need can offer candidates; when none
        # can, the draw yields nothing, and it stops before laying out a graph.
        held = self.catalog.bits_of(scene.objects)
        asked = {key for key, test in needs if test is None or test(held)}
        if not asked:
            return None
        # Templates ask who is in the kitchen; where things stand is placed for the first draft composed.
        layout = scene_layout(scene, self.seed, index, attempt)
        referents.holds(layout.graph, held)
        graph: SceneGraph | None = None
        # Templates in a random order (the one the scene was steered for first), each asked for its
        # candidates only when reached; up to eight that offer any are tried. This is the same choice as
        # sampling eight of the templates that offer candidates, without asking every template first.
        keys = rng.sample(ids, len(ids))
        if wanted in specs:
            keys = [wanted, *(k for k in keys if k != wanted)]
        offered: dict[str, list[Candidate]] = {}

        def options_of(key: str) -> list[Candidate]:
            known = offered.get(key)
            if known is None:
                known = offered[key] = (
                    library.of_template(specs[key], scene, self.catalog, layout.graph) if key in asked else []
                )
            return known

        tried = 0
        for position, key in enumerate(keys):
            if tried == _TRIES:
                break
            options = options_of(key)
            if not options:
                continue
            tried += 1
            draft = rng.choice(options).build(rng)
            if not isinstance(draft, Draft):
                continue
            if draft.world is not None:  # a perturbed kitchen grounded itself: one clause, the world's plan
                draft.frame = phrases.draw_frame(rng, draft.ambiguous_task)
                if sane(draft) is None:
                    return draft.scene or scene, draft.world.graph, draft, draft.world.clear_plan
                continue
            if graph is None:
                graph = place(layout)
            doomed = planning.idle_from_the_start(draft, graph)
            if doomed is not None and (tried == _TRIES or not any(options_of(k) for k in keys[position + 1 :])):
                # refused whatever composition adds, and no template after it offers anything: the draw
                # yields nothing, so it stops here (composing would only draw from a stream no one reads)
                self.refused[f"{draft.template}: {doomed}"] += 1
                return None
            draft = compose(draft, scene, self.catalog, rng, graph=graph, in_scene=held)
            planned = planning.plan(draft, graph, self.catalog)
            if isinstance(planned, str):
                self.refused[f"{draft.template}: {planned}"] += 1
                continue
            if sane(planned.draft) is None:
                return scene, planned.graph, planned.draft, planned.clear_plan
        return None

    def _templates_of(self, ambiguity_type: str) -> _Templates:
        known = self._templates.get(ambiguity_type)
        if known is None:
            specs = {spec.id: spec for spec in library.templates_for(ambiguity_type)}
            needs = tuple((key, library.needs(spec, self.catalog)) for key, spec in specs.items())
            known = self._templates[ambiguity_type] = (specs, sorted(specs), needs)
        return known

    def generate_outcome(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int, dict[str, Any]]:
        item, attempt = self.generate(index, ambiguity_type, taken, first_attempt)
        return item, attempt, {}

    def generate(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int]:
        """The pair at ``index`` and the attempt that made it; skips tasks whose signature
        (:func:`ambiforge.textnorm.signature`) is in ``taken``."""
        if ambiguity_type not in self._templates:
            if ambiguity_type not in ambiguity.names():
                raise GenerationError(f"pair {index}: unknown ambiguity type {ambiguity_type!r}")
            if not library.has_templates(ambiguity_type):
                raise GenerationError(f"pair {index}: ambiguity type {ambiguity_type!r} has no offline templates")
            self._templates_of(ambiguity_type)
        for attempt in range(first_attempt, first_attempt + self.max_attempts):
            drawn = self.draw(index, ambiguity_type, attempt)
            if drawn is None:
                continue
            scene, graph, draft, clear_plan = drawn
            if taken is not None and signature(draft.unambiguous_direct) in taken:
                continue
            return self.to_item(index, ambiguity_type, attempt, scene, draft, graph, clear_plan), attempt
        refused = "; ".join(f"{reason} ({n}x)" for reason, n in self.refused.most_common(3))
        raise GenerationError(
            f"pair {index}: no {ambiguity_type} pair found in {self.max_attempts} sampled scenes "
            f"(catalog too small for this type?)" + (f"; drafts refused: {refused}" if refused else "")
        )

    def to_item(
        self,
        index: int,
        ambiguity_type: str,
        attempt: int,
        scene: Scene,
        draft: Draft,
        graph: SceneGraph,
        clear_plan: list[Action],
    ) -> Item:
        provenance = provenance_of(
            "offline",
            draft,
            run_id=self.run_id,
            seed=self.seed,
            index=index,
            attempt=attempt,
            catalog=self.catalog,
            prompts=[PromptRef(id=f"offline/{draft.template}", version=TEMPLATE_VERSION)],
        )
        world = draft.world
        if world is None:
            world = world_of(
                graph,
                target=draft.target,
                candidates=draft.candidates,
                fitting=draft.fitting,
                affordance=draft.affordance,
                left_out=draft.left_out,
                rationale=draft.rationale,
                clear_plan=clear_plan,
            )
        return to_item(draft, ambiguity_type, scene, provenance, world)
