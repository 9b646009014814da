"""Writing a release: gates first, then every file into a temporary folder renamed at the end.

Nothing reaches ``curated/<version>/`` unless every row passed the item schema, there is something
accepted to release, and the dataset passed the Great Expectations suite, checked in that order; a failed
gate is one line in the maintainer's terms (:mod:`ambiforge.release.gates`), writes its report under
``raw/release-gates/`` and leaves ``curated/`` untouched.
"""

from __future__ import annotations

import gc
import os
import secrets
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from ambiforge import __version__
from ambiforge.ambik.csv_io import ambik_rows, csv_lines, write_lines
from ambiforge.atomic import write_json_atomic, write_text_atomic
from ambiforge.errors import AmbiforgeError
from ambiforge.judge import report as judge_report
from ambiforge.release import changelog, gates, versions
from ambiforge.release.card import render_card
from ambiforge.release.manifest import (
    agreement_summary,
    git_state,
    per_type,
    provenance_summary,
)
from ambiforge.release.seal import seal
from ambiforge.release.selection import EXCLUDED_BECAUSE, select
from ambiforge.release.splits import fit_calibration_size, stratified_splits
from ambiforge.stats import dataset_stats
from ambiforge.storage import items_to_table, read_records

REPO = Path(__file__).resolve().parents[2]


class ReleaseGateError(AmbiforgeError):
    """A release was refused by its gates; the report says which rows and expectations failed."""

    exit_code = 1


@dataclass(frozen=True)
class ReleaseOptions:
    version: str
    run_ids: list[str]
    raw: Path
    curated: Path
    annotation: Path
    allow_unreviewed: bool = False
    calibration_size: int = 100
    seed: int = 1
    license: str = "cc-by-4.0"
    target_mix: dict[str, float] | None = None
    mix_tolerance: float = 0.05
    repository_url: str = ""
    title: str = "ambiforge kitchen ambiguity dataset"
    authors: tuple[str, ...] = ("ambiforge maintainers",)


def _jsonl(path: Path, lines: list[bytes]) -> None:
    with path.open("wb") as fh:
        fh.writelines(lines)


def _gate_report(opts: ReleaseOptions, report: dict[str, Any]) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return write_json_atomic(opts.raw / "release-gates" / f"{opts.version}-{stamp}.json", report)


def release(opts: ReleaseOptions) -> Path:
    """Write ``curated/<version>/`` and return it.

    Python's cyclic garbage collector is paused meanwhile: a large release holds millions of small objects,
    none of them in cycles, and at 100,000 items the collector's repeated walks over them cost 20 s.
    """
    from ambiforge.run.lock import release_lock, remove_stale_release_tmp

    versions.parse(opts.version)
    enabled = gc.isenabled()
    gc.disable()
    try:
        with release_lock(opts.curated, opts.version):  # one writer per version; a killed one's folder goes
            remove_stale_release_tmp(opts.curated, opts.version)
            return _release(opts)
    finally:
        if enabled:
            gc.enable()


