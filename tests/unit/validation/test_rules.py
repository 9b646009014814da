"""Each item rule with an item that passes it and one that fails it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ambiforge.catalog import cached_catalog
from ambiforge.config.validation import ValidationConfig
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Item
from ambiforge.models.action import Action
from ambiforge.models.scene_graph import Edge, SceneGraph
from ambiforge.validation import RuleContext, validate_items
from ambiforge.validation.rules import all_rules, check_item


@pytest.fixture(scope="module")
def ctx(catalog) -> RuleContext:  # type: ignore[no-untyped-def]
    return RuleContext(catalog=catalog)


@pytest.fixture(scope="module")
def good(catalog) -> dict[str, Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 21, "rules")
    kinds = ["preferences", "common_sense_knowledge", "safety", "multiplicity", "absence", "reference", "observation"]
    items = {t: gen.generate(i, t)[0] for i, t in enumerate(kinds)}
    # A preferences item asked "Which ...?" (a bare "Yes." does not answer it; "Do you want ...?" it would).
    index = len(kinds)
    while not items["preferences"].question.startswith("Which"):
        items["preferences"] = gen.generate(index, "preferences")[0]
        index += 1
    return items


def sibling_not_in_scene(item: Item, catalog) -> str:  # type: ignore[no-untyped-def]
    """Another object of a group the scene has, under a name the scene lacks ("chef's knife" / "paring knife")."""
    names = {o.name for o in item.environment}
    for o in item.environment:
        obj = catalog.objects.get(o.name)
        if obj is not None and obj.kind == "kitchen_item":
            for other in catalog.objects.values():
                if other.group == obj.group and other.name not in names:
                    return other.name
    raise AssertionError("no kitchen item with a sibling outside the scene")


def one_of_its_kind(item: Item, catalog) -> Item:  # type: ignore[no-untyped-def]
    """The item with one object of the sibling's group left in its scene: a kitchen listing several kinds
    of a thing (a paring, a butter and a fillet knife) tells them apart, so another kind is missing (an
    error); with one, another name for it is only a suspicion."""
    sibling = catalog.objects[sibling_not_in_scene(item, catalog)]
    kept, seen = [], False
    for o in item.environment:
        obj = catalog.objects.get(o.name)
        if obj is not None and obj.group == sibling.group:
            if seen:
                continue
            seen = True
        kept.append(o)
    return edit(item, environment=kept, environment_short=", ".join(o.name for o in kept))


def leak_at_eoa(item: Item) -> Item:
    """The ambiguous plan's step at end_of_ambiguity says the clear plan's step (the answer) and more."""
    e = item.end_of_ambiguity
    amb = item.plan_for_amb_task
    return edit(item, plan_for_amb_task=[*amb[:e], item.plan_for_clear_task[e] + " Then some milk.", *amb[e + 1 :]])


def edit(item: Item, **changes: object) -> Item:
    return item.model_copy(update=changes)


def edit_world(item: Item, **changes: object) -> Item:
    assert item.world is not None
    return edit(item, world=item.world.model_copy(update=changes))


def with_twin(item: Item) -> Item:
    """A second node of the target's name on the counter: the clear referent no longer picks out one."""
    assert item.world is not None and item.world.target is not None
    graph = item.world.graph
    twin = graph.node(item.world.target).model_copy(update={"id": item.world.target + "_twin"})
    edge = Edge(source=twin.id, relation="on", target="counter")
    return edit_world(item, graph=SceneGraph(nodes=(*graph.nodes, twin), edges=(*graph.edges, edge)))


def with_cycle(item: Item, perturbed: bool = False) -> Item:
    """Two objects of the kitchen each inside the other ("the tray is inside the pizza; the pizza is inside
    the tray"): every node still has one place, so only the cycle check finds it."""
    assert item.world is not None
    holder = item.world.perturbation if perturbed else item.world
    assert holder is not None
    graph = holder.graph
    a, b = [n.id for n in graph.nodes if n.type == "object"][:2]
    kept = tuple(e for e in graph.edges if e.source not in (a, b) and e.target not in (a, b))
    cyclic = SceneGraph(
        nodes=graph.nodes,
        edges=(*kept, Edge(source=a, relation="inside", target=b), Edge(source=b, relation="inside", target=a)),
    )
    if perturbed:
        return edit_perturbation(item, graph=cyclic)
    return edit_world(item, graph=cyclic)


