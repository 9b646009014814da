"""AmbiK's intent semantics and split conformal calibration against hand-computed values."""

from __future__ import annotations

import pytest

from ambiforge.detectors.conformal import calibrate, nonconformity, prediction_set
from ambiforge.detectors.intent import coverage, is_correct, satisfies


def test_substrings_are_case_insensitive() -> None:
    assert satisfies("Pour the milk into the CERAMIC  mug.", ["ceramic mug"])
    assert not satisfies("Pour the milk into the glass mug.", ["ceramic mug"])


def test_alternatives_and_negations() -> None:
    assert satisfies("Use the metal pan.", ["metal|steel"])
    assert satisfies("Use the steel pan.", ["metal|steel"])
    assert not satisfies("Put the steel bowl in the microwave.", ["bowl", "-stainless steel|steel"])
    assert satisfies("Put the ceramic bowl in the microwave.", ["bowl", "-stainless steel|steel"])


def test_coverage_counts_each_concept_over_the_whole_set() -> None:
    intent = ["ceramic bowl", "-metal bowl", "microwave"]
    # one option covers "ceramic bowl" and respects "-metal bowl"; "microwave" is in neither
    assert coverage(["Use the ceramic bowl.", "Use the metal bowl."], intent) == (2, 3)
    # only the unsafe option: "-metal bowl" is violated by every option in the set
    assert coverage(["Use the metal bowl in the microwave."], intent) == (1, 3)
    assert coverage([], intent) == (0, 3)


def test_variants_make_an_option_correct_before_disambiguation() -> None:
    assert is_correct("Take the glass mug.", ["ceramic mug"], ["glass mug", "ceramic mug"])
    assert not is_correct("Take the paper cup.", ["ceramic mug"], ["glass mug", "ceramic mug"])
    # variants equal to the intent (AmbiK's one-line cell) add nothing
    assert not is_correct("Take the milk.", ["milk", "fridge"], ["milk", "fridge"])


def test_nonconformity_uses_the_best_correct_option() -> None:
    assert nonconformity([0.5, 0.3, 0.2], [False, True, True]) == pytest.approx(0.7)
    assert nonconformity([0.5, 0.5], [False, False]) == 1.0


def test_calibration_quantile_by_hand() -> None:
    scores = [0.5, 0.1, 0.55, 0.3, 0.4, 0.05, 0.7, 0.2]
    # n = 8, epsilon 0.4: level = ceil(9 * 0.6) / 8 = 6 / 8; "higher" quantile of the sorted scores
    # [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.55, 0.7] at position 0.75 * 7 = 5.25 -> index 6 -> 0.55
    cal = calibrate(scores, 0.4)
    assert (cal.n, cal.level, cal.qhat) == (8, 0.75, 0.55)
    assert cal.threshold == pytest.approx(0.45)
    assert prediction_set([0.45, 0.45, 0.05, 0.05], cal) == [0, 1]
    assert prediction_set([0.5, 0.4, 0.05, 0.05], cal) == [0]


def test_calibration_at_epsilon_0_2_on_100_scores() -> None:
    scores = [i / 100 for i in range(100)]  # 0.00 .. 0.99
    cal = calibrate(scores, 0.2)
    # level = ceil(101 * 0.8) / 100 = 81 / 100; position 0.81 * 99 = 80.19 -> index 81 -> 0.81
    assert cal.level == 0.81
    assert cal.qhat == pytest.approx(0.81)


def test_small_calibration_caps_the_level_at_one() -> None:
    cal = calibrate([0.2, 0.9], 0.2)  # ceil(3 * 0.8) / 2 = 3 / 2 -> capped at 1
    assert cal.level == 1.0 and cal.qhat == 0.9


def test_calibration_refuses_nothing_to_calibrate_on() -> None:
    with pytest.raises(ValueError):
        calibrate([], 0.2)


def test_label_tokens_from_top_logprobs() -> None:
    from ambiforge.detectors.model import pick_tokens, softmax

    top = {" A": -0.5, "A": -0.9, "a": -0.1, "B": -1.5, "true": -0.2, "False": -2.0}
    assert pick_tokens(top, ("A", "B", "C")) == {"A": -0.5, "B": -1.5}  # the article "a" is no letter
    assert pick_tokens(top, ("True", "False")) == {"True": -0.2, "False": -2.0}
    probs = softmax({"A": 0.0, "B": -1.0})
    assert probs["A"] == pytest.approx(1 / (1 + 2.718281828459045**-1))
