"""The run folder ``raw/<run-id>/``: ids, paths, and the files a build leaves there."""

from __future__ import annotations

import re
import secrets
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ambiforge import __version__
from ambiforge.atomic import write_json_atomic, write_jsonl_atomic
from ambiforge.errors import ConfigError
from ambiforge.generation.mix import check_mix, type_quotas
from ambiforge.generation.run import BuildOptions, Outcome
from ambiforge.stats import dataset_stats
from ambiforge.storage import write_items_jsonl, write_items_parquet

_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


def new_run_id(provider: str, seed: int, now: datetime | None = None) -> str:
    """``20261122T031500Z-offline-s1-3f9a``: sortable by time; the random tail keeps two runs in the same
    second (a scheduled run and a manual one) apart."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{provider}-s{seed}-{secrets.token_hex(2)}"


def check_run_id(run_id: str) -> str:
    if not _RUN_ID.match(run_id):
        raise ConfigError(
            f"run id {run_id!r} is not usable as a folder name (letters, digits, '.', '_', '-'; up to 100)"
        )
    return run_id


def run_dir(out: str | Path, run_id: str) -> Path:
    return Path(out) / check_run_id(run_id)


def write_run(
    options: BuildOptions,
    outcomes: list[Outcome],
    seconds: dict[str, float],
    catalog_version: str,
    catalog_sha256: str,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write items.jsonl, items.parquet, rejected.jsonl and summary.json (with ``extra`` sections, e.g. the
    validation report's summary); return the summary."""
    directory = run_dir(options.out, options.run_id)
    items = [o.item for o in outcomes if o.item is not None and o.stage is None]
    rejected = [o.rejection() for o in outcomes if o.stage is not None]
    write_items_jsonl(directory / "items.jsonl", items)
    write_items_parquet(directory / "items.parquet", items)
    write_jsonl_atomic(directory / "rejected.jsonl", rejected)
    stats = dataset_stats(items)
    reasons = dict(Counter(str(r["stage"]) for r in rejected))
    summary: dict[str, Any] = {
        "run_id": options.run_id,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "ambiforge_version": __version__,
        "provider": options.provider,
        "seed": options.seed,
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
            "items_jsonl": str(directory / "items.jsonl"),
            "items_parquet": str(directory / "items.parquet"),
            "rejected_jsonl": str(directory / "rejected.jsonl"),
        },
    }
    summary.update(extra or {})
    write_json_atomic(directory / "summary.json", summary)
    return summary
