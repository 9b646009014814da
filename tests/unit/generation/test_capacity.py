"""The up-front estimate of how many distinct tasks the catalog and templates can make."""

from __future__ import annotations

import dataclasses

from ambiforge.ambiguity import default_mix
from ambiforge.generation.offline import capacity


def test_each_type_can_make_far_more_than_100000_distinct_tasks(catalog) -> None:
    for name in default_mix():
        assert capacity.type_capacity(catalog, name) > 1_000_000


def test_the_estimate_grows_with_the_catalog(catalog) -> None:
    half = dict(list(catalog.objects.items())[::2])
    smaller = dataclasses.replace(catalog, objects=half)
    assert capacity.context_space(smaller) < capacity.context_space(catalog)
    assert capacity.type_capacity(smaller, "preferences") < capacity.type_capacity(catalog, "preferences")


def test_shortfall_says_so_with_the_estimate(catalog) -> None:
    assert capacity.shortfall(50_000, default_mix(), catalog) is None
    huge = 10**30
    message = capacity.shortfall(huge, {"safety": 1.0}, catalog)
    assert message is not None
    assert str(capacity.type_capacity(catalog, "safety")) in message and "safety" in message
