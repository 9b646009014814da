"""Systemic causes in the validation report: a stretch of ids where one error rule flags nearly every row is
said once, with its range; rules with no flag are folded away; every warning says what to change."""

from __future__ import annotations

from typing import Any

from ambiforge.validation.causes import find_causes, in_cause
from ambiforge.validation.report import WHAT_TO_FIX
from ambiforge.validation.rules import all_rules

RULES = {"plan_divergence": {"description": "plans differ", "fix": "write the clear plan"}, "grounding": {}}


def _rows(flagged: dict[str, set[int]], n: int = 200) -> list[dict[str, Any]]:
    return [
        {
            "id": str(i + 1),
            "failed": [{"rule": r, "severity": "error"} for r, where in flagged.items() if i in where],
        }
        for i in range(n)
    ]


def test_a_copied_half_is_one_cause_with_its_range() -> None:
    copied = set(range(100, 200)) - {150}  # one row of the stretch is fine
    rows = _rows({"plan_divergence": copied | {3, 40}, "grounding": {120, 130, 5}})
    [cause] = find_causes(rows, RULES)
    assert (cause["rule"], cause["first"], cause["last"], cause["rows"], cause["outside"]) == (
        "plan_divergence",
        "101",
        "200",
        99,
        2,
    )
    assert cause["also"] == {"grounding": 2}
    assert cause["fix"] == "write the clear plan"
    assert in_cause([cause], "plan_divergence", 120) and not in_cause([cause], "plan_divergence", 40)
    assert not in_cause([cause], "grounding", 120)


def test_scattered_flags_are_no_cause() -> None:
    rows = _rows({"plan_divergence": set(range(0, 200, 3))})  # every third row: a third of any stretch
    assert find_causes(rows, RULES) == []
    assert find_causes(_rows({"plan_divergence": set(range(10))}), RULES) == []  # too few rows


def test_every_flagging_rule_says_what_to_change() -> None:
    rules = {rid: r for rid, r in all_rules().items() if not rid.startswith("world_")}
    missing = [rid for rid in rules if rid not in WHAT_TO_FIX]
    assert missing == []
    assert all(WHAT_TO_FIX[rid] != rules[rid].description for rid in rules if rid in WHAT_TO_FIX)
