"""Release gates in the maintainer's words: each failure one line with its numbers, such as
"preferences 52.4% vs target 47.2% +/- 5%", and what to do about it.

The checks themselves are the item schema (per row) and the Great Expectations suite
(:mod:`ambiforge.validation.expectations`); this module only phrases their results.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ambiforge import ambiguity
from ambiforge.releases.selection import EXCLUDED_BECAUSE


def _label(type_name: str) -> str:
    known = ambiguity.types()
    return known[type_name].name if type_name in known else type_name


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _count(observed: Any) -> int | None:
    return observed.get("unexpected_count") if isinstance(observed, dict) else None


def _examples(observed: Any) -> str:
    examples = observed.get("examples") if isinstance(observed, dict) else None
    return f" (e.g. {', '.join(map(str, examples[:3]))})" if examples else ""


def expectation_message(result: Mapping[str, Any], target_mix: Mapping[str, float] | None, tolerance: float) -> str:
    """One failed expectation as a sentence with its numbers."""
    kind, column, observed, kwargs = (
        result["expectation"],
        result.get("column"),
        result.get("observed"),
        result["kwargs"],
    )
    if kind == "expect_column_mean_to_be_between" and column and column.startswith("is_") and target_mix:
        type_name = column.removeprefix("is_")
        total = sum(target_mix.values()) or 1.0
        share = target_mix.get(type_name, 0.0) / total
        return f"{_label(type_name)} {_pct(observed or 0.0)} vs target {_pct(share)} +/- {tolerance * 100:g}%"
    n = _count(observed)
    if kind == "expect_column_values_to_be_unique":
        return f"{column}: {n} duplicate values{_examples(observed)}"
    if kind == "expect_column_values_to_not_be_null":
        return f"{column}: {n} items have none"
    if kind == "expect_column_value_lengths_to_be_between":
        return (
            f"{column}: {n} items shorter than {kwargs.get('min_value')} or longer than "
            f"{kwargs.get('max_value')} characters{_examples(observed)}"
        )
    if kind == "expect_column_values_to_be_in_set":
        allowed = ", ".join(map(str, kwargs.get("value_set", [])))
        return f"{column}: {n} items with a value outside {allowed}{_examples(observed)}"
    if kind == "expect_column_values_to_be_between":
        return (
            f"{column}: {n} items outside {kwargs.get('min_value')} to {kwargs.get('max_value')}{_examples(observed)}"
        )
    return f"{kind} on {column or 'the table'} failed (observed {observed})"


def expectations_message(
    results: list[Mapping[str, Any]], target_mix: Mapping[str, float] | None, tolerance: float, source: str = ""
) -> str:
    failed = [r for r in results if not r["success"]]
    mix = [r for r in failed if r["expectation"] == "expect_column_mean_to_be_between"]
    other = [r for r in failed if r not in mix]
    parts = []
    if mix:
        parts.append(
            "type mix outside tolerance: "
            + "; ".join(expectation_message(r, target_mix, tolerance) for r in mix)
            + (
                f" (target: {source}; change the mix, or pass --mix-tolerance)"
                if source
                else " (change the mix, or pass --mix-tolerance)"
            )
        )
    parts += [expectation_message(r, target_mix, tolerance) for r in other]
    return "; ".join(parts)


PSEUDONYM = re.compile(r"^(annotator-[0-9]+|maintainer)$")


def unpseudonymous(records: Sequence[Mapping[str, Any]]) -> str | None:
    """The first item whose review names someone other than by pseudonym (a review pulled before
    pseudonyms existed), as a message that does not repeat the name; None when all are pseudonymous."""
    for record in records:
        review = record.get("review") or {}
        names = [a.get("annotator") for a in review.get("annotations") or []]
        names += [n for c in review.get("applied_corrections") or [] for n in c.get("annotators") or []]
        if any(not PSEUDONYM.match(str(n)) for n in names):
            return (
                f"item {record['id']}: its review names an annotator who is not a pseudonym (annotator-N); "
                "pull the run again (ambiforge review pull) so that no name or e-mail is published"
            )
    return None


def schema_message(failures: list[dict[str, Any]]) -> str:
    first = failures[0]
    more = f" (and {len(failures) - 1} more rows)" if len(failures) > 1 else ""
    return f"rows break the item schema: {first['row']}: {first['errors'][0]}{more}"


def nothing_to_release(run_ids: list[str], counts: Mapping[str, int], allow_unreviewed: bool) -> str:
    states = ", ".join(f"{n} {EXCLUDED_BECAUSE.get(s, s)}" for s, n in sorted(counts.items()) if n) or "no items"
    hint = (
        "review them (ambiforge review pull) and decide the adjudication queue"
        if allow_unreviewed
        else "review them (ambiforge review pull) or pass --allow-unreviewed"
    )
    return f"no accepted items in run(s) {', '.join(run_ids)} ({states}); {hint}"
