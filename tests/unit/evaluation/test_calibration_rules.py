"""Calibration you can defend (issue 27): KnowNo's rule by default, the published code's rule and the
all-tasks rule as options, with the left-out tasks, the coverage and the warnings in the results."""

from __future__ import annotations

import math
import re

import pytest

from ambiforge.detectors.conformal import calibrate_tasks, prediction_set
from ambiforge.detectors.model import CallTag, Completion, Messages, TokenLogprobs
from ambiforge.detectors.tasks import halves
from ambiforge.evaluation.data import Dataset
from ambiforge.evaluation.run import evaluate, results_document
from tests.unit.evaluation.fixtures import item

_TASK = re.compile(r"^Task: (.*)$", re.MULTILINE)
KINDS = ("preferences", "common_sense_knowledge", "safety")


def pairs(n: int) -> list:
    """``n`` pairs; pair k's correct step is "Put the <thing k> on the plate."."""
    return [
        item(
            f"I{k}",
            KINDS[k % 3],
            f"thing{k}, other{k}, plate",
            f"Put something {k} on the plate.",
            f"Put the thing{k} on the plate.",
            [f"thing{k}"],
            [f"thing{k}", f"other{k}"],
            [f"thing{k}", f"other{k}"],
        )
        for k in range(n)
    ]


class PeakedModel:
    """Four options per task, peaked scores (A 0.91, B-D 0.03): A is the correct step on three tasks in four
    (pair index k % 4 != 3), else every option is wrong."""

    name = "peaked"

    def _k(self, messages: Messages) -> int:
        task = _TASK.findall([c for r, c in messages if r == "user"][-1])[-1]
        return int(re.search(r"(\d+)", task).group(1))  # type: ignore[union-attr]

    def complete(self, messages: Messages, tag: CallTag, **_: object) -> Completion:
        k = self._k(messages)
        first = f"Put the thing{k} on the plate." if k % 4 != 3 else "Wash the plate."
        options = [first, "Open the fridge.", "Wipe the table.", "Turn on the light."]
        return Completion("\n".join(f"{x}) {o}" for x, o in zip("ABCD", options, strict=True)), f"c{k}")

    def next_token_logprobs(self, messages: Messages, tag: CallTag, **_: object) -> TokenLogprobs:
        tops = dict(zip("ABCD", (math.log(0.91), math.log(0.03), math.log(0.03), math.log(0.03)), strict=True))
        return TokenLogprobs("A", tops, f"l{self._k(messages)}")


def run(rule: str, n: int = 40) -> tuple:
    items = pairs(n)
    calibration = [halves(i)[k % 2] for k, i in enumerate(items)]  # one half of each pair, alternating
    dataset = Dataset("peaked", "peaked", items, calibration, "calibration split", "test")
    (result,) = evaluate(dataset, ["knowno"], PeakedModel(), {}, epsilon=0.2, calibration_rule=rule)
    document = results_document(dataset, [result], {})
    return result, document["methods"]["knowno"]


def test_knowno_rule_small_sets_when_a_quarter_of_the_tasks_has_no_correct_option() -> None:
    result, record = run("knowno")
    overall = result.summary["all"]
    assert overall["set_size"] < 1.5 and overall["HR"] < 1
    calibration = record["calibration"]
    assert calibration["rule"] == "knowno" and calibration["tasks"] == 40
    assert calibration["no_correct_option"] == 10 and calibration["left_out"] == 10 and calibration["n"] == 30
    assert record["test_coverage"]["with_correct_option"] == 1.0
    assert record["test_coverage"]["all"] == 0.75  # the tasks without a correct option cannot be covered
    assert any("only 30 of 40 calibration tasks have a correct option" in w for w in calibration["warnings"])


def test_all_tasks_rule_degenerates_as_documented() -> None:
    result, record = run("all")
    assert record["calibration"]["qhat"] == 1.0 and result.summary["all"]["set_size"] == 4.0
    assert result.summary["all"]["HR"] == 1.0


def test_authors_rule_pools_correct_probabilities_and_compares_strictly() -> None:
    result, record = run("authors")
    calibration = record["calibration"]
    assert calibration["n"] == 30 and calibration["qhat"] == pytest.approx(0.91)  # every pooled p is 0.91
    assert result.summary["all"]["set_size"] == 0.0  # nothing is strictly above 0.91: the published quirk


def test_a_too_small_calibration_set_warns() -> None:
    calibration = calibrate_tasks([([0.9, 0.1], [True, False])] * 3, epsilon=0.2)
    assert calibration.level == 1.0
    assert any("too few for epsilon 0.2 (at least 4 needed)" in w for w in calibration.warnings)
    assert not calibrate_tasks([([0.9, 0.1], [True, False])] * 4, epsilon=0.2).warnings


def test_nothing_to_calibrate_on_says_so() -> None:
    calibration = calibrate_tasks([([0.9, 0.1], [False, False])] * 5, epsilon=0.2)
    assert calibration.n == 0 and calibration.no_correct_option == 5
    assert prediction_set([0.9, 0.1], calibration) == [0, 1]
    assert any("nothing to calibrate on" in w for w in calibration.warnings)


def test_authors_quantile_is_linear_over_pooled_probabilities() -> None:
    # pooled p: .9 .6 (task 1: two correct options), .8, .7, .5 -> level ceil(6 * .8) / 5 = 1.0 -> max
    tasks = [([0.9, 0.6, 0.1], [True, True, False]), ([0.8, 0.2], [True, False]), ([0.7], [True]), ([0.5], [True])]
    calibration = calibrate_tasks(tasks, epsilon=0.2, rule="authors")
    assert calibration.n == 5 and calibration.qhat == pytest.approx(0.9)
    eleven = [([p / 10], [True]) for p in range(1, 11)]  # 10 scores .1 .. 1.0: level ceil(11 * .5) / 10 = .6
    assert calibrate_tasks(eleven, epsilon=0.5, rule="authors").qhat == pytest.approx(0.64)  # linear, not higher


class SomeFail(PeakedModel):
    """Pairs 0 and 1 get a reply with no options A-D: their tasks fail, in calibration as in the test."""

    def complete(self, messages: Messages, tag: CallTag, **kw: object) -> Completion:
        if self._k(messages) in (0, 1):
            return Completion("I am not sure what you mean.", "bad")
        return super().complete(messages, tag, **kw)


def test_failed_calibration_tasks_are_left_out_and_counted() -> None:
    items = pairs(40)
    calibration = [halves(i)[k % 2] for k, i in enumerate(items)]
    dataset = Dataset("peaked", "peaked", items, calibration, "calibration split", "test")
    (result,) = evaluate(dataset, ["knowno"], SomeFail(), {}, epsilon=0.2)
    record = result.calibration.to_record()
    assert record["errors"] == 2 and record["tasks"] == 38 and record["no_correct_option"] == 10
    assert record["n"] == 28  # 40 - 2 failed - 10 without a correct option
    assert result.summary["all"]["errors"] == 4 and result.summary["all"]["n"] == 76
    assert result.test_coverage["tasks"] == 76
