"""What a template needs of a scene (its mechanism's ``needs``): a draw asks only the templates whose scene
holds each object they need, and lays out no graph when none does. That is only the same draw if a template
that offers candidates never lacks one, so a scene's objects are checked against the candidates offered."""

from __future__ import annotations

import pickle
import random

import pytest

from ambiforge import ambiguity
from ambiforge.catalog.conditions import ANY
from ambiforge.catalog.world import cached_world
from ambiforge.generation.grounding import scene_layout
from ambiforge.generation.offline import OfflineGenerator, library
from ambiforge.world.index import view_of
from ambiforge.world.sampler import node_id, object_node


@pytest.mark.parametrize("type_name", [t for t in ambiguity.names() if library.has_templates(t)])
def test_a_template_that_offers_candidates_passes_its_scene_test(catalog, type_name: str) -> None:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 5, "t")
    tests = {spec.id: library.needs(spec, catalog) for spec in library.templates_for(type_name)}
    skipped = 0
    for index in range(60):
        scene, _ = gen.steering.scene(random.Random(f"5:{index}:0"), type_name)
        graph = scene_layout(scene, 5, index, 0).graph
        held = catalog.bits_of(scene.objects)
        for spec in library.templates_for(type_name):
            test = tests[spec.id]
            if test is not None and not test(held):
                assert not library.of_template(spec, scene, catalog, graph), f"{spec.id} offers in a failing scene"
                skipped += 1
    if type_name in ("safety", "common_sense_knowledge", "preferences"):
        assert skipped, "every template passes in these scenes: the test says nothing"


def test_a_partition_needs_a_wrong_and_a_right_member_of_one_noun(catalog) -> None:  # type: ignore[no-untyped-def]
    spec = next(s for s in library.templates_for("safety") if s.id.endswith("microwave_container"))
    test = library.needs(spec, catalog)
    assert test is not None
    food = next(o for o in catalog.objects.values() if o.has("heatable"))
    metal, glass = catalog.objects["metal bowl"], catalog.objects["glass bowl"]
    assert test(catalog.bits_of([metal, glass, food]))
    assert not test(catalog.bits_of([glass, food]))  # no wrong one
    assert not test(catalog.bits_of([metal, food]))  # no right one
    assert not test(catalog.bits_of([metal, glass]))  # nothing to heat


def test_a_template_reads_the_same_of_a_catalog_object_and_of_its_node(catalog) -> None:  # type: ignore[no-untyped-def]
    """The scene tests read the catalog's objects, the candidate searches the graph's nodes: the same
    answer for every object and every condition a template needs, or a test could leave out a scene that
    has candidates."""
    world = cached_world()
    views = {name: view_of(object_node(obj, node_id(name), world)) for name, obj in catalog.objects.items()}
    conditions = {
        c.key: c
        for t in ambiguity.names()
        if library.has_templates(t)
        for spec in library.templates_for(t)
        for c in [*spec.requirements(), spec.target, *(getattr(spec, "safe", None) or ANY,)]
    }
    for condition in conditions.values():
        for name, obj in catalog.objects.items():
            assert condition.matches(obj) == condition.matches(views[name]), (name, condition)


def test_a_catalog_whose_templates_were_read_for_their_needs_still_pickles(catalog) -> None:  # type: ignore[no-untyped-def]
    for t in ambiguity.names():
        if library.has_templates(t):
            for spec in library.templates_for(t):
                library.needs(spec, catalog)
    copy = pickle.loads(pickle.dumps(catalog))
    spec = next(s for s in library.templates_for("safety") if s.id.endswith("microwave_container"))
    held = catalog.bits_of([catalog.objects["metal bowl"], catalog.objects["glass bowl"]])
    food = next(o for o in catalog.objects.values() if o.has("heatable"))
    held |= catalog.bits[food.name]
    assert library.needs(spec, copy)(held) and library.needs(spec, catalog)(held)  # type: ignore[misc]
