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
from ambiforge.models import Item, LeftOut
from ambiforge.models.scene_graph import Edge
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


def _target(item: Item) -> str:
    """The intended object's name, as a regular expression."""
    assert item.world is not None
    return re.escape(next((n.name for n in item.world.graph.nodes if n.id == item.world.target), "\0"))


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


# ---- the facts an item rests on, and the objects it leaves out (issue 39, parts 1-3) ----------------------

#: The catalog attribute a safety item's job rests on.
SAFETY_FACT = {"microwave": "microwave_safe", "oven": "oven_safe", "hold_hot_liquid": "heat_resistant"}


def test_every_safety_item_rests_on_facts_the_catalog_asserts(built: list[Item]) -> None:
    safety = [i for i in built if i.ambiguity_type == "safety"]
    assert safety
    for item in safety:
        assert item.world is not None and item.world.left_out, item.provenance.template
        attribute = SAFETY_FACT.get(item.world.affordance or "")
        nodes = {n.id: n for n in item.world.graph.nodes}
        for left in item.world.left_out:
            if left.reason == "unsafe" and attribute:
                assert getattr(nodes[left.node].attributes, attribute) is False, (left, item.provenance.template)
        if attribute:  # no object the words pick out has the fact open (it depends on the product)
            target = nodes[item.world.target or ""]
            same = [n for n in nodes.values() if n.type == "object" and n.noun == target.noun]
            assert all(getattr(n.attributes, attribute) is not None for n in same), item.provenance.template


def test_an_unsafe_premise_that_is_false_is_flagged(built: list[Item]) -> None:
    """r076: 'the silicone container is not oven-safe': a right choice left out as unsafe is flagged."""
    item = first(built, lambda i: i.ambiguity_type == "safety" and len(i.world.fitting) >= 2)  # type: ignore[union-attr]
    assert item.world is not None
    gone = item.world.fitting[0]
    name = next(n.name for n in item.world.graph.nodes if n.id == gone)
    world = item.world.model_copy(
        update={"left_out": [*item.world.left_out, LeftOut(node=gone, reason="unsafe", detail="is not oven-safe")]}
    )
    broken = edit(item, world=world, variants=[v for v in item.variants if v != name])
    found = problems(broken, "variants")
    assert any(f"the {name} is left out as unsafe, but it can" in m for m in found), found


def test_every_generated_item_records_why_each_object_is_left_out(built: list[Item]) -> None:
    recorded = 0
    for item in built:
        assert item.world is not None
        if item.amb_shortlist or item.world.perturbation is not None:
            continue
        listed = set(item.variants)
        nodes = {n.id: n for n in item.world.graph.nodes}
        left = {o.node for o in item.world.left_out}
        for ref in item.world.candidates:
            assert nodes[ref].name in listed or ref in left, (item.provenance.template, ref)
        recorded += len(left)
    assert recorded >= 10


def test_a_left_out_object_with_no_reason_or_a_wrong_one_is_flagged(built: list[Item]) -> None:
    item = first(built, lambda i: "/tool_" in (i.provenance.template or "") and bool(i.world.left_out))  # type: ignore[union-attr]
    assert item.world is not None
    left = item.world.left_out[0]
    name = next(n.name for n in item.world.graph.nodes if n.id == left.node)
    unrecorded = edit(item, world=item.world.model_copy(update={"left_out": item.world.left_out[1:]}))
    assert any(f"the {name} is neither a variant nor left out" in m for m in problems(unrecorded, "variants"))
    dirty = left.model_copy(update={"reason": "dirty"})
    wrong = edit(item, world=item.world.model_copy(update={"left_out": [dirty, *item.world.left_out[1:]]}))
    assert any(f"the {name} is left out as dirty, but it is clean" in m for m in problems(wrong, "variants"))


