"""The files a finished build leaves in ``raw/<run-id>/``: items, rejections and ``summary.json``."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambiforge.ambiguity import check_mix, names
from ambiforge.atomic import atomic_path, jsonl_writer, write_json_atomic, write_jsonl_atomic
from ambiforge.generation.mix import type_quotas
from ambiforge.models.outcome import Outcome
from ambiforge.run.layout import ITEMS_JSONL, ITEMS_PARQUET, REJECTED_FILE, SUMMARY_FILE
from ambiforge.stats import Stats
from ambiforge.storage.arrow_schema import item_arrow_schema, items_to_table
from ambiforge.version import __version__

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions


class RunFiles:
    """``items.jsonl``, ``items.parquet`` and ``rejected.jsonl`` written as a run's outcomes arrive (each to
    a temporary file, renamed when the block ends without error), with the statistics summary.json shows:
    a build never holds its items to write them. Parquet gets a row group per batch given to :meth:`add`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.rejected: list[dict[str, Any]] = []
        self.items = 0
        self.stats = Stats()
        self.stack = contextlib.ExitStack()

    def __enter__(self) -> RunFiles:
        import pyarrow.parquet as pq

        self.write_item = self.stack.enter_context(jsonl_writer(self.directory / ITEMS_JSONL))
        parquet = self.stack.enter_context(atomic_path(self.directory / ITEMS_PARQUET))
        self.names = list(names())
        self.schema = item_arrow_schema(self.names)
        self.parquet = self.stack.enter_context(pq.ParquetWriter(parquet, self.schema, compression="zstd"))
        return self

    def add(self, outcomes: Sequence[Outcome]) -> None:
        records = []
        for outcome in outcomes:
            if outcome.stage is not None:
                self.rejected.append(outcome.rejection())
            elif outcome.item is not None:
                record = outcome.item.to_record()
                self.write_item(record)
                records.append(record)
                self.stats.add(outcome.item)
        if records:
            self.parquet.write_table(items_to_table(records, self.names))
            self.items += len(records)

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None and not self.items:  # one empty row group, as ``pq.write_table`` writes no rows
            self.parquet.write_table(self.schema.empty_table())
        self.stack.__exit__(*exc)  # type: ignore[arg-type]
        if exc[0] is None:
            write_jsonl_atomic(self.directory / REJECTED_FILE, self.rejected)

    def summary(
        self,
        options: BuildOptions,
        seconds: dict[str, float],
        catalog_version: str,
        catalog_sha256: str,
        extra: dict[str, Any] | None = None,
        fingerprint: str | None = None,
    ) -> dict[str, Any]:
        """Write summary.json (with ``extra`` sections, e.g. the validation report's summary) once the files
        are closed; return it."""
        directory = self.directory
        rejected = self.rejected
        reasons = dict(Counter(str(r["stage"]) for r in rejected))
        summary: dict[str, Any] = {
            "run_id": options.run_id,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "ambiforge_version": __version__,
            "provider": options.provider,
            "seed": options.seed,
            "fingerprint": fingerprint,
            "pairs_requested": options.pairs,
            "items_written": self.items,
            "target_type_mix": check_mix(options.type_mix),
            "planned_per_type": type_quotas(options.pairs, options.type_mix),
            "catalog": {"version": catalog_version, "sha256": catalog_sha256},
            **self.stats.result(),
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
