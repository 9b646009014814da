"""LAP's context affordance: an option is feasible in context when every object it names is in the scene.

"Names an object" means: one of the catalog's object names, or a scene object, appears in the option text
(longest names first, so "glass mug" is not also read as "mug"). Words that are no known object are not
judged: an option about an unknown thing keeps affordance 1, so the check never punishes wording.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ambiforge.models.intent import fold


@lru_cache(maxsize=1)
def catalog_names() -> frozenset[str]:
    from ambiforge.catalog import cached_catalog

    return frozenset(fold(n) for n in cached_catalog("").objects)


def named_objects(option: str, vocabulary: Iterable[str]) -> set[str]:
    text = f" {fold(option)} "
    named: set[str] = set()
    for name in sorted(vocabulary, key=len, reverse=True):
        token = f" {name} "
        if name and token in text:
            named.add(name)
            text = text.replace(token, "  ")
    return named


def context_affordance(option: str, scene: Iterable[str], vocabulary: Iterable[str] | None = None) -> float:
    scene_names = {fold(s) for s in scene}
    vocab = set(vocabulary if vocabulary is not None else catalog_names()) | scene_names
    named = named_objects(option.rstrip("."), vocab)
    return 1.0 if named <= scene_names else 0.0