def test_every_common_sense_item_records_why_and_dropping_it_is_flagged(built: list[Item]) -> None:
    common = [i for i in built if i.ambiguity_type == "common_sense_knowledge"]
    assert common and all(i.world is not None and i.world.rationale for i in common)
    tool = first(common, lambda i: "/tool_" in (i.provenance.template or ""))
    assert tool.world is not None and tool.world.target is not None
    name = next(n.name for n in tool.world.graph.nodes if n.id == tool.world.target)
    assert tool.world.rationale is not None and tool.world.rationale.startswith(f"the {name} is the ")
    bare = edit(tool, world=tool.world.model_copy(update={"rationale": None}))
    assert any(m.startswith("rationale:") for m in problems(bare, "variants"))


def test_an_oven_switched_on_with_a_dish_that_is_not_oven_safe_is_flagged(built: list[Item]) -> None:
    """r015: a plastic baking dish left in the oven while it preheats."""
    item = first(built, lambda i: any(s.startswith("Turn on the oven") for s in i.plan_for_clear_task))
    assert item.world is not None
    graph = item.world.graph
    dish = next(
        (n for n in graph.nodes if n.type == "object" and n.attributes.oven_safe is False and n.kind == "kitchen_item"),
        None,
    )
    assert dish is not None, "the kitchen has nothing marked not oven-safe"
    edges = [e for e in graph.edges if not (e.source == dish.id and e.relation in ("in", "on", "inside"))]
    moved = graph.model_copy(update={"edges": (*edges, Edge(source=dish.id, relation="in", target="oven"))})
    found = [m for m in read_item(edit(item, world=item.world.model_copy(update={"graph": moved})))["plan"]]
    assert any(f"with the {dish.name} in it, not oven-safe" in m for m in found), found


def test_a_shortlist_leaving_out_an_object_its_words_pick_out_is_flagged(built: list[Item]) -> None:
    """r026: 'put the white bread in a bowl' with the mixing bowls left out of the shortlist."""
    item = first(built, lambda i: len(i.amb_shortlist) >= 2)
    assert item.world is not None
    target = next(n.name for n in item.world.graph.nodes if n.id == item.world.target)
    gone = next(v for v in item.amb_shortlist if v != target)
    broken = edit(item, amb_shortlist=[v for v in item.amb_shortlist if v != gone])
    assert any(f"leaves out the {gone}, which" in m for m in problems(broken, "variants"))


def test_a_washing_task_leaving_out_the_dirty_one_is_flagged(built: list[Item]) -> None:
    """The issue's 'put a plate in my dishwasher now that we've eaten' that asked only about clean plates."""
    item = first(
        built,
        lambda i: (
            bool(i.amb_shortlist)
            and any(re.match(rf"(Wash the {_target(i)}|Put the {_target(i)} in the dishwasher)", s) for s in i_plan(i))
        ),
    )
    assert item.world is not None
    gone = next(n for n in item.world.graph.nodes if n.name in item.amb_shortlist and n.id != item.world.target)
    world = item.world.model_copy(update={"left_out": [LeftOut(node=gone.id, reason="dirty")]})
    graph = world.graph.model_copy(
        update={
            "nodes": tuple(
                n.model_copy(update={"state": n.state.model_copy(update={"clean": False})}) if n.id == gone.id else n
                for n in world.graph.nodes
            )
        }
    )
    broken = edit(
        item,
        world=world.model_copy(update={"graph": graph}),
        amb_shortlist=[v for v in item.amb_shortlist if v != gone.name],
    )
    assert any(
        f"leaves out the {gone.name} as dirty, but the plan washes it" in m for m in problems(broken, "variants")
    )


