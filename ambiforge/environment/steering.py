"""Scene steering: sample a scene that can hold a pair of the wanted ambiguity type.

Template first, then a scene that can hold it: without steering, the templates that fit almost any scene
("put the milk away") would crowd out the ones that need a toaster and bread, and an LLM would be asked
for a preference pair in a kitchen without two objects of a kind. What each template needs comes from the
types' templates (``requirements``: per template id, one predicate per object it needs); this module only
turns that into catalog groups to force into the scene.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence

from ambiforge.catalog import Catalog, CatalogObject
from ambiforge.config.sampler import SamplerConfig
from ambiforge.environment.sampler import Scene, sample_scene

Requirement = Callable[[CatalogObject], bool]
RequirementsOf = Callable[[str], Mapping[str, Sequence[Requirement]]]


class SceneSteering:
    def __init__(
        self,
        catalog: Catalog,
        requirements: RequirementsOf,
        limits: SamplerConfig = SamplerConfig(),  # noqa: B008 - frozen model, safe default
    ) -> None:
        self.catalog, self.requirements, self.limits = catalog, requirements, limits
        self._plans: dict[str, dict[str, list[list[str]]]] = {}
        self._lock = threading.Lock()

    def plan(self, ambiguity_type: str) -> dict[str, list[list[str]]]:
        """Per template the catalog can serve: for each object it needs, the groups that can supply one."""
        with self._lock:
            if ambiguity_type not in self._plans:
                per_key: dict[str, list[list[str]]] = {}
                for key, predicates in self.requirements(ambiguity_type).items():
                    groups = [
                        [g.key for g in self.catalog.groups.values() if any(p(o) for o in g.objects)]
                        for p in predicates
                    ]
                    if all(groups):
                        per_key[key] = groups
                self._plans[ambiguity_type] = per_key
            return self._plans[ambiguity_type]

    def scene(self, rng: random.Random, ambiguity_type: str) -> tuple[Scene, str | None]:
        """A scene that can hold a pair of the type, and the template it was steered towards (None when the
        type has no templates: then any scene)."""
        plan = self.plan(ambiguity_type)
        wanted = sorted(plan)[rng.randrange(len(plan))] if plan else None
        include = [rng.choice(groups) for groups in plan.get(wanted, [])] if wanted else []
        return sample_scene(self.catalog, rng, self.limits, include=include), wanted
