"""What a run's summary says to a person: a Markdown digest and tables of the worst items.

Pure functions over ``summary.json`` and the validation report; flows publish them as Prefect artifacts,
the CLI could print them, and tests read them without a Prefect server.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


def top_reasons(rejected: list[dict[str, Any]], n: int = 5) -> list[tuple[str, int]]:
    """Most common rejection reasons, by stage and the reason's first clause (ids and numbers vary)."""
    keys = [f"{r.get('stage')}: {str(r.get('reason') or '').split(';')[0].split(':')[0][:80]}" for r in rejected]
    return Counter(keys).most_common(n)


def summary_markdown(summary: dict[str, Any]) -> str:
    lines = [
        f"# Run `{summary.get('run_id')}`",
        "",
        f"Provider **{summary.get('provider')}**, seed {summary.get('seed')}: "
        f"**{summary.get('items_written', 0)}** items written of {summary.get('pairs_requested')} planned, "
        f"**{summary.get('rejected_count', 0)}** rejected.",
        "",
        "| ambiguity type | items | share | target |",
        "| --- | ---: | ---: | ---: |",
    ]
    target = summary.get("target_type_mix", {})
    for t, count in summary.get("per_type", {}).items():
        share = summary.get("type_share", {}).get(t, 0)
        lines.append(f"| {t} | {count} | {share * 100:.1f}% | {target.get(t, 0) * 100:.1f}% |")
    lines += [
        "",
        f"Distinct unambiguous tasks: {summary.get('distinct_unambiguous_tasks')}; "
        f"type-token ratio: {summary.get('type_token_ratio')}.",
    ]
    reasons = top_reasons(summary.get("rejected", []))
    if reasons:
        lines += ["", "## Top rejection reasons", "", "| reason | items |", "| --- | ---: |"]
        lines += [f"| {reason} | {count} |" for reason, count in reasons]
    llm = summary.get("llm")
    if isinstance(llm, dict):
        totals = llm.get("totals", llm)
        lines += [
            "",
            "## LLM calls",
            "",
            f"Calls {totals.get('calls', 0)}, cache hits {totals.get('cache_hits', 0)}, "
            f"tokens in/out {totals.get('input_tokens', 0)}/{totals.get('output_tokens', 0)}, "
            f"cost ${totals.get('cost_usd', 0)}.",
        ]
    else:
        lines += ["", "## LLM calls", "", "None (offline provider): 0 calls, 0 cache hits, 0 tokens, $0."]
    seconds = summary.get("seconds", {})
    if seconds:
        lines += ["", "Seconds: " + ", ".join(f"{k} {v}" for k, v in seconds.items()) + "."]
    return "\n".join(lines) + "\n"


def worst_items_table(
    report: dict[str, Any] | None, rejected: list[dict[str, Any]], n: int = 20
) -> list[dict[str, Any]]:
    """Rows for a table: rejected items first, then items with the most validation failures."""
    rows: list[dict[str, Any]] = [
        {
            "id": r.get("id") or f"pair {r.get('index')}",
            "ambiguity_type": r.get("ambiguity_type"),
            "problem": f"rejected at {r.get('stage')}",
            "details": str(r.get("reason"))[:200],
        }
        for r in rejected[:n]
    ]
    if report:
        items = sorted(report.get("items", []), key=lambda i: -len(i.get("failed", [])))
        for item in items[: max(0, n - len(rows))]:
            failed = item.get("failed", [])
            if not failed:
                break
            rows.append(
                {
                    "id": item.get("id"),
                    "ambiguity_type": item.get("ambiguity_type"),
                    "problem": f"{len(failed)} rule(s) failed",
                    "details": "; ".join(f"{f['rule']}: {f['message']}" for f in failed)[:200],
                }
            )
    return rows