def test_a_step_putting_an_object_back_where_it_was_picked_up_is_flagged(built: list[Item]) -> None:
    """r006: 'put our green banana on my kitchen table' while it is on the kitchen table: a task moving nothing."""
    item = first(built, lambda i: any(s.startswith("Pick up the ") for s in i_plan(i)))
    assert item.world is not None
    at = next(k for k, s in enumerate(i_plan(item)) if s.startswith("Pick up the "))
    name = i_plan(item)[at].removeprefix("Pick up the ").rstrip(".")
    nodes = {n.id: n for n in item.world.graph.nodes}
    ref = next(n.id for n in nodes.values() if n.name == name)
    edge = next(e for e in item.world.graph.edges if e.source == ref and e.relation in ("on", "in"))
    back = f"Put the {name} {edge.relation} the {nodes[edge.target].name}."
    plan = [*i_plan(item)[: at + 1], back, *i_plan(item)[at + 1 :]]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any(f"step {at + 2} " in m and "moves nothing" in m for m in found), found


def test_an_ordinal_out_of_order_is_flagged(built: list[Item]) -> None:
    """r066: 'first kick off a dishwasher load. Next, cook my whole trout... Second, slot my olive oil'."""
    item = built[0]
    text = f"{item.unambiguous_direct.rstrip('.')}. Next, wash the mug. Second, dry it."
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("ordinal out of order" in m for m in found), found
    assert not any(
        "ordinal" in m for m in problems(edit(item, unambiguous_direct="First, wash it. Second, dry it."), "speech")
    )


def test_a_hurried_request_asking_for_a_wait_is_flagged(built: list[Item]) -> None:
    """r041: 'Since I need to leave any minute now, let's be quick. Hang on for two minutes.'"""
    item = built[0]
    text = f"Let's be quick. {item.unambiguous_direct.rstrip('.')}, then hang on for two minutes."
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any("in a hurry that asks for a wait" in m for m in found), found


def test_a_common_sense_task_whose_verb_names_the_appliance_is_flagged(built: list[Item]) -> None:
    """r019: 'it's time to bake my yukon gold potato': 'bake' already says the oven."""
    item = first(built, lambda i: i.ambiguity_type == "common_sense_knowledge" and not i.amb_shortlist)
    broken = edit(item, variants=["oven"], ambiguous_task="Bake the potato, please.")
    found = problems(broken, "variants")
    assert any("'bake' names the oven's job" in m for m in found), found
    assert not any("names the" in m for m in problems(edit(broken, ambiguous_task="Cook the potato."), "variants"))


def test_a_common_sense_item_beside_another_appliance_that_does_the_job_is_flagged(built: list[Item]) -> None:
    """r069: the kitchen has an air fryer that could also cook the pizza, the variants give only the oven."""
    item = first(built, lambda i: i.ambiguity_type == "common_sense_knowledge" and not i.amb_shortlist)
    assert item.world is not None
    some = next(n for n in item.world.graph.nodes if n.type == "object")
    fryer = some.model_copy(update={"id": "air_fryer", "name": "air fryer", "noun": "air fryer"})
    graph = item.world.graph.model_copy(update={"nodes": (*item.world.graph.nodes, fryer)})
    broken = edit(item, variants=["oven"], world=item.world.model_copy(update={"graph": graph}))
    found = problems(broken, "variants")
    assert any("the kitchen's air fryer does the job as well" in m for m in found), found


def test_food_put_in_the_oven_with_no_dish_is_flagged(built: list[Item]) -> None:
    """A blind reader: "Put the chicken breast in the oven." with nothing under it (seven of sixty rows)."""
    item = first(built, lambda i: any(re.match(r"Put the .+ (on|in) the .+(dish|tray)\.$", s) for s in i_plan(i)))
    plan = i_plan(item)
    at = next(n for n, s in enumerate(plan) if re.match(r"Put the .+ (on|in) the .+(dish|tray)\.$", s))
    food = re.match(r"Put the (.+?) (?:on|in) the ", plan[at]).group(1)  # type: ignore[union-attr]
    loose = [*plan[:at], "Open the oven.", f"Put the {food} in the oven."]
    assert not any("loose" in m for m in problems(item, "plan"))
    found = problems(edit(item, plan_for_clear_task=loose), "plan")
    assert any(f"puts the {food} in the oven loose" in m for m in found), found


