"""What the generator needs of the world to build plans: hand work, filling, the kettle pouring, a step at
a time, moving things where a task presupposes them, and the coverage checks the world rule shares."""

from __future__ import annotations

import pytest

from ambiforge.models.scene_graph import SceneGraph, check_consistent
from ambiforge.world import (
    Action,
    Simulation,
    invented,
    relocate,
    render_plan,
    simulate,
    stale_names,
    task_mentions,
    task_values,
    uncovered,
)
from ambiforge.world.index import index


def A(verb: str, **kw: str) -> Action:  # noqa: N802 - reads like the plan it writes
    return Action(verb=verb, **kw)  # type: ignore[arg-type]


def test_tea_from_the_kettle_and_work_by_hand(make_graph) -> None:  # type: ignore[no-untyped-def]
    g = make_graph({"ceramic mug": "counter", "red apple": "counter", "oat milk": "fridge"})
    plan = [
        A("fill", obj="tea_kettle", quantity="250 ml of water"),
        A("switch_on", obj="tea_kettle"),
        A("wait", duration="until the water boils"),
        A("pour", obj="tea_kettle", target="ceramic_mug"),
        A("handle", obj="red_apple", how="cut @ into four slices"),
    ]
    result = simulate(g, plan)
    assert result.ok, result.message
    assert render_plan(plan, g) == [
        "Fill the tea kettle with 250 ml of water.",
        "Turn on the tea kettle.",
        "Wait until the water boils.",
        "Pour the water from the tea kettle into the ceramic mug.",
        "Cut the red apple into four slices.",
    ]
    shut = simulate(g, [A("handle", obj="oat_milk", how="shake")])
    assert shut.message == "step 1: shake the oat milk while the fridge is closed"
    assert not simulate(g, [A("pour", obj="fridge", target="ceramic_mug")]).ok  # a fridge pours nothing


def test_a_plan_step_by_step_and_a_moved_kitchen(make_graph) -> None:  # type: ignore[no-untyped-def]
    g = make_graph({"oat milk": "fridge"})
    sim = Simulation(g)
    assert sim.closed_around("oat_milk") == "fridge"
    assert sim.run(A("pick", obj="oat_milk")) == "step 1: pick up the oat milk while the fridge is closed"
    moved = relocate(g, {"oat_milk": "counter"})
    assert Simulation(moved).run(A("pick", obj="oat_milk")) is None
    assert [e for e in moved.edges if e.source == "oat_milk"][0].target == "counter"
    assert [e for e in g.edges if e.source == "oat_milk"][0].target == "fridge"  # the input is unchanged
    # A moved kitchen is made without validation: it must be what validation accepts, and a bad move raises.
    assert SceneGraph.model_validate_json(moved.to_json()) == moved
    check_consistent(moved.nodes, moved.edges, moved.relations_known)
    order = [(e.source, e.relation, e.target) for e in moved.edges]
    assert order == sorted(order)  # canonical order, the new locations put in their places
    assert index(moved).location["oat_milk"].target == "counter"  # its lookup table knows the move
    lined = make_graph(
        {"oat milk": "fridge", "ceramic mug": "counter", "red apple": "counter"},
        rows={"counter": ["ceramic_mug", "red_apple"]},
    )
    twice = relocate(lined, {"oat_milk": "counter", "ceramic_mug": "sink"})
    order = [(e.source, e.relation, e.target) for e in twice.edges]
    assert order == sorted(order) and not any(e.relation == "left_of" for e in twice.edges)
    assert index(twice).location == {e.source: e for e in twice.edges if e.relation in ("in", "on", "inside")}
    for bad in ({"oat_milk": "ceramic_mug"}, {"counter": "counter"}, {"unicorn": "counter"}):
        with pytest.raises(ValueError, match="cannot keep"):
            relocate(g, bad)
    with pytest.raises(ValueError, match="relations are unknown"):
        relocate(g.model_copy(update={"relations_known": False, "edges": ()}), {"oat_milk": "counter"})


