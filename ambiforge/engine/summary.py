"""The files a finished build leaves in ``raw/<run-id>/``: items, rejections and ``summary.json``."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ambiforge.ambiguity import check_mix
from ambiforge.atomic import write_json_atomic, write_jsonl_atomic
from ambiforge.generation.mix import type_quotas
from ambiforge.models.outcome import Outcome
from ambiforge.run.layout import ITEMS_JSONL, ITEMS_PARQUET, REJECTED_FILE, SUMMARY_FILE, run_dir
from ambiforge.stats import dataset_stats
from ambiforge.storage import write_items_jsonl, write_items_parquet
from ambiforge.version import __version__

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions


def write_run(
    options: BuildOptions,
    outcomes: list[Outcome],
    seconds: dict[str, float],
    catalog_version: str,
    catalog_sha256: str,
    extra: dict[str, Any] | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any]:
    """Write items.jsonl, items.parquet, rejected.jsonl and summary.json (with ``extra`` sections, e.g. the
    validation report's summary); return the summary."""
    directory = run_dir(options.out, options.run_id)
    items = [o.item for o in outcomes if o.item is not None and o.stage is None]
    rejected = [o.rejection() for o in outcomes if o.stage is not None]
    write_items_jsonl(directory / ITEMS_JSONL, items)
    write_items_parquet(directory / ITEMS_PARQUET, items)
    write_jsonl_atomic(directory / REJECTED_FILE, rejected)
    stats = dataset_stats(items)
    reasons = dict(Counter(str(r["stage"]) for r in rejected))
    summary: dict[str, Any] = {
        "run_id": options.run_id,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "ambiforge_version": __version__,
        "provider": options.provider,
        "seed": options.seed,
        "fingerprint": fingerprint,
        "pairs_requested": options.pairs,
        "items_written": len(items),
        "target_type_mix": check_mix(options.type_mix),
        "planned_per_type": type_quotas(options.pairs, options.type_mix),
        "catalog": {"version": catalog_version, "sha256": catalog_sha256},
        **stats,
        "rejected_count": len(rejected),
        "rejected_by_stage": reasons,
        "rejected": rejected,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "files": {
            "items_jsonl": str(directory / ITEMS_JSONL),
            "items_parquet": str(directory / ITEMS_PARQUET),
            "rejected_jsonl": str(directory / REJECTED_FILE),
        },
    }
    summary.update(extra or {})
    write_json_atomic(directory / SUMMARY_FILE, summary)
    return summary


#: How far a type's written share may fall below the share asked for (5 points) before the build fails.
MIX_TOLERANCE = 0.05


def mix_missed(summary: dict[str, Any], tolerance: float = MIX_TOLERANCE) -> str | None:
    """Why an offline build misses the type mix it planned: each type whose pairs the generator could not make
    (rejected at generation or as a duplicate, not by a later gate) are more than ``tolerance`` of the pairs asked for,
    named with the commonest reason; None when every type is within."""
    if summary.get("provider", "offline") != "offline":
        return None  # a model's failed calls are the run's faults to read, not a mix the catalog cannot make
    planned, pairs = summary.get("planned_per_type") or {}, summary.get("pairs_requested") or 0
    rejected = [r for r in summary.get("rejected", []) if r.get("stage") in ("generate", "duplicates")]
    missed = []
    for name, count in planned.items():
        short = sum(1 for r in rejected if r.get("ambiguity_type") == name)
        if not pairs or short / pairs <= tolerance:
            continue
        reasons = Counter(str(r.get("reason")) for r in rejected if r.get("ambiguity_type") == name)
        missed.append(
            f"{name}: {short} of {count} planned pairs not generated ({short / pairs * 100:.1f} points of the "
            f"mix lost), most often: {reasons.most_common(1)[0][0]}"
        )
    return "type mix missed: " + "; ".join(missed) if missed else None