def test_a_spread_step_says_what_it_spreads_on_and_uses_it() -> None:
    step = read_sentence(0, "Spread the clover honey on the baguette with the butter knife.")
    assert (step.verb, step.how, step.obj, step.target, step.tool) == (
        "use",
        "spread",
        "the clover honey",
        "the baguette",
        "the butter knife",
    )


def test_a_spread_step_renders_what_it_spreads_on_and_reads_back() -> None:
    """A blind reader: "Spread the peanut butter with the butter knife." never said on what."""
    from ambiforge.models.action import Action
    from ambiforge.world.actions import render_action

    said = render_action(
        Action(verb="use", obj="peanut_butter", tool="butter_knife", how="spread", target="rye_bread"),
        names={"peanut_butter": "the peanut butter", "butter_knife": "the butter knife", "rye_bread": "the rye bread"},
    )
    assert said == "Spread the peanut butter on the rye bread with the butter knife."
    assert read_sentence(0, said).target == "the rye bread"


# ---- blind read 84227: answers, dishwasher loads and sentences a reader found wrong ------------------------


def _name(item: Item) -> str:
    assert item.world is not None
    return next(n.name for n in item.world.graph.nodes if n.id == item.world.target)


def test_a_common_sense_answer_naming_one_tool_beside_several_variants_is_flagged(built: list[Item]) -> None:
    """r035: 'The bread knife.' with every slicing knife as a variant; r023: 'Any clean one, for example the
    plastic mug' while the clear task names the plastic mug."""
    item = first(built, lambda i: "/tool_" in i.provenance.template)
    assert item.world is not None and item.variants == [_name(item)]
    others = [n.name for n in item.world.graph.nodes if n.id in item.world.candidates and n.name != _name(item)]
    found = problems(edit(item, variants=[*item.variants, *others]), "variants")
    assert any(f"names the {_name(item)} alone" in m for m in found), found
    anyone = edit(item, answer=f"Any of them, for example the {_name(item)}.", variants=[*item.variants, *others])
    found = problems(anyone, "variants")
    assert any("accepts any of" in m and f"the clear task names the {_name(item)}" in m for m in found), found


def test_loading_a_clean_object_into_the_dishwasher_is_flagged(built: list[Item]) -> None:
    """r017, r076: a clean knife taken from the drawer and put in the dishwasher."""
    item = first(built, lambda i: any(s.endswith(" in the dishwasher.") for s in i.plan_for_clear_task))
    assert item.world is not None
    step = next(s for s in item.plan_for_clear_task if s.endswith(" in the dishwasher."))
    loaded = next(n for n in item.world.graph.nodes if n.type == "object" and f"Put the {n.name} in" in step)
    assert loaded.state.clean is False, "what the generator loads is used"
    graph = item.world.graph.model_copy(
        update={
            "nodes": tuple(
                n.model_copy(update={"state": n.state.model_copy(update={"clean": True})}) if n.id == loaded.id else n
                for n in item.world.graph.nodes
            )
        }
    )
    found = problems(edit(item, world=item.world.model_copy(update={"graph": graph})), "plan")
    assert any(f"loads the clean {loaded.name} into the dishwasher" in m for m in found), found


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("Brilliant, thank you. I'll be in my study.", "read as a reply"),
        ("Serve the tea in the cup, would be lovely.", "no subject"),
        ("Leave the jam out before we eat, on the table.", "belongs with its verb"),
        ("Stand the cleaver on the lower shelf for dinner.", "no reason to put something in storage"),
        ("Put it away, many thanks. Thanks in advance.", "thanks once"),
    ],
)
def test_sentences_no_one_says_are_flagged(built: list[Item], said: str, why: str) -> None:
    item = built[0]
    text = item.unambiguous_direct.rstrip(".") + ". " + said
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any(why in m and m.startswith("unambiguous_direct") for m in found), found


