"""Behaviour of each ambiguity type's offline generator, checked over many generated pairs."""

from __future__ import annotations

import re

import pytest

from ambiforge.ambiguity import default_mix
from ambiforge.catalog import APPLIANCES
from ambiforge.generation.mix import type_quotas, type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.generation.offline.phrases import mentions
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.textnorm import signature

N = 120


def items_of(catalog, ambiguity_type: str, n: int = N, seed: int = 3) -> list[Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, seed, "test")
    return [gen.generate(i, ambiguity_type)[0] for i in range(n)]


def scene_names(item: Item) -> set[str]:
    return {o.name for o in item.environment}


def check_common(item: Item) -> None:
    assert schema_errors(item.to_record()) == []
    assert item.ambiguous_task != item.unambiguous_direct
    assert item.unambiguous_indirect and item.unambiguous_indirect != item.unambiguous_direct
    assert item.question.endswith("?")
    eoa = item.end_of_ambiguity
    assert 0 <= eoa < min(len(item.plan_for_clear_task), len(item.plan_for_amb_task))
    assert item.plan_for_clear_task[:eoa] == item.plan_for_amb_task[:eoa]
    assert item.plan_for_clear_task[eoa] != item.plan_for_amb_task[eoa]
    assert item.user_intent and item.variants
    # Every object the clear task names exactly is in the scene or is a fixed appliance.
    for name in scene_names(item):
        assert name in item.environment_short


def test_preferences_use_the_group_noun_and_a_scene_shortlist(catalog) -> None:
    for item in items_of(catalog, "preferences"):
        check_common(item)
        shortlist = item.amb_shortlist
        assert len(shortlist) >= 2 and set(shortlist) <= scene_names(item)
        chosen = [o for o in shortlist if mentions(item.unambiguous_direct, o)]
        assert chosen, item.unambiguous_direct
        target = catalog.objects[max(chosen, key=len)]
        (intent,) = item.user_intent
        assert intent == target.modifier
        assert not mentions(item.ambiguous_task, intent)
        assert mentions(item.ambiguous_task, target.noun)
        assert mentions(item.answer, intent)
        assert mentions(item.plan_for_clear_task[item.end_of_ambiguity], intent)
        assert item.variants == shortlist


def test_common_sense_leaves_out_what_a_person_infers(catalog) -> None:
    templates = set()
    for item in items_of(catalog, "common_sense_knowledge"):
        check_common(item)
        templates.add(item.provenance.template.split("#")[0])
        assert item.amb_shortlist == []
        positives = [c for c in item.user_intent if not c.startswith("-")]
        assert positives
        for concept in positives:
            alternatives = concept.split("|")
            clear = " ".join([item.unambiguous_direct, *item.plan_for_clear_task])
            assert any(mentions(clear, a) for a in alternatives), (concept, clear)
            if not item.provenance.template.startswith("common_sense_knowledge/clean_"):
                assert not any(mentions(item.ambiguous_task, a) for a in alternatives), item.ambiguous_task
        for device in item.variants:
            assert (
                device in scene_names(item)
                or device in APPLIANCES
                or any(device in n for n in scene_names(item))
                or device in ("kettle", "fridge", "microwave", "oven")
            )
    # Varied: appliances, tools and clean-vs-dirty all show up.
    assert any("tool_" in t for t in templates)
    assert any(t.endswith(("store_away", "reheat", "boil_water", "cook_in_oven")) for t in templates)
    assert len(templates) >= 10


def test_safety_names_a_safe_object_and_forbids_the_unsafe_one(catalog) -> None:
    attributes = {
        "microwave_container": "microwave_safe",
        "oven_container": "oven_safe",
        "hot_drink_container": "heat_resistant",
        "hot_pan_utensil": "heat_resistant",
    }
    for item in items_of(catalog, "safety"):
        check_common(item)
        assert item.amb_shortlist == []
        negatives = [c[1:] for c in item.user_intent if c.startswith("-")]
        assert negatives, item.user_intent
        clear = " ".join([item.unambiguous_direct, *item.plan_for_clear_task])
        for word in negatives:
            assert not mentions(clear, word)
        env = {o.name: o for o in item.environment}
        safe_options = [env[v] for v in item.variants]
        key = item.provenance.template.split("#")[0].split("/")[1]
        for option in safe_options:
            if key in attributes:
                assert getattr(option, attributes[key]) is True, (key, option.name)
            if key == "child_knife":
                assert option.sharp is False
        unsafe_in_scene = [
            o for o in item.environment if o.group == safe_options[0].group and o.name not in item.variants
        ]
        assert unsafe_in_scene