def test_coverage_finds_dropped_and_invented_clauses(make_graph) -> None:  # type: ignore[no-untyped-def]
    g = make_graph({"potato chips": "counter", "red apple": "counter", "dirty ceramic plate": "sink"})
    plan = [A("pick", obj="potato_chips"), A("place", obj="potato_chips", target="kitchen_table")]
    task = "Put four portions of the potato chips on the lower shelf."
    assert task_values(task) == ["four"] and task_mentions(g, task) == ["shelf_2", "potato_chips"]
    assert uncovered(g, plan, objects=task_mentions(g, task), values=task_values(task)) == [
        "the task names the lower shelf; no step does",
        "the task says 'four'; no step's parameters do",
    ]
    covered = [plan[0], A("place", obj="potato_chips", target="shelf_2", quantity="four portions")]
    assert uncovered(g, covered, objects=task_mentions(g, task), values=task_values(task)) == []
    assert invented(g, [*covered, A("pick", obj="red_apple")], ["potato_chips"]) == [
        "step 3: the task does not mention the red apple"
    ]
    washing = [A("pick", obj="dirty_ceramic_plate"), A("wash", obj="dirty_ceramic_plate")]
    washing.append(A("place", obj="dirty_ceramic_plate", target="kitchen_table"))
    texts = render_plan(washing, g)
    assert texts[2] == "Put the ceramic plate on the kitchen table."  # names follow states
    assert stale_names(g, washing, texts) == []
    stale = [*texts[:2], "Put the dirty ceramic plate on the kitchen table."]
    assert stale_names(g, washing, stale) == ["step 3: calls the washed ceramic plate dirty"]
    assert task_values("Start the dishwasher on the eco program for 20 minutes.") == ["eco", "20"]


def test_a_cut_implies_a_knife_only_when_the_task_names_none(make_graph) -> None:  # type: ignore[no-untyped-def]
    g = make_graph({"chocolate cake": "counter", "bread knife": "counter", "chef's knife": "counter"})
    plan = [A("pick", obj="bread_knife"), A("cut", obj="chocolate_cake", tool="bread_knife")]
    assert invented(g, plan, ["chocolate_cake"]) == []  # "Slice the chocolate cake": the knife is implied
    assert invented(g, plan, ["chocolate_cake", "chefs_knife"]) == [  # "... with the chef's knife"
        "step 1: the task does not mention the bread knife",
        "step 2: the task does not mention the bread knife",
    ]
    held = [A("pick", obj="bread_knife"), A("place", obj="bread_knife", target="counter")]
    assert invented(g, held, ["chocolate_cake"]) == [  # a knife that cuts nothing is no implied tool
        "step 1: the task does not mention the bread knife",
        "step 2: the task does not mention the bread knife",
    ]


def test_an_idle_move_is_read_while_the_plan_runs(make_graph) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.generation.offline.steps import idle_move, run_watched

    g = make_graph({"ceramic mug": "counter", "oat milk": "fridge"})
    back = [A("pick", obj="ceramic_mug"), A("place", obj="ceramic_mug", target="counter")]
    idle = "step 2 puts ceramic_mug back at counter, where it already was"
    assert idle_move(g, back) == idle
    washed = [back[0], A("wash", obj="ceramic_mug"), back[1]]  # something done to it between: not idle
    assert run_watched(g, washed) == (None, None)
    closed = "step 1: pick up the oat milk while the fridge is closed"
    assert run_watched(g, [A("pick", obj="oat_milk"), *back]) == (closed, None)  # steps after a failure unread
    late = "step 3: pick up the oat milk while the fridge is closed"
    assert run_watched(g, [*back, A("pick", obj="oat_milk")]) == (late, idle)  # one run says both


def test_a_plan_unfit_at_a_step_is_built_no_further(make_graph) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.generation.offline.steps import BoundSteps, StepSpec, build_plan

    g = make_graph({"ceramic mug": "counter", "oat milk": "fridge"})
    binding = {"m": "ceramic_mug", "o": "oat_milk"}

    def built(*steps: dict[str, str]):  # type: ignore[no-untyped-def]
        return build_plan(g, [BoundSteps(tuple(StepSpec.model_validate(s) for s in steps), binding)])

    idle = built({"fetch": "m"}, {"put": "m", "target": "counter"}, {"fetch": "o"})
    assert idle.idle is not None and "ceramic_mug" in idle.idle and idle.error is None
    assert [a.verb for a in idle.actions] == ["pick", "place"]  # the milk is never fetched
    failed = built({"cut": "o", "tool": "m"}, {"fetch": "o"})
    assert failed.error is not None and "closed" in failed.error
    assert [a.verb for a in failed.actions] == ["pick", "cut"]
    fit = built({"fetch": "o"}, {"put": "o", "target": "counter"})
    assert fit.error is None and fit.idle is None and fit.ends == [len(fit.actions)] and len(fit.actions) == 4
