"""The independent reader on items of a real seeded offline build: clean items read clean; each planted
defect (tea poured with no cup, an object used but never fetched, a cut with no knife, a missing same-kind
variant, a greeting mid-request, a time contradiction, a phrase its recorded frame does not allow, a
determiner out of number, an unheated "hot" pan) is flagged with its step and reason; and every generated
item that has a job records it, so dropping one fitting variant is caught."""

from __future__ import annotations

import re

import pytest

from ambiforge.ambiguity import default_mix
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Item
from ambiforge.validation import RuleContext
from ambiforge.validation.reader import read_item, read_sentence
from ambiforge.validation.rules.world import check_world

INSTRUCTION_TYPES = ("preferences", "common_sense_knowledge", "safety")


@pytest.fixture(scope="module")
def built(catalog) -> list[Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 11, "reader")
    mix = {t: s for t, s in default_mix().items() if t in INSTRUCTION_TYPES}
    return [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(90, mix, 11))]


def edit(item: Item, **changes: object) -> Item:
    return item.model_copy(update=changes)


def problems(item: Item, kind: str) -> list[str]:
    return read_item(item)[kind]


def first(items: list[Item], test) -> Item:  # type: ignore[no-untyped-def]
    found = next((i for i in items if test(i)), None)
    assert found is not None, "the seeded build has no item of this kind"
    return found


def test_a_clean_seeded_build_reads_clean(built: list[Item]) -> None:
    for item in built:
        assert read_item(item) == {"plan": [], "variants": [], "speech": []}, item.unambiguous_direct


def test_the_grammar_reads_the_roles_of_a_step() -> None:
    step = read_sentence(3, "4. Take the oat milk out of the fridge.")
    assert (step.verb, step.obj, step.target) == ("take", "the oat milk", "the fridge")
    step = read_sentence(0, "Cut the rye bread into four slices with the bread knife.")
    assert (step.verb, step.obj, step.tool) == ("cut", "the rye bread", "the bread knife")
    assert read_sentence(0, "Pour the water from the tea kettle into the glass mug.").obj == "the tea kettle"
    assert read_sentence(0, "Put the milk away.").verb == "free"


def test_tea_poured_with_no_cup_is_flagged(built: list[Item]) -> None:
    item = first(built, lambda i: any("from the tea kettle into" in s for s in i.plan_for_clear_task))
    tea = next(o.name for o in item.environment if o.group == "teas")
    plan = [
        re.sub(r"from the tea kettle into the .+\.$", f"from the tea kettle into the {tea}.", s)
        for s in item.plan_for_clear_task
    ]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any(f"pours into the {tea}, which cannot hold it" in m for m in found), found


def test_an_unfetched_object_is_flagged(built: list[Item]) -> None:
    item = first(built, lambda i: any(s.startswith("Take ") for s in i.plan_for_amb_task))
    at = next(n for n, s in enumerate(item.plan_for_amb_task) if s.startswith("Take "))
    plan = [s for n, s in enumerate(item.plan_for_amb_task) if n != at]
    found = problems(edit(item, plan_for_amb_task=plan), "plan")
    assert any(m.startswith("plan_for_amb_task step") and "never fetched" in m for m in found), found


def test_a_cut_with_no_knife_in_hand_is_flagged(built: list[Item]) -> None:
    item = first(built, lambda i: any(re.match(r"Cut .+ with the ", s) for s in i.plan_for_clear_task))
    plan = [re.sub(r" with the [^.]+\.$", ".", s) if s.startswith("Cut ") else s for s in i_plan(item)]
    plan = [s for s in plan if not re.match(r"(Take|Pick up) the .*knife", s)]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any("cuts with" in m for m in found), found


def i_plan(item: Item) -> list[str]:
    return list(item.plan_for_clear_task)


def test_a_missing_same_kind_variant_is_flagged(built: list[Item]) -> None:
    item = first(built, lambda i: not i.amb_shortlist and len(i.variants) >= 2)
    found = problems(edit(item, variants=item.variants[1:]), "variants")
    assert any(item.variants[0] in m for m in found), found


def test_a_greeting_mid_text_is_flagged(built: list[Item]) -> None:
    item = built[0]
    text = item.unambiguous_direct.rstrip(".") + ". Hi robot, thanks."
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("greeting" in m and "unambiguous_direct" in m for m in found), found


