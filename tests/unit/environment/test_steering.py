"""Scene steering: scenes hold what the wanted template needs; types without templates get any scene."""

from __future__ import annotations

import random

from ambiforge.environment import SceneSteering


def requirements(ambiguity_type: str) -> dict[str, list]:  # type: ignore[type-arg]
    if ambiguity_type == "bread":
        return {
            "bread/slice": [lambda o: "slice_bread" in o.uses, lambda o: o.group == "breads"],
            "bread/impossible": [lambda o: o.name == "golden unicorn"],
        }
    return {}


def test_steered_scenes_hold_every_object_the_template_needs(catalog) -> None:
    steering = SceneSteering(catalog, requirements)
    assert set(steering.plan("bread")) == {"bread/slice"}  # a template the catalog cannot serve is dropped
    for seed in range(20):
        scene, wanted = steering.scene(random.Random(seed), "bread")
        assert wanted == "bread/slice"
        assert {"knives", "breads"} <= set(scene.groups())


def test_a_type_without_requirements_gets_a_plain_seeded_scene(catalog) -> None:
    steering = SceneSteering(catalog, requirements)
    a, wanted = steering.scene(random.Random("1:2:0"), "other")
    b, _ = steering.scene(random.Random("1:2:0"), "other")
    assert wanted is None and a == b and a.objects


def test_the_offline_templates_steer_towards_each_built_in_template(catalog) -> None:
    from ambiforge.generation.offline import scene_steering, templates_for

    steering = scene_steering(catalog)
    for name in ("preferences", "common_sense_knowledge", "safety"):
        assert set(steering.plan(name)) == {t.id for t in templates_for(name)}