def _release(opts: ReleaseOptions) -> Path:
    from ambiforge.validation.expectations import run_expectations

    versions.check_new(opts.curated, opts.version)
    selection = select(opts.raw, opts.run_ids, opts.allow_unreviewed)
    items, records = selection.items, selection.records

    def refuse(message: str, report: dict[str, Any]) -> ReleaseGateError:
        path = _gate_report(opts, {"message": message, **report})
        return ReleaseGateError(f"release {opts.version} refused: {message} (report: {path})")

    if selection.schema_failures:
        raise refuse(gates.schema_message(selection.schema_failures), {"schema_failures": selection.schema_failures})
    leak = gates.unpseudonymous(records)
    if leak:
        raise refuse(leak, {})
    if not items:
        message = gates.nothing_to_release(opts.run_ids, selection.review_counts, opts.allow_unreviewed)
        raise refuse(message, {"review_status": selection.review_counts})
    size = fit_calibration_size(opts.calibration_size, len(items))
    splits = stratified_splits(items, size.calibration, opts.seed)
    if sorted(i for ids in splits.values() for i in ids) != sorted(i.id for i in items):
        raise ReleaseGateError(f"release {opts.version}: the splits do not cover every item exactly once")
    expectations = run_expectations(items, target_mix=opts.target_mix, tolerance=opts.mix_tolerance, splits=splits)
    if not expectations.success:
        message = gates.expectations_message(expectations.results, opts.target_mix, opts.mix_tolerance)
        raise refuse(message, {"expectations": expectations.to_dict()})

    previous = versions.previous(opts.curated, opts.version)
    old_records = read_records(opts.curated / previous / "data.jsonl") if previous else []
    changes = changelog.compare(old_records, records, previous, opts.version)
    unreviewed = set(selection.unreviewed)
    changes.reasons = {
        **{
            i: EXCLUDED_BECAUSE[selection.excluded[i]] if i in selection.excluded else "not in the source runs"
            for i in changes.removed
        },
        **{i: "not reviewed" for i in changes.added if i in unreviewed},
    }
    commit, dirty = git_state(REPO)
    by_id = {i.id: i for i in items}
    manifest: dict[str, Any] = {
        "version": opts.version,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "git_commit": commit,
        "git_dirty": dirty,
        "ambiforge_version": __version__,
        **provenance_summary(items),
        "run_ids": list(opts.run_ids),
        "allow_unreviewed": opts.allow_unreviewed,
        "counts": {
            "total": len(items),
            "per_type": per_type(items),
            "per_split": {
                name: {"total": len(ids), "per_type": per_type([by_id[i] for i in ids])} for name, ids in splits.items()
            },
            "merged_duplicates": selection.merged_duplicates,
        },
        "splits": {
            "seed": opts.seed,
            "calibration_size": size.calibration,
            "calibration_size_requested": size.requested,
            **({"note": size.note} if size.note else {}),
            "stratified_by": "ambiguity_type",
        },
        "review": {
            "status": selection.review_counts,
            "released_unreviewed": sorted(selection.unreviewed),
            "agreement": agreement_summary(opts.annotation, opts.run_ids),
        },
        "citation": {"title": opts.title, "authors": list(opts.authors), "repository_url": opts.repository_url},
        "changes": {"previous": previous, **changes.counts()},
        "change_reasons": changes.reasons,
        "statistics": dataset_stats(items),
    }
    agreement = manifest["review"]["agreement"]
    manifest["judge"] = judge_report.card_section(
        records, {run: a.get("judge_vs_reviewers") for run, a in agreement.items()}
    )

    opts.curated.mkdir(parents=True, exist_ok=True)
    tmp = opts.curated / f".tmp-{opts.version}-{secrets.token_hex(3)}"
    tmp.mkdir()
    try:
        table = items_to_table(records)
        pq.write_table(table, tmp / "data.parquet", compression="zstd")
        # orjson: the same compact UTF-8 JSON as the build writes, about 10x faster at release sizes.
        lines = [orjson.dumps(r) + b"\n" for r in records]
        _jsonl(tmp / "data.jsonl", lines)
        header, csv_rows = csv_lines(*ambik_rows(items))
        write_lines(tmp / "ambik.csv", header, csv_rows)
        (tmp / "splits").mkdir()
        position = {i.id: n for n, i in enumerate(items)}
        for name, ids in splits.items():
            rows = [position[i] for i in ids]
            # typed indices: an empty split is an empty table (an untyped [] is a null array Arrow cannot take)
            pq.write_table(
                table.take(pa.array(rows, type=pa.int64())), tmp / "splits" / f"{name}.parquet", compression="zstd"
            )
            write_lines(tmp / "splits" / f"{name}.csv", header, [csv_rows[r] for r in rows])
        write_text_atomic(tmp / "CHANGELOG.md", changelog.render_changelog(changes))
        write_json_atomic(tmp / "validation" / "expectations.json", expectations.to_dict())
        # checksums, the card with the manifest hash, manifest.json and manifest.sha256 (scheme: release.seal)
        seal(tmp, manifest, lambda m: render_card(m, items, opts.license, records))
        target = opts.curated / opts.version
        os.rename(tmp, target)  # atomic on one filesystem; fails if the version appeared meanwhile
        return target
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