def edit_perturbation(item: Item, **changes: object) -> Item:
    assert item.world is not None and item.world.perturbation is not None
    return edit_world(item, perturbation=item.world.perturbation.model_copy(update=changes))


def the_other(item: Item) -> str:
    """The name of the node a multiplicity item's perturbation added (the wrong answer)."""
    assert item.world is not None and item.world.perturbation is not None
    p = item.world.perturbation
    return p.graph.node(p.added[0]).name


def fetch_target(item: Item) -> list[Action]:
    """A plan that reaches the target (opening what keeps it closed) and picks it up."""
    assert item.world is not None and item.world.target is not None
    graph, target = item.world.graph, item.world.target
    holder = next(e.target for e in graph.edges if e.source == target and e.relation in ("in", "on"))
    opens = [Action(verb="open", obj=holder)] if graph.node(holder).state.open is False else []
    return [Action(verb="wait"), *opens, Action(verb="pick", obj=target)]


Breaker = Callable[[dict[str, Item]], Item]

BREAKERS: dict[str, Breaker] = {
    "schema": lambda g: edit(g["safety"], end_of_ambiguity=-1),
    "grounding": lambda g: edit(
        g["common_sense_knowledge"],
        plan_for_clear_task=[
            *g["common_sense_knowledge"].plan_for_clear_task,
            "Hand over the cast iron teapot.",
        ],
    ),
    "grounding_noun": lambda g: edit(
        g["preferences"],
        plan_for_amb_task=[*g["preferences"].plan_for_amb_task, "Then put it on a tray."],
    ),
    "shortlist": lambda g: edit(g["preferences"], amb_shortlist=[g["preferences"].amb_shortlist[0], "unicorn horn"]),
    "shortlist_missing": lambda g: edit(g["preferences"], amb_shortlist=[]),
    "minimal_pair": lambda g: edit(g["safety"], ambiguous_task=g["safety"].unambiguous_direct),
    "plan": lambda g: edit(g["safety"], end_of_ambiguity=len(g["safety"].plan_for_clear_task) + 2),
    "intent": lambda g: edit(
        g["common_sense_knowledge"],
        user_intent=["dragonfruit"],
        ambiguous_task=g["common_sense_knowledge"].unambiguous_direct,
    ),
    "intent_suspect": lambda g: edit(g["common_sense_knowledge"], user_intent=["dragonfruit"]),
    "answer": lambda g: edit(g["common_sense_knowledge"], answer="Wherever you think best."),
    "question": lambda g: edit(g["preferences"], question="Which one do you want."),
    "hygiene": lambda g: edit(g["preferences"], question="As an AI language model, which {object} do you mean?"),
    "length": lambda g: edit(g["safety"], answer=" ".join(["very"] * 80) + " sure?"),
    "grounding_variant": lambda g: edit(
        one_of_its_kind(g["common_sense_knowledge"], cached_catalog()),
        plan_for_clear_task=[
            *g["common_sense_knowledge"].plan_for_clear_task,
            f"Dry it with the {sibling_not_in_scene(g['common_sense_knowledge'], cached_catalog())}.",
        ],
    ),
    "plan_length": lambda g: edit(
        g["safety"], plan_for_clear_task=[*g["safety"].plan_for_clear_task, *["Wait a moment."] * 12]
    ),
    "plan_divergence": lambda g: edit(g["safety"], plan_for_amb_task=list(g["safety"].plan_for_clear_task)),
    "plan_mismatch": lambda g: edit(g["preferences"], plan_for_clear_task=list(g["preferences"].plan_for_amb_task)),
    "plan_resolution": lambda g: edit(
        g["preferences"],
        plan_for_clear_task=[
            *g["preferences"].plan_for_clear_task[: g["preferences"].end_of_ambiguity],
            *g["preferences"].plan_for_amb_task[g["preferences"].end_of_ambiguity :],
            "Wipe the counter.",
        ],
    ),
    "plan_agreement": lambda g: edit(
        g["safety"],
        end_of_ambiguity=1,
        plan_for_amb_task=["Sing a cheerful song loudly.", *g["safety"].plan_for_amb_task[1:]],
    ),
    "answer_leak": lambda g: leak_at_eoa(g["preferences"]),
    "answer_leak_suspect": lambda g: edit(
        g["common_sense_knowledge"],
        plan_for_amb_task=list(g["common_sense_knowledge"].plan_for_clear_task[:-1])
        + [g["common_sense_knowledge"].plan_for_amb_task[-1]],
    ),
    "variants": lambda g: edit(g["preferences"], variants=["julienne peeler"]),
    "variants_suspect": lambda g: edit(  # two intended things of the kitchen, each a variant of its own
        g["preferences"],
        user_intent=[o.name for o in g["preferences"].environment[:2]],
        variants=[o.name for o in g["preferences"].environment[:2]],
    ),
    "variants_shortlist": lambda g: edit(g["preferences"], variants=["kitchen scale", "meat mallet"]),
    "rewrite": lambda g: edit(g["safety"], ambiguous_task="Kindly brew something warm to drink in any vessel."),
    "qa_fit": lambda g: edit(g["preferences"], answer="Yes."),
    "qa_off_point": lambda g: edit(  # asked about washing while the tasks differ by the knife's material
        g["safety"],
        question="Should I wash my hands first?",
        answer="Yes, wash them first.",
        user_intent=["wash"],
        amb_shortlist=[],
        variants=[],
    ),
    "end_of_ambiguity": lambda g: edit(  # a shared first step: the index now points before the choice
        g["preferences"],
        plan_for_clear_task=["Wash your hands.", *g["preferences"].plan_for_clear_task],
        plan_for_amb_task=["Wash your hands.", *g["preferences"].plan_for_amb_task],
    ),
    "type": lambda g: edit(g["safety"], question="Should I stir it?", answer="Yes, stir it.", user_intent=["stir"]),
    "corruption": lambda g: edit(
        g["safety"],
        plan_for_clear_task=["0: " + g["safety"].plan_for_clear_task[0], *g["safety"].plan_for_clear_task[1:]],
    ),
    "environment": lambda g: edit(
        g["safety"], environment_short=g["safety"].environment_short + ", " + g["safety"].environment[0].name
    ),
    "fragment": lambda g: edit(g["preferences"], answer="d like the the oat milk, please."),
    "world_graph": lambda g: with_cycle(g["preferences"]),
    "world_names": lambda g: edit(g["preferences"], variants=[*g["preferences"].variants, "kitchen scale"]),
    "world_referent": lambda g: with_twin(g["preferences"]),
    "world_variants": lambda g: edit(g["preferences"], amb_shortlist=g["preferences"].amb_shortlist[1:]),
    "world_plan": lambda g: edit_world(
        g["preferences"], clear_plan=[Action(verb="place", obj=g["preferences"].world.target, target="counter")]
    ),
    "world_end_of_ambiguity": lambda g: edit_world(
        edit(g["preferences"], end_of_ambiguity=len(fetch_target(g["preferences"]))),
        clear_plan=fetch_target(g["preferences"]),
    ),
    "world_env_referent": lambda g: edit_perturbation(g["absence"], graph=g["absence"].world.graph),  # type: ignore[union-attr]
    "world_env_difference": lambda g: edit_perturbation(g["multiplicity"], added=[]),
    "world_env_answer": lambda g: edit(g["multiplicity"], answer=f"The {the_other(g['multiplicity'])}."),
    "world_env_end_of_ambiguity": lambda g: edit(
        g["multiplicity"], end_of_ambiguity=g["multiplicity"].end_of_ambiguity + 1
    ),
    "world_env_plan": lambda g: edit(
        g["multiplicity"], plan_for_amb_task=["Wipe the counter.", *g["multiplicity"].plan_for_amb_task]
    ),
    "reader_plan": lambda g: edit(
        g["preferences"], plan_for_clear_task=[*g["preferences"].plan_for_clear_task, "Pour the water over the fridge."]
    ),
    "reader_variants": lambda g: edit(
        g["common_sense_knowledge"], variants=g["common_sense_knowledge"].variants[1:] or ["nothing"]
    ),
    "reader_speech": lambda g: edit(
        g["safety"], unambiguous_direct=g["safety"].unambiguous_direct + " Hi robot, thanks."
    ),
}


