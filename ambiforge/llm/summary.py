"""What a run's calls cost and met, from ``calls.jsonl``: per step, per model and in total, with faults.

Tokens sent to a provider (``input_tokens``/``output_tokens``, what is paid for) and tokens served from
the cache (``cached_input_tokens``/``cached_output_tokens``) are counted apart. A model without a price
counts as free and is listed under ``models_without_price``.

Read from the log rather than counted while running, so the numbers include the part of a run that was
killed before a restart (its records are in the same log), and any run's summary can be rebuilt later.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ambiforge.llm.calls import read_calls


def _empty() -> dict[str, Any]:
    return {
        "calls": 0,
        "cache_hits": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cached_input_tokens": 0,
        "cached_output_tokens": 0,
        "cost_usd": 0.0,
        "retries": 0,
        "repairs": 0,
        "unusable_replies": 0,
        "failed": 0,
        "latency_seconds": 0.0,
    }


def _add(into: dict[str, Any], record: dict[str, Any]) -> None:
    into["calls"] += 1
    into["cache_hits"] += 1 if record.get("cached") else 0
    cached = bool(record.get("cached"))
    if cached and "cached_input_tokens" not in record:  # a log written before the two were told apart
        into["cached_input_tokens"] += int(record.get("input_tokens") or 0)
        into["cached_output_tokens"] += int(record.get("output_tokens") or 0)
    else:
        into["input_tokens"] += int(record.get("input_tokens") or 0)
        into["output_tokens"] += int(record.get("output_tokens") or 0)
        into["cached_input_tokens"] += int(record.get("cached_input_tokens") or 0)
        into["cached_output_tokens"] += int(record.get("cached_output_tokens") or 0)
    into["cost_usd"] += 0.0 if record.get("cached") else float(record.get("cost_usd") or 0.0)
    into["retries"] += int(record.get("retries") or 0)
    into["repairs"] += 1 if record.get("repair") else 0
    into["unusable_replies"] += 1 if record.get("parse_error") else 0
    into["failed"] += 1 if record.get("error") else 0
    into["latency_seconds"] += float(record.get("latency_seconds") or 0.0)


def summarize_calls(path: Path) -> dict[str, Any] | None:
    """None when the run made no LLM calls."""
    totals = _empty()
    per_step: dict[str, dict[str, Any]] = defaultdict(_empty)
    per_model: dict[str, dict[str, Any]] = defaultdict(_empty)
    faults: Counter[str] = Counter()
    prompts: dict[str, set[str]] = defaultdict(set)
    unpriced: set[str] = set()
    seen = False
    for record in read_calls(path):
        seen = True
        for bucket in (totals, per_step[record["step"]], per_model[f"{record['provider']}/{record['model']}"]):
            _add(bucket, record)
        faults.update(record.get("faults") or [])
        if record.get("parse_error"):
            faults["unusable_reply"] += 1
        if record.get("finish_reason") == "length":
            faults["truncated"] += 1
        prompts[record["prompt_id"]].add(str(record["prompt_version"]))
        if (record.get("priced") is False or record.get("cost_usd") is None) and not record.get("error"):
            unpriced.add(record["model"])
    if not seen:
        return None
    for bucket in (totals, *per_step.values(), *per_model.values()):
        bucket["cost_usd"] = round(bucket["cost_usd"], 6)
        bucket["latency_seconds"] = round(bucket["latency_seconds"], 3)
    return {
        "calls_file": str(path),
        "totals": totals,
        "per_step": dict(sorted(per_step.items())),
        "per_model": dict(sorted(per_model.items())),
        "faults": dict(sorted(faults.items())),
        "prompts": {k: sorted(v) for k, v in sorted(prompts.items())},
        "models_without_price": sorted(unpriced),
        "warnings": [
            f"model {model} has no price in [llm.prices]: its calls are counted as free (USD 0)"
            for model in sorted(unpriced)
        ],
    }
