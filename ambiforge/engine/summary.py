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