def test_pointing_at_an_object_that_is_not_at_hand_is_flagged(built: list[Item]) -> None:
    """r017: 'clear this paring knife into my dishwasher' with the knife in the drawer."""
    item = built[0]
    assert item.world is not None
    kept = {e.source: e.target for e in item.world.graph.edges if e.relation == "in"}
    far = next(n for n in item.world.graph.nodes if n.type == "object" and kept.get(n.id) in ("fridge", "drawer_1"))
    text = item.unambiguous_direct.rstrip(".") + f". Then bring me that {far.name}."
    found = problems(edit(item, unambiguous_direct=text), "speech")
    assert any(f"'that {far.name}' points at the {far.name}, which is not at hand" in m for m in found), found
    near = text.replace(f"that {far.name}", f"the {far.name}")
    assert not any("not at hand" in m for m in problems(edit(item, unambiguous_direct=near), "speech"))


def _with_object(item: Item, name: str, group: str, noun: str, tags: tuple[str, ...], kind: str = "kitchen_item"):  # type: ignore[no-untyped-def]
    """The item with one more object on the counter (a node like one of its own, renamed)."""
    assert item.world is not None
    some = next(n for n in item.world.graph.nodes if n.type == "object")
    ref = name.replace(" ", "_")
    node = some.model_copy(update={"id": ref, "name": name, "noun": noun, "group": group, "tags": tags, "kind": kind})
    edges = (*item.world.graph.edges, Edge(source=ref, relation="on", target="counter"))
    graph = item.world.graph.model_copy(update={"nodes": (*item.world.graph.nodes, node), "edges": edges})
    return edit(item, world=item.world.model_copy(update={"graph": graph})), node


def test_a_counter_appliance_picked_up_as_a_hand_tool_is_flagged(built: list[Item]) -> None:
    """A blind reader: "Pick up the juicer. Squeeze the red apple with the juicer." (four of sixty rows)."""
    item, juicer = _with_object(built[0], "juicer", "small appliances", "appliance", ("small_appliance",))
    plan = [*i_plan(item), "Pick up the juicer.", "Put the juicer on the counter."]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any("picks up the juicer, an appliance used where it stands" in m for m in found), found


def test_a_drink_heated_in_its_carton_is_flagged(built: list[Item]) -> None:
    """A blind reader: "Put the soy milk in the microwave." with no mug or cup."""
    item = first(built, lambda i: any(o.group == "milks" for o in i.environment))
    milk = next(o.name for o in item.environment if o.group == "milks")
    plan = [
        "Open the fridge.",
        f"Take the {milk} out of the fridge.",
        "Open the microwave.",
        f"Put the {milk} in the microwave.",
    ]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any(f"heats the {milk} in the microwave in its carton" in m for m in found), found


def test_frozen_food_left_out_on_a_shelf_is_flagged(built: list[Item]) -> None:
    """A blind reader: "set our chocolate ice cream out on the upper shelf so it's ready later"."""
    item, cream = _with_object(built[0], "chocolate ice cream", "ice creams", "ice cream", ("frozen", "sweets"), "food")
    plan = [*i_plan(item), "Pick up the chocolate ice cream.", "Put the chocolate ice cream on the upper shelf."]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any("leaves the frozen chocolate ice cream out at the upper shelf" in m for m in found), found


