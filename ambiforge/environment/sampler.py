"""Seeded sampling of scenes.

A scene takes 2 to 5 food groups and 2 to 5 kitchen-item groups and, from each, 3 to 5 objects (all of a
smaller group): the defaults of ``[sampler]`` (:class:`~ambiforge.config.sampler.SamplerConfig`). Several
objects of one group are what make a task ambiguous ("a mug" among three mugs), so a group is never
represented by a single object. Randomness comes only from the ``random.Random`` passed
in, so a seed fixes the scene.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from ambiforge.catalog import Catalog, CatalogObject
from ambiforge.config.sampler import SamplerConfig
from ambiforge.environment.articles import with_article


@dataclass(frozen=True)
class Scene:
    """The sampled objects, grouped by catalog group in the order they are listed."""

    objects: tuple[CatalogObject, ...]

    @cached_property
    def _by_group(self) -> dict[str, tuple[CatalogObject, ...]]:
        """Objects per group, in scene order (generators ask for every group once per template)."""
        out: dict[str, list[CatalogObject]] = {}
        for o in self.objects:
            out.setdefault(o.group, []).append(o)
        return {g: tuple(objs) for g, objs in out.items()}

    def in_group(self, group: str) -> list[CatalogObject]:
        return list(self._by_group.get(group, ()))

    def groups(self) -> list[str]:
        return list(self._by_group)

    def with_tag(self, tag: str) -> list[CatalogObject]:
        return [o for o in self.objects if o.has(tag)]

    def names(self) -> list[str]:
        return [o.name for o in self.objects]


def _pick_groups(rng: random.Random, keys: list[str], bounds: tuple[int, int], include: Sequence[str]) -> list[str]:
    wanted = [k for k in include if k in keys]
    n = max(rng.randint(*bounds), len(wanted))
    rest = [k for k in keys if k not in wanted]
    return wanted + rng.sample(rest, min(len(rest), max(0, n - len(wanted))))


def sample_scene(
    catalog: Catalog,
    rng: random.Random,
    limits: SamplerConfig = SamplerConfig(),  # noqa: B008 - frozen model, safe default
    include: Sequence[str] = (),
) -> Scene:
    """Sample one scene; ``include`` forces groups in (a generator that needs, say, knives)."""
    food = _pick_groups(rng, list(catalog.group_keys("food")), limits.food_groups, include)
    items = _pick_groups(rng, list(catalog.group_keys("kitchen_item")), limits.item_groups, include)
    chosen = food + items
    rng.shuffle(chosen)
    objects: list[CatalogObject] = []
    for key in chosen:
        members = catalog.groups[key].objects
        k = min(len(members), rng.randint(*limits.per_group))
        objects.extend([members[i] for i in sorted(rng.sample(range(len(members)), k))])  # in group order
    return Scene(tuple(objects))


def render_environment(scene: Scene) -> tuple[str, str]:
    """``(environment_short, environment_full)``: the comma lists without and with articles."""
    return ", ".join([o.name for o in scene.objects]), ", ".join([with_article(o) for o in scene.objects])
