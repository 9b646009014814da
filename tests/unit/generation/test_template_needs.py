"""What a template needs of a scene (its mechanism's ``needs``): a draw asks only the templates whose scene
holds each object they need, and lays out no graph when none does. That is only the same draw if a template
that offers candidates never lacks one, so a scene's objects are checked against the candidates offered."""

from __future__ import annotations

import random

import pytest

from ambiforge import ambiguity
from ambiforge.generation.grounding import scene_layout
from ambiforge.generation.offline import OfflineGenerator, library


@pytest.mark.parametrize("type_name", [t for t in ambiguity.names() if library.has_templates(t)])
def test_a_template_that_offers_candidates_has_what_it_needs(catalog, type_name: str) -> None:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 5, "t")
    skipped = 0
    for index in range(60):
        scene, _ = gen.steering.scene(random.Random(f"5:{index}:0"), type_name)
        graph = scene_layout(scene, 5, index, 0).graph
        held = catalog.bits_of(scene.objects)
        for spec in library.templates_for(type_name):
            needed = library.needs(spec, catalog)
            offered = library.of_template(spec, scene, catalog, graph)
            if not library.may_offer(needed, held):
                assert not offered, f"{spec.id} offers candidates in a scene without an object it needs"
                skipped += 1
    if type_name in ("safety", "common_sense_knowledge", "preferences"):
        assert skipped, "no template lacks what it needs in these scenes: the test says nothing"


def test_a_partition_needs_a_wrong_and_a_right_member(catalog) -> None:  # type: ignore[no-untyped-def]
    spec = next(s for s in library.templates_for("safety") if s.id.endswith("microwave_container"))
    wrong, right, *_ = library.needs(spec, catalog) or ()
    metal = catalog.objects["metal bowl"]
    glass = catalog.objects["glass bowl"]
    assert wrong & catalog.bits[metal.name] and not right & catalog.bits[metal.name]
    assert right & catalog.bits[glass.name] and not wrong & catalog.bits[glass.name]