def test_common_sense_storage_of_a_food_kept_in_two_places_is_flagged(built: list[Item]) -> None:
    """A blind reader: "store our hot sauce" answered "In the fridge": many keep it in a cupboard."""
    item = first(built, lambda i: i.ambiguity_type == "common_sense_knowledge" and not i.amb_shortlist)
    item, sauce = _with_object(item, "hot sauce", "sauces", "sauce", ("condiment",), "food")
    plan = ["Pick up the hot sauce.", "Open the fridge.", "Put the hot sauce in the fridge.", "Close the fridge."]
    broken = edit(item, plan_for_clear_task=plan, variants=["fridge"])
    found = problems(broken, "variants")
    assert any("keeps the hot sauce in the fridge, but the catalog keeps it" in m for m in found), found
    assert item.world is not None
    sure = sauce.model_copy(update={"attributes": sauce.attributes.model_copy(update={"needs_refrigeration": True})})
    nodes = tuple(sure if n.id == sauce.id else n for n in item.world.graph.nodes)
    graph = item.world.graph.model_copy(update={"nodes": nodes})
    fine = edit(broken, world=item.world.model_copy(update={"graph": graph}))
    assert not any("households differ" in m for m in problems(fine, "variants"))


def test_grams_with_no_scale_in_the_kitchen_are_flagged(built: list[Item]) -> None:
    """A blind reader: "measure out 300 grams of those lasagna sheets" with no kitchen scale."""
    item = first(built, lambda i: not any("scale" in o.name for o in i.environment))
    text = item.unambiguous_direct.rstrip(".") + ", and weigh out 300 grams of the rice."
    found = problems(edit(item, unambiguous_direct=text), "plan")
    assert any("says '300 grams', but the kitchen has nothing to weigh it with" in m for m in found), found
    weighed, _ = _with_object(item, "digital scale", "scales", "scale", ("weighing",))
    assert not any("weigh" in m for m in problems(edit(weighed, unambiguous_direct=text), "plan"))


def test_a_nut_butter_listed_for_butter_is_flagged(built: list[Item]) -> None:
    """A blind reader: "spread some butter" with the peanut butter and the almond butter as variants."""
    item = first(built, lambda i: i.world is not None and i.world.target is not None)
    assert item.world is not None
    target = next(n for n in item.world.graph.nodes if n.id == item.world.target)
    butter = target.model_copy(update={"noun": "butter", "name": "salted butter"})
    nodes = tuple(butter if n.id == target.id else n for n in item.world.graph.nodes)
    world = item.world.model_copy(update={"graph": item.world.graph.model_copy(update={"nodes": nodes})})
    broken = edit(item, world=world, variants=["salted butter", "peanut butter"])
    found = problems(broken, "variants")
    assert any("lists the peanut butter, which 'butter' does not name" in m for m in found), found


def test_a_put_down_picked_up_again_at_once_is_flagged(built: list[Item]) -> None:
    """A blind reader: "Put the blood orange in the sink. Pick up the blood orange. Wash the blood orange."."""
    item = first(built, lambda i: any(s.startswith("Pick up the ") for s in i_plan(i)))
    at = next(k for k, s in enumerate(i_plan(item)) if s.startswith("Pick up the "))
    name = i_plan(item)[at].removeprefix("Pick up the ").rstrip(".")
    plan = [*i_plan(item)[: at + 1], f"Put the {name} in the sink.", f"Pick up the {name}.", *i_plan(item)[at + 1 :]]
    found = problems(edit(item, plan_for_clear_task=plan), "plan")
    assert any(f"step {at + 3} " in m and "just put down at the sink" in m for m in found), found


def test_squeeze_said_of_a_food_that_is_not_citrus_is_flagged(built: list[Item]) -> None:
    """A blind reader: "Squeeze the red apple": an apple is juiced."""
    item, _ = _with_object(built[0], "red apple", "apples", "apple", ("fruit",), "food")
    found = problems(edit(item, ambiguous_task="Squeeze the red apple for me."), "speech")
    assert any("says 'squeeze' of the red apple" in m for m in found), found
    item, _ = _with_object(built[0], "navel orange", "oranges", "orange", ("fruit",), "food")
    assert not any("squeeze" in m for m in problems(edit(item, ambiguous_task="Squeeze the navel orange."), "speech"))