def test_every_item_rule_has_a_breaker() -> None:
    assert set(BREAKERS) == set(all_rules(dataset=False))


@pytest.mark.parametrize("rule_id", sorted(BREAKERS))
def test_rule_passes_the_good_item_and_fails_the_broken_one(rule_id: str, good, ctx) -> None:  # type: ignore[no-untyped-def]
    for item in good.values():
        assert check_item(item, ctx, only=[rule_id]) == [], (rule_id, item.ambiguity_type)
    broken = BREAKERS[rule_id](good)
    failures = check_item(broken, ctx, only=[rule_id])
    assert failures and {f.rule for f in failures} == {rule_id}
    assert all(f.severity == all_rules()[rule_id].severity for f in failures)
    assert all(":" in f.message for f in failures)  # every message names its field


@pytest.mark.parametrize("kind", ["multiplicity", "absence", "reference", "observation"])
def test_a_containment_cycle_in_the_perturbed_kitchen_is_refused(kind: str, good, ctx) -> None:  # type: ignore[no-untyped-def]
    failures = check_item(with_cycle(good[kind], perturbed=True), ctx, only=["world_graph"])
    assert [f.rule for f in failures] == ["world_graph"]
    assert "world.perturbation.graph: a containment cycle" in failures[0].message


def test_minimal_pair_edit_ratio_threshold(good) -> None:  # type: ignore[no-untyped-def]
    item = edit(good["safety"], ambiguous_task="Do something completely different with a bowl now please.")
    strict = RuleContext(config=ValidationConfig(max_edit_ratio=0.3))
    assert any("rewrites" in f.message for f in check_item(item, strict, only=["rewrite"]))


