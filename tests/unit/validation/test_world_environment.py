"""Environment-induced types end to end: the offline generator makes each of the four from a clear kitchen
and a perturbed copy; every rule passes on them; breaking an item the issue's ways makes the matching
world_environment rule fail and name its evidence."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest

from ambiforge import ambiguity
from ambiforge.catalog import cached_catalog
from ambiforge.generation.offline.generator import OfflineGenerator
from ambiforge.generation.offline.mechanisms.perturb import jobs
from ambiforge.models import Item
from ambiforge.models.scene_graph_schema import scene_graph_json_schema
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import check_item
from ambiforge.validation.rules.world_environment import plans_of, says
from ambiforge.world import end_of_ambiguity, resolve
from ambiforge.world.index import index
from ambiforge.world.perturb import move, parse_referent, place_of, without

KINDS = ("multiplicity", "absence", "reference", "observation")


@pytest.fixture(scope="module")
def items() -> dict[str, list[Item]]:
    gen = OfflineGenerator(cached_catalog(), seed=11, run_id="t")
    return {kind: [gen.generate(i, kind)[0] for i in range(6)] for kind in KINDS}


def failures(item: Item, prefix: str = "") -> list[tuple[str, str]]:
    return [(f.rule, f.message) for f in check_item(item, RuleContext()) if f.rule.startswith(prefix)]


def broken(item: Item, **perturbation: object) -> Item:
    assert item.world is not None and item.world.perturbation is not None
    p = item.world.perturbation.model_copy(update=perturbation)
    return item.model_copy(update={"world": item.world.model_copy(update={"perturbation": p})})


def test_the_default_mix_stays_ambiks_three_types() -> None:
    assert set(ambiguity.default_mix()) == {"preferences", "common_sense_knowledge", "safety"}
    assert all(ambiguity.get(k).good_agent == "ask" and ambiguity.get(k).default_share == 0 for k in KINDS)


def test_every_item_passes_every_rule_and_keeps_its_instruction(items) -> None:
    validator = jsonschema_rs.validator_for(scene_graph_json_schema())
    for kind, made in items.items():
        for item in made:
            assert failures(item) == [], (kind, item.id)
            assert item.ambiguous_task == item.unambiguous_direct
            assert item.world is not None and item.world.perturbation is not None
            assert item.world.perturbation.kind == kind and item.world.clear_plan
            for graph in (item.world.graph, item.world.perturbation.graph):
                assert validator.is_valid(json.loads(graph.to_json()))


def test_counts_per_kind(items) -> None:
    for kind, made in items.items():
        for item in made:
            world = item.world
            assert world is not None and world.perturbation is not None
            p = world.perturbation
            noun = p.referent if kind != "reference" else None
            if noun is not None:
                assert [n.id for n in resolve(world.graph, noun)] == [world.target]
            if kind == "absence":
                assert p.removed == [world.target] and resolve(p.graph, noun) == []
            if kind == "observation":
                robot, other = p.views
                assert world.target in other.nodes and world.target not in robot.nodes


def test_same_seed_same_bytes() -> None:
    def made() -> list[str]:
        gen = OfflineGenerator(cached_catalog(), seed=5, run_id="t")
        return [json.dumps(gen.generate(i, k)[0].to_record(), sort_keys=True) for k in KINDS for i in range(2)]

    assert made() == made()


def test_dropping_the_duplicate_fails_multiplicity(items) -> None:
    item = items["multiplicity"][0]
    p = item.world.perturbation
    found = failures(broken(item, graph=without(p.graph, p.added[0])), "world_env")
    rules = {rule for rule, _ in found}
    assert rules >= {"world_env_referent", "world_env_difference"}
    message = next(m for r, m in found if r == "world_env_referent")
    assert "matches only" not in message and "multiplicity needs two or more" in message
    assert item.world.graph.node(item.world.target).name in message


def test_putting_the_removed_target_back_fails_absence(items) -> None:
    item = items["absence"][0]
    found = failures(broken(item, graph=item.world.graph), "world_env")
    target = item.world.graph.node(item.world.target).name
    assert ("world_env_referent", next(m for r, m in found if r == "world_env_referent")) in found
    assert any(r == "world_env_referent" and "absence needs none" in m and target in m for r, m in found)
    assert any(r == "world_env_difference" and "declared removed but the graphs agree" in m for r, m in found)


def test_a_target_the_asking_robot_sees_fails_observation(items) -> None:
    item = items["observation"][0]
    robot, other = item.world.perturbation.views
    seen = robot.model_copy(update={"nodes": [*robot.nodes, item.world.target]})
    found = failures(broken(item, views=[seen, other]), "world_env")
    target = item.world.graph.node(item.world.target).name
    assert any(r == "world_env_referent" and "the asking robot sees" in m and target in m for r, m in found)


def test_an_undeclared_change_and_a_wrong_answer_and_end_are_named(items) -> None:
    item = next(
        i
        for i in items["multiplicity"]
        if i.world.perturbation.graph.node(i.world.perturbation.added[0]).name
        != i.world.graph.node(i.world.target).name
    )
    p = item.world.perturbation
    found = failures(broken(item, added=[]), "world_env")
    assert any(r == "world_env_difference" and f"node {p.added[0]} added but not declared" in m for r, m in found)
    other = next(n for n in p.graph.nodes if n.id == p.added[0])
    found = failures(item.model_copy(update={"answer": f"The {other.name}."}), "world_env")
    assert any(r == "world_env_answer" and other.name in m for r, m in found)
    found = failures(item.model_copy(update={"end_of_ambiguity": item.end_of_ambiguity + 1}), "world_env")
    assert any(r == "world_env_end_of_ambiguity" for r, _ in found)


def test_reference_picks_one_of_several_in_the_clear_kitchen_and_none_or_two_after_a_move(items) -> None:
    for item in items["reference"]:
        world, p = item.world, item.world.perturbation
        expr = parse_referent(p.referent)
        assert [n.id for n in resolve(world.graph, expr)] == [world.target]
        assert len(resolve(world.graph, expr.noun)) >= 2  # the relation, not the noun, picks the target
        assert len(resolve(p.graph, expr)) in (0, 2) and p.moved and not p.added and not p.removed
        anchor = expr.relations[0].target.name
        assert anchor in item.question  # the question is about the relation
    # breaker: a perturbed kitchen where the relation still picks exactly one
    item = items["reference"][0]
    found = failures(broken(item, graph=item.world.graph, moved=[]), "world_env_referent")
    assert any("reference needs none or two or more" in m for _, m in found)


def test_end_of_ambiguity_is_where_the_answers_plans_part_in_the_changed_kitchen(items) -> None:
    for kind, made in items.items():
        for item in made:
            plans = plans_of(item, item.world, item.world.perturbation)
            if kind in ("multiplicity", "reference"):  # the target's plan there against the others'
                assert end_of_ambiguity(plans.intended, plans.others) == item.end_of_ambiguity, (kind, item.id)
            else:  # absence: no answer's plan is the clear one; observation: where it asks the other robot
                first = end_of_ambiguity(item.world.clear_plan, [plans.intended, *plans.others])
                assert first == item.end_of_ambiguity, (kind, item.id)
            assert item.end_of_ambiguity < len(item.plan_for_amb_task)


def test_a_reference_whose_candidates_share_a_closed_place_opens_it_first_and_parts_at_taking_out() -> None:
    """The defect a reader found in the seed-90417 read: the target put away in the closed cupboard that
    holds the other candidate. Both plans open it, so the ambiguous plan opens it too and they part at
    taking one out (step 1), which is what the intent names."""
    gen = OfflineGenerator(cached_catalog(), seed=90417, run_id="t")
    seen = 0
    for i in range(40):
        item = gen.generate(i, "reference")[0]
        world, p = item.world, item.world.perturbation
        if world.target not in p.moved:
            continue
        place = place_of(p.graph, world.target)
        others = [n for n in resolve(p.graph, parse_referent(p.referent).noun) if n.id != world.target]
        if not place or p.graph.node(place).state.open is not False:
            continue
        if any(place_of(p.graph, n.id) != place for n in others):
            continue
        seen += 1
        cupboard, noun = p.graph.node(place).name, parse_referent(p.referent).noun
        assert item.end_of_ambiguity == 1, item.id
        assert item.plan_for_amb_task[:2] == [f"Open the {cupboard}.", f"Take the {noun} out of the {cupboard}."]
        assert failures(item) == [], item.id
        assert all(cupboard not in concept.split("|") for concept in item.user_intent)
        # breaker: the plan as the reader found it (the shared opening left out, the index at 0)
        found = failures(
            item.model_copy(
                update={
                    "end_of_ambiguity": 0,
                    "plan_for_amb_task": [f"Pick up the {noun}.", *item.plan_for_amb_task[3:]],
                }
            ),
            "world_env",
        )
        assert any(r == "world_env_end_of_ambiguity" and "first differ at step 1" in m for r, m in found)
        found = failures(item.model_copy(update={"plan_for_amb_task": item.plan_for_amb_task[1:]}), "world_env")
        assert any(r == "world_env_plan" and f"Open the {cupboard}." in m for r, m in found)
    assert seen, "no reference item whose candidates share a closed place"


def test_an_absence_the_answer_declines_ends_by_telling_the_user(items) -> None:
    gen = OfflineGenerator(cached_catalog(), seed=90417, run_id="t")
    declined = 0
    for i in range(12):
        item = gen.generate(i, "absence")[0]
        noun = item.world.perturbation.referent
        if f"no {noun}" in item.answer:
            declined += 1
            assert item.plan_for_amb_task[-1].startswith("Tell the user that there "), item.id
            assert f"no {noun} in the kitchen" in item.plan_for_amb_task[-1]
            # breaker: the plan as the reader found it, fetching what is not there
            naive = [f"Pick up the {noun}.", "Give it to the user."]
            found = failures(item.model_copy(update={"plan_for_amb_task": naive}), "world_env_plan")
            assert found and "Tell the user that there" in found[0][1], item.id
        else:  # the substitute the answer takes is what the plan fetches
            sub = next(n for n in item.world.perturbation.graph.nodes if says(item.answer, n.name))
            assert any(sub.name in step for step in item.plan_for_amb_task), item.id
    assert declined


def test_observation_points_at_the_first_step_that_needs_the_other_robot(items) -> None:
    for item in items["observation"]:
        step = item.plan_for_amb_task[item.end_of_ambiguity]
        assert step.startswith("Pick up the ") and step.endswith(" from the counter."), item.id
        assert not any(s.startswith("Ask the other robot") for s in item.plan_for_amb_task)
    item = items["observation"][0]
    asked = [f"Ask the other robot: {item.question}", *item.plan_for_amb_task]
    found = failures(item.model_copy(update={"plan_for_amb_task": asked}), "world_env_plan")
    assert found and "Ask the other robot" in found[0][1]


def test_both_candidates_in_one_closed_place_part_at_taking_out() -> None:
    gen = OfflineGenerator(cached_catalog(), seed=3, run_id="t")
    seen = 0
    for i in range(60):
        item = gen.generate(i, "multiplicity")[0]
        p, world = item.world.perturbation, item.world
        dup = p.added[0]
        if place_of(p.graph, dup) == place_of(world.graph, world.target) and world.clear_plan[0].verb == "open":
            seen += 1
            assert item.end_of_ambiguity == 1, item.id
            assert world.clear_plan[1].verb == "take_out"
            cupboard = world.graph.node(world.clear_plan[0].obj).name
            assert all(cupboard not in concept.split("|") for concept in item.user_intent)
    assert seen, "no item with both candidates in one closed place"


def test_absence_offers_only_what_does_the_missing_objects_job(items) -> None:
    gen = OfflineGenerator(cached_catalog(), seed=11, run_id="t")
    offered = declined = 0
    for i in range(60):
        item = gen.generate(i, "absence")[0]
        world, p = item.world, item.world.perturbation
        target = world.graph.node(world.target)
        subs = [n for n in p.graph.nodes if n.type == "object" and says(item.question, n.name)]
        for sub in subs:
            offered += 1
            assert jobs(world.graph, target) & jobs(world.graph, sub), (item.id, target.name, sub.name)
            assert sub.tags[:1] == target.tags[:1], (item.id, target.name, sub.name)
        if f"no {p.referent}" in item.answer:
            declined += 1
    assert offered and declined


def test_a_name_inside_another_word_is_not_said() -> None:
    assert not says("Take the pineapple juice instead.", "apple juice")
    assert says("Take the apple juice instead.", "apple juice")
    assert not says("the dirty-mug", "mug")


def test_an_environment_type_without_its_perturbed_kitchen_fails(items) -> None:
    item = items["multiplicity"][0]
    bare = item.model_copy(update={"world": item.world.model_copy(update={"perturbation": None})})
    assert ("world_env_referent", "world: a multiplicity item without its perturbed kitchen") in failures(bare)


def test_the_minimal_pair_of_an_environment_type_is_one_sentence(items) -> None:
    item = items["absence"][0]
    assert failures(item, "minimal_pair") == [] and failures(item, "rewrite") == []
    reworded = item.model_copy(update={"ambiguous_task": "Bring me something."})
    assert failures(reworded, "minimal_pair") == [
        ("minimal_pair", "ambiguous_task: differs from unambiguous_direct; absence keeps the instruction")
    ]


def test_the_changed_kitchen_travels_with_the_item_and_into_the_ambik_export(items, tmp_path) -> None:
    import csv

    from ambiforge.ambik.csv_io import write_ambik_csv

    for kind, made in items.items():
        for item in made:
            p = item.world.perturbation
            # a move changes where things are, not what is there: reference lists the same objects
            assert p.environment_short and (kind == "reference") == (p.environment_short == item.environment_short)
    absent = items["absence"][0]
    target = absent.world.graph.node(absent.world.target).name
    assert target in absent.environment_short.split(", ")
    assert target not in absent.world.perturbation.environment_short.split(", ")
    path = write_ambik_csv([absent, items["multiplicity"][0]], tmp_path / "x.csv")
    rows = list(csv.DictReader(path.open()))
    assert rows[0]["environment_short_changed"] == absent.world.perturbation.environment_short
    assert target not in rows[0]["environment_full_changed"] and target in rows[0]["environment_full"]


@pytest.fixture(scope="module")
def read_72211() -> dict[int, Item]:
    """Items of the seed whose read found the ambiguous plan not fetching the answer's object (pair 6: the
    answer's serving tray in the closed upper cupboard, the other in the open), a move doing the task (pair 26)
    and "Can you see it?" for eggs (pair 20)."""
    gen = OfflineGenerator(cached_catalog(), seed=72211, run_id="env-read-72211")
    kinds = {6: "multiplicity", 26: "reference", 20: "observation"}
    return {i: gen.generate(i, kind)[0] for i, kind in kinds.items()}


def test_the_ambiguous_plan_carries_out_the_answer_where_the_candidates_are_kept_apart(read_72211) -> None:
    item = read_72211[6]
    assert failures(item) == []
    eoa = item.end_of_ambiguity
    assert item.plan_for_amb_task[eoa : eoa + 2] == [
        "Open the upper cupboard.",
        "Take the serving tray out of the upper cupboard.",
    ]
    # the form the read found: a bare pick-up, true of the other serving tray only
    rest = item.plan_for_amb_task[eoa + 3 :]
    old = item.model_copy(
        update={"plan_for_amb_task": [*item.plan_for_amb_task[:eoa], "Pick up the serving tray.", *rest]}
    )
    found = failures(old, "world_env_plan")
    assert found and "'Open the upper cupboard.'" in found[0][1]


def test_a_change_that_puts_the_target_where_the_task_sends_it_fails(read_72211) -> None:
    item = read_72211[26]
    assert failures(item) == []
    assert item.world is not None and item.world.perturbation is not None
    p = item.world.perturbation
    dest = next(a.target for a in item.world.clear_plan if a.verb in ("place", "put_in"))
    assert place_of(p.graph, item.world.target) != dest
    moved = move(p.graph, item.world.target, dest)  # the read's change: the tomato onto the upper shelf
    found = failures(broken(item, graph=moved), "world_env_plan")
    assert found and "already done" in found[0][1]


def test_observation_speaks_of_a_plural_noun_in_the_plural(read_72211) -> None:
    item = read_72211[20]
    assert item.world is not None and index(item.world.graph).by_id[item.world.target].plural
    assert "them" in item.question.split() or "them?" in item.question.split()
    assert "them" in item.answer.split()
    assert " it " not in f" {item.question} {item.answer} ".replace("?", " ").replace(".", " ")


def test_an_anchor_that_is_itself_of_the_noun_fails_reference(items) -> None:
    item = items["reference"][0]
    assert item.world is not None and item.world.perturbation is not None
    noun = parse_referent(item.world.perturbation.referent).noun
    found = failures(broken(item, referent=f"{noun} left of the ceramic mixing {noun}"), "world_env_referent")
    assert any("is itself a" in message for _, message in found)
