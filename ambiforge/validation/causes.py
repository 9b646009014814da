"""Systemic causes: one reason behind many flags, said once at the top of the report.

A rule that flags nearly every row of one stretch of ids, and few rows outside it, reports a property of
how that stretch was made (AmbiK's second half copies each ambiguous plan into the clear plan), not one
defect per row. The report names such a stretch once, with the rows it covers and what to change there,
and counts those rows under the cause rather than in the rule's line; the flags themselves stay in
``issues`` (a curator still fixes row by row).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: A cause needs at least this many rows, this share of its stretch flagged, and this share of the rule's
#: flagged rows inside the stretch.
MIN_ROWS = 20
MIN_DENSITY = 0.9
MIN_SHARE = 0.8
#: Flagged rows further apart than this (in row order) start a new stretch.
MAX_GAP = 3

#: What a cause of a rule is, said of its stretch of rows (the rule's description otherwise).
WHAT: dict[str, str] = {
    "plan_divergence": "the clear plan is a copy of the ambiguous plan",
    "corruption": "the plans' cells were exported with damaged numbering",
    "minimal_pair": "the ambiguous task was written without leaving the choice open",
    "shortlist": "no field lists the options",
}


def _stretch(positions: list[int]) -> tuple[int, int, int]:
    """The longest run of flagged positions with gaps of at most MAX_GAP: (first, last, flagged in it)."""
    best = (0, -1, 0)
    start = 0
    for k in range(1, len(positions) + 1):
        if k == len(positions) or positions[k] - positions[k - 1] > MAX_GAP + 1:
            run = (positions[start], positions[k - 1], k - start)
            if run[2] > best[2]:
                best = run
            start = k
    return best


def find_causes(rows: Sequence[Mapping[str, Any]], rules: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each error rule whose flagged rows crowd into one stretch of ``rows`` (the report's items in order):
    the stretch (first and last id, its size), how many of its rows the rule flags, the rule's rows outside
    it, and the other rules' flags inside it."""
    return causes_of_flagged([(n, row) for n, row in enumerate(rows) if row["failed"]], rules)


def causes_of_flagged(
    flagged_rows: Sequence[tuple[int, Mapping[str, Any]]], rules: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """:func:`find_causes` from the flagged rows alone, each with its position among all rows (the others
    flag nothing, so they add nothing to a cause): a report of any size keeps only these."""
    flagged: dict[str, list[int]] = {}
    for n, row in flagged_rows:
        for rule in {f["rule"] for f in row["failed"] if f["severity"] == "error"}:
            flagged.setdefault(rule, []).append(n)
    causes = []
    for rule, positions in flagged.items():
        if len(positions) < MIN_ROWS:
            continue
        first, last, inside = _stretch(positions)
        span = last - first + 1
        if inside < MIN_ROWS or inside / span < MIN_DENSITY or inside / len(positions) < MIN_SHARE:
            continue
        also: dict[str, int] = {}
        ids: dict[int, str] = {}
        for n, row in flagged_rows:
            if first <= n <= last:
                ids[n] = row["id"]
                for other in {f["rule"] for f in row["failed"]} - {rule}:
                    also[other] = also.get(other, 0) + 1
        causes.append(
            {
                "rule": rule,
                "what": WHAT.get(rule, rules[rule].get("description", rule)),
                "first": ids[first],
                "last": ids[last],
                "span": span,
                "rows": inside,
                "outside": len(positions) - inside,
                "positions": [first, last],
                "also": dict(sorted(also.items(), key=lambda kv: -kv[1])),
                "fix": rules[rule].get("fix", ""),
            }
        )
    return sorted(causes, key=lambda c: -c["rows"])


def in_cause(causes: Sequence[Mapping[str, Any]], rule: str, position: int) -> bool:
    """Whether the row at ``position`` is one of ``rule``'s rows that a cause already explains."""
    return any(c["rule"] == rule and c["positions"][0] <= position <= c["positions"][1] for c in causes)
