"""A whole eval (all five methods) on four hand-made pairs with a fake model whose replies are fixed, so
every number below is worked out by hand (see tests/unit/evaluation/fixtures.py for the replies)."""

from __future__ import annotations

import math

import pytest

from ambiforge.detectors.methods import get
from ambiforge.detectors.methods.lofreecp import reliability
from ambiforge.detectors.tasks import halves
from ambiforge.errors import ConfigError
from ambiforge.evaluation.data import Dataset
from ambiforge.evaluation.run import evaluate
from tests.unit.evaluation.fixtures import ITEMS, TableModel


def dataset() -> Dataset:
    every_half = [t for i in ITEMS for t in halves(i)]
    return Dataset("fixture", "fixture", list(ITEMS), every_half, "test", "fixture")


def by_method(results: list) -> dict:
    return {r.name: r for r in results}


def core(group: dict) -> dict:
    """A group's figures without the counts behind each one (``n_<metric>``, ``errors``: none here)."""
    assert group["errors"] == 0
    return {k: v for k, v in group.items() if not k.startswith("n_") and k not in ("errors", "SR")}


def test_knowno_by_hand() -> None:
    model = TableModel()
    (r,) = evaluate(dataset(), ["knowno"], model, {}, epsilon=0.4, concurrency=2)
    # calibration scores 1 - p(best correct): P1 .5 .1, P2 .55 .3, C1 .4 .05, S1 .7 .2 -> qhat 0.55
    assert r.calibration.qhat == 0.55
    assert r.calibration_coverage == 0.875  # 7 of 8 scores <= 0.55
    s = r.summary
    assert core(s["preferences"]) == {"n": 2, "ICR": 0.5, "HR": 0.5, "CHR": 0.5, "SSC": 0.75, "set_size": 1.5}
    assert core(s["common_sense_knowledge"]) == {
        "n": 1,
        "ICR": 1.0,
        "HR": 0.0,
        "CHR": 1.0,
        "SSC": None,
        "set_size": 1.0,
    }
    assert core(s["safety"]) == {"n": 1, "ICR": 0.0, "HR": 0.0, "CHR": 1.0, "SSC": None, "set_size": 1.0}
    assert core(s["unambiguous"]) == {"n": 4, "ICR": 1.0, "HR": 0.0, "CHR": 1.0, "SSC": None, "set_size": 1.0}
    assert core(s["all"]) == {"n": 8, "ICR": 0.75, "HR": 0.125, "CHR": 0.875, "SSC": 0.75, "set_size": 1.125}
    assert r.ambdif == {
        "all": 0.25,
        "pairs": 4,
        "errored_pairs": 0,
        "preferences": 0.5,
        "common_sense_knowledge": 0.0,
        "safety": 0.0,
    }
    p2 = next(row for row in r.rows if row["item_id"] == "P2" and row["half"] == "ambiguous")
    assert p2["prediction_set"] == [0, 1] and p2["asked"] is True and len(p2["calls"]) == 2
    assert model.calls.count("knowno.options") == 8  # calibration and evaluated tasks coincide: one detection each


def test_binary_and_nohelp_by_hand() -> None:
    results = by_method(evaluate(dataset(), ["binary", "nohelp"], TableModel(), {}, epsilon=0.2))
    b, n = results["binary"].summary, results["nohelp"].summary
    # SR for the text methods too (these items have no graph: AmbiK's intent match on a clear half). Binary:
    # P1 asks on the ambiguous half (1) and acts right on the clear one (1); P2 acts on the ambiguous half
    # (preferences must ask: 0) and asks on the clear one (0); C1 acts right on both; S1 asks where safety
    # must act (0) and acts right when clear. NoHelp never asks: every clear half right, no preference asked.
    assert {g: v["SR"] for g, v in b.items()} == {
        "common_sense_knowledge": 1.0, "preferences": 0.5, "safety": 0.0, "unambiguous": 0.75, "all": 0.625,
    }  # fmt: skip
    assert {g: v["SR"] for g, v in n.items()} == {
        "common_sense_knowledge": 1.0, "preferences": 0.0, "safety": 0.0, "unambiguous": 1.0, "all": 0.625,
    }  # fmt: skip
    assert core(b["preferences"]) == {"n": 2, "ICR": 0.0, "HR": 0.5, "CHR": 0.5, "SSC": 0.5, "set_size": 1.0}
    assert b["safety"]["HR"] == 1.0 and b["safety"]["CHR"] == 0.0
    assert b["unambiguous"]["HR"] == 0.25 and b["unambiguous"]["CHR"] == 0.75
    # ambiguous Uncertain while the clear twin is Certain: P1 and S1
    assert results["binary"].ambdif == {
        "all": 0.5,
        "pairs": 4,
        "errored_pairs": 0,
        "preferences": 0.5,
        "common_sense_knowledge": 0.0,
        "safety": 1.0,
    }
    assert n["all"]["HR"] == 0.0 and n["preferences"]["CHR"] == 0.0 and n["unambiguous"]["CHR"] == 1.0
    assert b["all"]["ICR"] == 0.625  # 1/4 ambiguous + 4/4 clear, of 8
    # the paper's NoHelp: the same actions, but it never asks, so it covers no intent and never helps
    assert n["all"]["ICR"] == 0.0 and n["all"]["n_ICR"] == 8 and n["all"]["HR"] == 0.0 and n["all"]["SSC"] is None
    assert results["nohelp"].ambdif["all"] == 0.0
    assert results["binary"].calibration is None


