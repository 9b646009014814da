from __future__ import annotations

import random
from collections import Counter

import pytest

from ambiforge.catalog import CatalogObject
from ambiforge.environment import indefinite, render_environment, sample_scene, with_article


def obj(name: str, **kw: object) -> CatalogObject:
    return CatalogObject(name=name, group="g", kind="food", noun="x", modifier=name, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(40))
def test_scene_respects_group_counts_and_per_group_minimum(catalog, seed: int) -> None:
    scene = sample_scene(catalog, random.Random(seed))
    per_group = Counter(o.group for o in scene.objects)
    kinds = Counter(catalog.groups[g].kind for g in per_group)
    assert 2 <= kinds["food"] <= 5
    assert 2 <= kinds["kitchen_item"] <= 5
    for group, n in per_group.items():
        assert min(3, len(catalog.groups[group].objects)) <= n <= 5
    assert len(set(scene.names())) == len(scene.names())


def test_same_seed_same_scene_and_different_seeds_differ(catalog) -> None:
    a = sample_scene(catalog, random.Random("7:1"))
    b = sample_scene(catalog, random.Random("7:1"))
    c = sample_scene(catalog, random.Random("7:2"))
    assert a == b
    assert a != c


def test_include_forces_a_group_in(catalog) -> None:
    for seed in range(20):
        scene = sample_scene(catalog, random.Random(seed), include=["knives", "breads"])
        assert {"knives", "breads"} <= set(scene.groups())


@pytest.mark.parametrize(
    ("name", "kw", "expected"),
    [
        ("glass mug", {}, "a glass mug"),
        ("apple", {}, "an apple"),
        ("espresso cup", {}, "an espresso cup"),
        ("honey", {"mass": True}, "honey"),
        ("oven mitts", {"plural": True}, "oven mitts"),
        ("heirloom tomato", {"article": "an"}, "an heirloom tomato"),
        ("unicorn mug", {}, "a unicorn mug"),
        ("hour glass", {}, "an hour glass"),
        ("european plate", {}, "a european plate"),
    ],
)
def test_articles(name: str, kw: dict[str, object], expected: str) -> None:
    assert with_article(obj(name, **kw)) == expected


def test_indefinite_rule() -> None:
    assert indefinite("onion") == "an"
    assert indefinite("knife") == "a"
    assert indefinite("utensil") == "a"


def test_environment_rendering_uses_catalog_articles(catalog) -> None:
    from ambiforge.environment import Scene

    scene = Scene(tuple(catalog.objects[n] for n in ["glass mug", "acacia honey", "oven mitts", "red apple"]))
    short, full = render_environment(scene)
    assert short == "glass mug, acacia honey, oven mitts, red apple"
    assert full == "a glass mug, acacia honey, oven mitts, a red apple"
