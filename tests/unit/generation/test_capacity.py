"""The up-front estimate of how many distinct tasks the catalog and templates can make."""

from __future__ import annotations

import dataclasses

import pytest

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


ENVIRONMENT = {"multiplicity": 0.25, "absence": 0.25, "reference": 0.25, "observation": 0.25}


def test_the_environment_types_that_say_the_same_sentences_share_one_pool(catalog) -> None:
    pools = {tuple(group): (wanted, cap) for group, wanted, cap in capacity.estimates(2000, ENVIRONMENT, catalog)}
    shared = pools[("multiplicity", "absence", "observation")]
    assert shared[0] == 1500 and shared[1] >= 2 * 1500  # room enough that a 2,000-pair build finds 1,500
    assert pools[("reference",)][1] > 10 * 500
    listed = capacity.type_pool(catalog, "absence")
    assert isinstance(listed, frozenset) and listed == capacity.type_pool(catalog, "observation")
    assert (
        capacity.shortfall(2000, ENVIRONMENT, catalog) is None
        and capacity.impossible(2000, ENVIRONMENT, catalog) is None
    )


def test_a_mix_a_pool_cannot_hold_is_refused_before_generating_naming_the_types(catalog, tmp_path) -> None:
    mugs = {name: o for name, o in catalog.objects.items() if o.group == "mugs"}
    tiny = dataclasses.replace(catalog, objects=mugs)
    message = capacity.impossible(100, {"absence": 1.0, "preferences": 0.0}, tiny)
    assert message is not None and "absence: 100 pairs wanted, only about" in message
    assert str(capacity.type_capacity(tiny, "absence")) in message

    from ambiforge.config.build import BuildOptions
    from ambiforge.config.file import Config
    from ambiforge.engine.build_checks import preflight
    from ambiforge.errors import GenerationError

    options = BuildOptions(provider="offline", pairs=20_000, type_mix=ENVIRONMENT, out=str(tmp_path / "raw"))
    with pytest.raises(GenerationError) as refused:
        preflight(options, Config())
    assert refused.value.exit_code == 1
    assert "multiplicity+absence+observation: 15000 pairs wanted" in str(refused.value)
    assert not (tmp_path / "raw").exists()