def test_unknown_type_is_a_generation_error(catalog) -> None:
    from ambiforge.errors import GenerationError

    with pytest.raises(GenerationError, match="unknown ambiguity type"):
        OfflineGenerator(catalog, 1, "t").generate(0, "irony")


def test_same_seed_same_item_other_seed_other_item(catalog) -> None:
    a = OfflineGenerator(catalog, 5, "r").generate(7, "preferences")[0]
    b = OfflineGenerator(catalog, 5, "r").generate(7, "preferences")[0]
    c = OfflineGenerator(catalog, 6, "r").generate(7, "preferences")[0]
    assert a.to_record() == b.to_record()
    assert a.unambiguous_direct != c.unambiguous_direct


def test_taken_tasks_are_skipped(catalog) -> None:
    gen = OfflineGenerator(catalog, 5, "r")
    first, attempt = gen.generate(3, "safety")
    second, attempt2 = gen.generate(3, "safety", taken={signature(first.unambiguous_direct)})
    assert signature(second.unambiguous_direct) != signature(first.unambiguous_direct)
    assert attempt2 > attempt


def test_type_quotas_follow_the_mix_exactly() -> None:
    environment = {"multiplicity": 0, "absence": 0, "reference": 0, "observation": 0}  # not in the default mix
    assert type_quotas(1000, default_mix()) == {
        "preferences": 472,
        "common_sense_knowledge": 398,
        "safety": 130,
        **environment,
    }
    assert sum(type_quotas(7, default_mix()).values()) == 7
    seq = type_sequence(100, {"preferences": 1, "safety": 1}, seed=1)
    assert seq.count("preferences") == 50 and seq.count("safety") == 50
    assert seq != sorted(seq)


def test_indirect_paraphrase_does_not_copy_the_direct_wording(catalog) -> None:
    same = 0
    for item in items_of(catalog, "preferences", 60):
        words = lambda s: set(re.findall(r"[a-z']+", s.lower()))  # noqa: E731
        if words(item.unambiguous_indirect) == words(item.unambiguous_direct):
            same += 1
    assert same == 0


def test_counter_appliances_take_the_food_in_and_are_switched_on(catalog) -> None:
    """A blind reader: "Pick up the juicer. Squeeze the red apple with the juicer. Put the juicer on the counter."
    A small appliance is never picked up: the food goes into it and it is switched on; the food fits it (no
    whole trout in the air fryer) and "squeeze" is said of citrus only."""
    small = {o.name for o in catalog.groups["small appliances"].objects}
    seen = 0
    for item in items_of(catalog, "common_sense_knowledge", n=90, seed=5):
        plan = item.plan_for_clear_task
        assert not any(s == f"Pick up the {a}." for s in plan for a in small), plan
        for appliance in (a for a in small if f"Turn on the {a}." in plan):
            seen += 1
            on = plan.index(f"Turn on the {appliance}.")
            put = [m.group(1) for s in plan[:on] if (m := re.match(rf"Put the (.+) in the {appliance}\.$", s))]
            assert put, plan
            if appliance == "air fryer":
                assert "air_fryable" in catalog.objects[put[-1]].uses, put
        for text in (item.unambiguous_direct, item.ambiguous_task, *plan):
            m = re.search(r"\b[Ss]queez\w* (?:the |some |this |that |my |our )?([a-z -]+)", text)
            assert m is None or "orange" in m.group(1), text
    assert seen >= 5


def test_some_butter_never_shortlists_the_nut_butters(catalog) -> None:
    """Seeded pairs (seed 1, pairs 471 and 2556 of preferences) whose kitchens hold the dairy butters and the nut
    butters: "some butter" asks among the butters only, as the independent reader takes the words."""
    from ambiforge.validation.reader import read_item

    gen = OfflineGenerator(catalog, 1, "item-checks")
    for index in (471, 2556):
        item = gen.generate(index, "preferences")[0]
        nut_butters = {o.name for o in item.environment if o.group == "nut butters"}
        assert nut_butters and mentions(item.ambiguous_task, "butter"), item.ambiguous_task
        assert len(item.amb_shortlist) >= 2
        assert all(catalog.objects[name].group == "butters" for name in item.amb_shortlist), item.amb_shortlist
        assert not nut_butters & {*item.variants, *item.user_intent}
        assert read_item(item).get("variants", []) == []
