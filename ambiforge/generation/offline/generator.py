"""The offline generator: scene -> candidate pairs of the wanted type -> one draft -> item.

Each pair ``index`` draws from its own ``random.Random(f"{seed}:{index}:{attempt}")``, so a pair does not
depend on how many pairs came before it or on which worker made it: threads, Dask workers and a resumed run
give byte-identical items. An attempt that yields no fitting candidate resamples the scene; after
``max_attempts`` the pair is reported as rejected with the reason, never dropped in silence.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from ambiforge import __version__
from ambiforge.catalog import Catalog, CatalogObject
from ambiforge.environment import SamplerLimits, Scene, render_environment, sample_scene
from ambiforge.errors import GenerationError
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import common_sense, preferences, safety
from ambiforge.generation.offline.templates import Candidate
from ambiforge.models import EnvObject, Item, PromptRef, Provenance
from ambiforge.textnorm import signature

CandidateFinder = Callable[[Scene, Catalog], list[Candidate]]
Requirements = Callable[[], dict[str, list[Callable[[CatalogObject], bool]]]]

#: Where each ambiguity type is generated.
FINDERS: dict[str, CandidateFinder] = {
    "preferences": preferences.candidates,
    "common_sense_knowledge": common_sense.candidates,
    "safety": safety.candidates,
}
REQUIREMENTS: dict[str, Requirements] = {
    "preferences": preferences.requirements,
    "common_sense_knowledge": common_sense.requirements,
    "safety": safety.requirements,
}
TEMPLATE_VERSION = "1"


def env_object(obj: CatalogObject) -> EnvObject:
    """The scene object as stored in an item: the catalog attributes the item schema carries."""
    return EnvObject(**{name: getattr(obj, name) for name in EnvObject.model_fields})


def item_id(ambiguity_type: str, environment_short: str, unambiguous_direct: str) -> str:
    """A content id: the same pair in the same scene gets the same id in any run."""
    digest = hashlib.sha256(f"{ambiguity_type}\n{environment_short}\n{unambiguous_direct}".encode()).hexdigest()
    return f"amb-{digest[:12]}"


def sane(draft: Draft) -> str | None:
    """Why a draft is unfit as a pair, or None. (Full rules live in validation; these are generator bugs.)"""
    if draft.ambiguous_task.strip().lower() == draft.unambiguous_direct.strip().lower():
        return "ambiguous task equals the unambiguous task"
    if draft.plan_for_clear_task == draft.plan_for_amb_task:
        return "the two plans are identical"
    return None


class OfflineGenerator:
    name = "offline"
    parallelism = 1

    def __init__(
        self,
        catalog: Catalog,
        seed: int,
        run_id: str,
        limits: SamplerLimits = SamplerLimits(),  # noqa: B008
        max_attempts: int = 200,
    ) -> None:
        self.catalog, self.seed, self.run_id = catalog, seed, run_id
        self.limits, self.max_attempts = limits, max_attempts
        # For each type and template: for each object it needs, the catalog groups that can supply one.
        self.steering: dict[str, dict[str, list[list[str]]]] = {}
        for ambiguity_type, requirements in REQUIREMENTS.items():
            per_key: dict[str, list[list[str]]] = {}
            for key, predicates in requirements().items():
                groups = [[g.key for g in catalog.groups.values() if any(p(o) for o in g.objects)] for p in predicates]
                if all(groups):
                    per_key[key] = groups
            self.steering[ambiguity_type] = per_key

    def steered_scene(self, rng: random.Random, ambiguity_type: str) -> tuple[Scene, str | None]:
        """A scene that can hold a pair of the type, and the template it was steered towards.

        Template first, then a scene that can hold it: without steering, the templates that fit almost any
        scene ("put the milk away") would crowd out the ones that need a toaster and bread. The LLM
        generator samples its scenes here too, so an LLM is never asked for a preference pair in a kitchen
        without two objects of a kind.
        """
        steering = self.steering[ambiguity_type]
        wanted = sorted(steering)[rng.randrange(len(steering))] if steering else None
        include = [groups[rng.randrange(len(groups))] for groups in steering.get(wanted, [])] if wanted else []
        return sample_scene(self.catalog, rng, self.limits, include=include), wanted

    def draw(self, index: int, ambiguity_type: str, attempt: int) -> tuple[Scene, Draft] | None:
        """One attempt: a scene and a draft of the wanted type, or None when the scene offers none."""
        rng = random.Random(f"{self.seed}:{index}:{attempt}")
        scene, wanted = self.steered_scene(rng, ambiguity_type)
        by_key: dict[str, list[Candidate]] = {}
        for candidate in FINDERS[ambiguity_type](scene, self.catalog):
            by_key.setdefault(candidate.key, []).append(candidate)
        keys = rng.sample(sorted(by_key), min(len(by_key), 8))
        if wanted in by_key:
            keys = [wanted, *(k for k in keys if k != wanted)]
        for key in keys:
            options = by_key[key]
            draft = options[rng.randrange(len(options))].build(rng)
            if isinstance(draft, Draft) and sane(draft) is None:
                return scene, draft
        return None

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
        if ambiguity_type not in FINDERS:
            raise GenerationError(f"pair {index}: unknown ambiguity type {ambiguity_type!r}")
        for attempt in range(first_attempt, first_attempt + self.max_attempts):
            drawn = self.draw(index, ambiguity_type, attempt)
            if drawn is None:
                continue
            scene, draft = drawn
            if taken is not None and signature(draft.unambiguous_direct) in taken:
                continue
            return self.to_item(index, ambiguity_type, attempt, scene, draft), attempt
        raise GenerationError(
            f"pair {index}: no {ambiguity_type} pair found in {self.max_attempts} sampled scenes "
            f"(catalog too small for this type?)"
        )

    def to_item(self, index: int, ambiguity_type: str, attempt: int, scene: Scene, draft: Draft) -> Item:
        short, full = render_environment(scene)
        return Item(
            id=item_id(ambiguity_type, short, draft.unambiguous_direct),
            environment=[env_object(o) for o in scene.objects],
            environment_short=short,
            environment_full=full,
            unambiguous_direct=draft.unambiguous_direct,
            unambiguous_indirect=draft.unambiguous_indirect,
            ambiguous_task=draft.ambiguous_task,
            ambiguity_type=ambiguity_type,  # type: ignore[arg-type]
            amb_shortlist=draft.amb_shortlist,
            question=draft.question,
            answer=draft.answer,
            plan_for_clear_task=draft.plan_for_clear_task,
            plan_for_amb_task=draft.plan_for_amb_task,
            end_of_ambiguity=draft.end_of_ambiguity,
            user_intent=draft.user_intent,
            variants=draft.variants,
            provenance=Provenance(
                generator="offline",
                generator_version=__version__,
                run_id=self.run_id,
                seed=self.seed,
                index=index,
                template=f"{draft.template}#attempt={attempt}",
                catalog_version=self.catalog.version,
                catalog_sha256=self.catalog.sha256,
                prompts=[PromptRef(id=f"offline/{draft.template}", version=TEMPLATE_VERSION)],
            ),
        )