def test_lap_multiplies_affordances_and_renormalises() -> None:
    # P1's ambiguous options: glass mug .5, ceramic mug .4, two junk .05; prompt affordance True for the
    # ceramic mug 0.9, others 0.5; "Open the fridge." and the rest name scene objects only (context 1)
    model = TableModel(affordance={"Pour the milk into the ceramic mug.": 0.9})
    p1 = halves(ITEMS[0])[0]
    detection = get("lap").detect(p1, model, get("lap").Settings())
    raw = [0.5 * 0.5, 0.4 * 0.9, 0.05 * 0.5, 0.05 * 0.5]
    assert detection.scores == pytest.approx([x / sum(raw) for x in raw])
    assert detection.details["context_affordance"] == [1.0, 1.0, 1.0, 1.0]
    assert model.calls.count("lap.affordance") == 4


def test_lap_context_affordance_zeroes_an_absent_object() -> None:
    from ambiforge.detectors.methods.affordance import context_affordance

    scene = ["glass mug", "whole milk", "sink"]
    assert context_affordance("Pour the milk into the glass mug.", scene) == 1.0
    assert context_affordance("Pour the milk into the ceramic mug.", scene) == 0.0  # a catalog object not here
    assert context_affordance("Pour the milk into the sink.", scene) == 1.0


def test_lofreecp_reliability_by_hand() -> None:
    options, scores, details = reliability(["Pick up the mug.", "pick up the mug", "Wipe the table."], 0.1, 0.0)
    assert options == ["Pick up the mug.", "Wipe the table."]
    ne = -(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3)) / math.log(3)
    assert details["normalised_entropy"] == pytest.approx(ne, abs=1e-6)
    assert scores == pytest.approx([2 / 3 - 0.1 * ne, 1 / 3 - 0.1 * ne])
    _, with_ss, d2 = reliability(["Pick up the mug.", "pick up the mug", "Wipe the table."], 0.1, 0.1)
    assert 0 < d2["similarity_to_top"][1] < 1
    assert with_ss[1] == pytest.approx(1 / 3 - 0.1 * ne + 0.1 * d2["similarity_to_top"][1])
    # unanimous samples: entropy 0, the one response has reliability 1
    assert reliability(["A."] * 5, 0.1, 0.1)[1] == [1.0]


def test_all_five_methods_run_on_the_fixture() -> None:
    results = evaluate(dataset(), ["knowno", "lap", "lofreecp", "binary", "nohelp"], TableModel(), {}, epsilon=0.2)
    assert [r.name for r in results] == ["knowno", "lap", "lofreecp", "binary", "nohelp"]
    for r in results:
        assert len(r.rows) == 8 and all(row["error"] is None for row in r.rows)
        assert r.summary["all"]["n"] == 8


def test_a_method_needing_logprobs_fails_with_one_line() -> None:
    with pytest.raises(ConfigError, match="no log-probabilities") as info:
        evaluate(dataset(), ["knowno"], TableModel(logprobs=False), {}, epsilon=0.2)
    assert "\n" not in str(info.value)


def test_unknown_method_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown method 'maybe'"):
        get("maybe")


def test_a_registered_detector_plugs_in_with_its_own_figures() -> None:
    """The shape a debate or dialogue detector takes: decides without calibration, keeps its findings in
    details, and reports figures of its own next to AmbiK's metrics."""
    from typing import ClassVar

    from ambiforge.detectors.methods import Detection, register, unregister
    from ambiforge.detectors.methods.base import DirectDetector

    class AlwaysAsk(DirectDetector):
        name: ClassVar[str] = "always_ask"
        needs_logprobs: ClassVar[bool] = False
        sequential_calls: ClassVar[int] = 1

        def detect(self, task, model, settings):  # type: ignore[no-untyped-def]
            return Detection(["Which one?"], [1.0], [0], True, details={"rounds": 2})

        def summarise(self, rows):  # type: ignore[no-untyped-def]
            return {"mean_rounds": sum(r["details"]["rounds"] for r in rows) / len(rows)}

    register("always_ask", AlwaysAsk)
    try:
        (r,) = evaluate(dataset(), ["always_ask"], TableModel(), {}, epsilon=0.2)
    finally:
        unregister("always_ask")
    assert r.extra == {"mean_rounds": 2.0}
    assert r.summary["preferences"]["CHR"] == 1.0 and r.summary["unambiguous"]["CHR"] == 0.0
    assert r.ambdif["all"] == 0.0  # asks on both halves: tells nothing apart