def test_a_time_contradiction_is_flagged(built: list[Item]) -> None:
    item = built[0]
    text = "Good evening, we're eating around brunch time. " + item.unambiguous_direct
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("time contradiction" in m for m in found), found


def test_a_later_clause_done_at_once_is_a_time_contradiction(built: list[Item]) -> None:
    item = built[0]
    text = item.unambiguous_direct.rstrip(".") + ". Later, wash the plate right away in the sink."
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("'later ... right away'" in m and "time contradiction" in m for m in found), found


def test_a_phrase_the_frame_does_not_allow_is_flagged(built: list[Item]) -> None:
    item = first(built, lambda i: i.frame is not None and i.frame.time != "morning")
    text = item.unambiguous_direct.rstrip(".") + " for my breakfast."
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("'for my breakfast' cannot be said in the item's frame" in m for m in found), found
    # and a frame whose own tags the incompatible list forbids together
    frame = item.frame.model_copy(update={"occasion": "breakfast", "time": "evening"})
    found = problems(edit(item, frame=frame), "speech")
    assert any(m.startswith("frame: ") and "incompatible" in m for m in found), found


def test_every_generated_item_records_its_frame(built: list[Item]) -> None:
    assert all(item.frame is not None for item in built)
    assert len({item.frame.time for item in built if item.frame}) == 3


def test_a_determiner_out_of_number_is_flagged(built: list[Item]) -> None:
    def names(item: Item, plural: bool) -> list[str]:
        assert item.world is not None
        return [
            n.name
            for n in item.world.graph.nodes
            if n.type == "object" and n.plural == plural and f"the {n.name}" in item.unambiguous_direct
        ]

    item = first(built, lambda i: bool(names(i, True)))
    name = names(item, True)[0]
    text = item.unambiguous_direct.replace(f"the {name}", f"this {name}", 1)
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("number agreement" in m and f"this {name}" in m for m in found), found
    item = first(built, lambda i: bool(names(i, False)))
    name = names(item, False)[0]
    text = item.unambiguous_direct.replace(f"the {name}", f"those {name}", 1)
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("a plural determiner before a singular name" in m for m in found), found
    text = item.unambiguous_direct.replace(f"the {name}", f"some our {name}", 1)
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("stacked determiners 'some our'" in m for m in found), found


def test_milk_made_hot_again_is_flagged(built: list[Item]) -> None:
    def milk(item: Item) -> str | None:
        assert item.world is not None
        return next((n.name for n in item.world.graph.nodes if n.group == "milks"), None)

    item = first(built, lambda i: milk(i) is not None)
    text = f"Make the {milk(item)} hot again. " + item.unambiguous_direct
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any(f"the {milk(item)} is heated again, but it was never hot" in m for m in found), found


def test_an_unheated_hot_pan_is_flagged(built: list[Item]) -> None:
    item = first(
        built,
        lambda i: (
            any(o.kind == "kitchen_item" and o.name in i.unambiguous_direct for o in i.environment)
            and "oven" not in i.unambiguous_direct
            and "microwave" not in i.unambiguous_direct
        ),
    )
    name = next(o.name for o in item.environment if o.kind == "kitchen_item" and o.name in item.unambiguous_direct)
    text = item.unambiguous_direct.replace(name, f"hot {name}", 1)
    found = problems(edit(item, unambiguous_direct=text), "plan")
    assert any(f"'hot {name}'" in m for m in found), found


def test_every_generated_item_with_a_job_records_it(built: list[Item]) -> None:
    tools = [i for i in built if "/tool_" in i.provenance.template]
    assert tools and all(i.world is not None and i.world.affordance for i in tools)


def test_dropping_a_fitting_variant_from_every_item_is_flagged(built: list[Item], catalog) -> None:  # type: ignore[no-untyped-def]
    ctx = RuleContext(catalog=catalog)
    dropped = 0
    for item in built:
        assert item.world is not None
        if item.amb_shortlist or not item.world.fitting:
            continue
        fitting = {n.id: n.name for n in item.world.graph.nodes if n.id in item.world.fitting}
        gone = next(v for v in item.variants if v in fitting.values())
        broken = edit(item, variants=[v for v in item.variants if v != gone])
        world = [m for rid, m in check_world(broken, ctx) if rid == "world_variants"]
        assert world or problems(broken, "variants"), (item.provenance.template, gone)
        dropped += 1
    assert dropped >= 20
