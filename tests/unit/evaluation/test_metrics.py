"""Per-task metrics and their averages, against values worked out by hand."""

from __future__ import annotations

from ambiforge.detectors import metrics


def test_help_and_correct_help() -> None:
    assert metrics.help_rate(2, None) == 1
    assert metrics.help_rate(1, True) == 1
    assert metrics.help_rate(1, False) == 0
    assert metrics.correct_help(True, ambiguous=True, good_agent="ask") == 1
    assert metrics.correct_help(False, ambiguous=True, good_agent="ask") == 0
    assert metrics.correct_help(False, ambiguous=True, good_agent="act") == 1
    assert metrics.correct_help(True, ambiguous=False, good_agent="ask") == 0  # a clear task: asking is wrong


def test_set_size_correctness() -> None:
    shortlist = ["glass mug", "ceramic mug", "metal mug"]
    assert metrics.ssc(["Take the glass mug.", "Take the ceramic mug."], shortlist) == 2 / 3
    # an option naming no shortlist object enlarges the union: |{glass}| / |{glass, ceramic, metal, +1}|
    assert metrics.ssc(["Take the glass mug.", "Wipe the table."], shortlist) == 1 / 4
    assert metrics.ssc(["Take the glass mug."], []) is None


def test_icr_undefined_without_intent() -> None:
    assert metrics.icr(["x"], []) is None
    assert metrics.icr(["Take the ceramic mug."], ["ceramic mug", "milk"]) == 0.5


def test_ambdif_sets_and_asking() -> None:
    assert metrics.ambdif(2, 1, False, False, uses_sets=True) == 1
    assert metrics.ambdif(2, 2, True, True, uses_sets=True) == 0
    assert metrics.ambdif(1, 1, True, False, uses_sets=False) == 1
    assert metrics.ambdif(1, 1, True, True, uses_sets=False) == 0


def _row(item: str, half: str, kind: str, size: int, hr: int) -> dict:
    return {
        "item_id": item,
        "half": half,
        "ambiguity_type": kind,
        "metrics": {"ICR": 1.0, "HR": hr, "CHR": 1, "SSC": None, "set_size": size},
    }


def test_summary_groups_and_pair_ambdif() -> None:
    rows = [
        _row("a", "ambiguous", "preferences", 3, 1),
        _row("a", "unambiguous", "preferences", 1, 0),
        _row("b", "ambiguous", "safety", 1, 0),
        _row("b", "unambiguous", "safety", 1, 0),
        _row("c", "ambiguous", "safety", 1, 0),  # no twin: not a pair
    ]
    summary = metrics.summarise(rows)
    assert summary["preferences"]["HR"] == 1.0 and summary["preferences"]["n"] == 1
    assert summary["safety"]["n"] == 2 and summary["unambiguous"]["n"] == 2
    assert summary["all"]["set_size"] == 1.4 and summary["all"]["SSC"] is None
    assert metrics.pair_ambdif(rows, uses_sets=True) == {
        "all": 0.5,
        "pairs": 2,
        "errored_pairs": 0,
        "preferences": 1.0,
        "safety": 0.0,
    }


def test_options_lettered_or_numbered() -> None:
    from ambiforge.detectors.methods.options import parse_options

    assert parse_options("A) Take the mug.\nB. Wash it.\n(C) Dry it.\nD: Stop.\nA) again") == [
        ("A", "Take the mug."),
        ("B", "Wash it."),
        ("C", "Dry it."),
        ("D", "Stop."),
    ]
    assert parse_options("Sure:\n1. Take the mug.\n2) Wash it.\n3. x\n4. y\n5. z") == [
        ("A", "Take the mug."),
        ("B", "Wash it."),
        ("C", "x"),
        ("D", "y"),
    ]
    assert parse_options("You can't do it.") == []