def test_preferences_intent_word_must_leave_the_ambiguous_task(good, ctx) -> None:  # type: ignore[no-untyped-def]
    item = edit(good["preferences"], user_intent=good["preferences"].user_intent[:1])
    word = item.user_intent[0]
    kept = edit(item, ambiguous_task=item.unambiguous_direct.rstrip(".?") + " for me.")
    assert any("names every intent concept" in f.message for f in check_item(kept, ctx, only=["minimal_pair"]))
    # the word said again only in words the ambiguous task adds: the answer leaked back, answer_leak's
    leaky = edit(item, ambiguous_task=item.ambiguous_task.rstrip(".?") + f" ({word}).")
    assert not any("names every intent concept" in f.message for f in check_item(leaky, ctx, only=["minimal_pair"]))
    offered = edit(item, ambiguous_task=item.ambiguous_task.rstrip(".?") + f" ({word} or the other one).")
    assert not check_item(offered, ctx, only=["minimal_pair"])  # offered as an option: still ambiguous
    partial = edit(item, user_intent=[word, "zzz unrelated"], ambiguous_task=leaky.ambiguous_task)
    assert not check_item(partial, ctx, only=["minimal_pair"])  # one concept still open


def test_dataset_rules_exact_near_and_released(good, ctx, catalog) -> None:  # type: ignore[no-untyped-def]
    base = good["preferences"]
    copy = edit(base, id="copy-1")
    reworded = edit(base, id="reword-1", unambiguous_direct="Please, " + base.unambiguous_direct.lower())
    other = good["safety"]
    judged = validate_items([base, copy, reworded, other], ctx)
    rules = [[f.rule for f in i.validation.failed] for i in judged]  # type: ignore[union-attr]
    assert rules[0] == [] and rules[3] == []
    assert rules[1] == ["duplicate"] and judged[1].validation.passed is False  # type: ignore[union-attr]
    assert rules[2] == ["near_duplicate"] and judged[2].validation.passed is True  # type: ignore[union-attr]
    from ambiforge.textnorm import normalise

    released = RuleContext(catalog=catalog, known_tasks={normalise(other.unambiguous_direct): "amb-old"})
    again = validate_items([other], released)[0]
    assert [f.rule for f in again.validation.failed] == ["released_before"]  # type: ignore[union-attr]


def test_offline_items_pass_every_item_rule(catalog, ctx) -> None:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 5, "clean")
    for i, t in enumerate(["preferences", "common_sense_knowledge", "safety"] * 60):
        item = gen.generate(i, t)[0]
        assert check_item(item, ctx) == [], item.unambiguous_direct
