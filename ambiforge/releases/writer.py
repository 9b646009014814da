"""Writing a release: gates first, then every file into a temporary folder renamed at the end.

The runs' rows are streamed, never held, and each is decoded once: one pass checks and summarises them
(compact per-item state: id, type, where the row is, a digest) and writes the files that need no split
``BATCH_SIZE`` rows at a time into a staging folder, each batch's Arrow table also into an uncompressed
Arrow file beside it; the split files are then taken from that file, a batch at a time (decoding
``data.parquet`` again would cost about as much as writing the splits). A million-item release needs memory
for a batch and a few hundred bytes per item, and disk for its rows as Arrow until it is written. The
dataset expectations run in a worker process that imports Great Expectations meanwhile
(:mod:`ambiforge.releases.expectations_worker`).

Nothing reaches ``curated/<version>/`` unless every row passed the item schema, there is something
accepted to release, and the dataset passed the Great Expectations suite, checked in that order; a failed
gate is one line in the maintainer's terms (:mod:`ambiforge.releases.gates`), writes its report under
``raw/release-gates/`` and leaves ``curated/`` untouched.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from ambiforge import ambiguity
from ambiforge.atomic import write_json_atomic, write_text_atomic
from ambiforge.errors import AmbiforgeError
from ambiforge.judge import report as judge_report
from ambiforge.releases import changelog, files, gates, versions
from ambiforge.releases.card import render_card
from ambiforge.releases.jsonl_form import jsonl_form
from ambiforge.releases.manifest import ProvenanceSummary, agreement_summary, git_state, per_type, run_samplers
from ambiforge.releases.seal import seal
from ambiforge.releases.selection import EXCLUDED_BECAUSE, Scan, scan
from ambiforge.releases.splits import ENVIRONMENT, fit_calibration_size, stratified_splits
from ambiforge.stats import Stats
from ambiforge.storage.arrow_schema import item_arrow_schema, json_lines_to_table, mapped_columns
from ambiforge.version import __version__

if TYPE_CHECKING:
    from ambiforge.releases.expectations_worker import Expectations

REPO = Path(__file__).resolve().parents[2]
#: Rows read, converted and written at a time, and the rows of a Parquet row group: peak memory follows
#: this, not the release's size (a row as Python objects is about 75 KB, so 2,000 rows are 150 MB).
BATCH_SIZE = 2_000
#: Rows held decoded at a time before they become Arrow tables (see :class:`_Rows`).
CONVERT_SIZE = 200


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
    mix_source: str = "the configuration's [build] type_mix"
    repository_url: str = ""
    title: str = "ambiforge kitchen ambiguity dataset"
    authors: tuple[str, ...] = ("ambiforge maintainers",)


def _gate_report(opts: ReleaseOptions, report: dict[str, Any]) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return write_json_atomic(opts.raw / "release-gates" / f"{opts.version}-{stamp}.json", report)


def release(opts: ReleaseOptions) -> Path:
    """Write ``curated/<version>/`` and return it."""
    from ambiforge.run.lock import release_lock, remove_stale_release_tmp

    versions.parse(opts.version)
    with release_lock(opts.curated, opts.version):  # one writer per version; a killed one's folder goes
        remove_stale_release_tmp(opts.curated, opts.version)
        return _release(opts)


class _Pass:
    """What the scan keeps of each released row: statistics, expectation columns, class names, provenance, a
    digest for the changelog, the first record for the card and the first review that names someone. Each
    grows with distinct values or by a few words per item, never by a record. The rows themselves go to
    ``rows`` (the data files) as they are read, so each is decoded once."""

    def __init__(self, rows: _Rows) -> None:
        from ambiforge.validation.expectations import ItemColumns

        self.rows = rows
        self.stats = Stats()
        self.columns = ItemColumns()
        self.provenance = ProvenanceSummary()
        self.digests: dict[str, bytes] = {}
        self.first: dict[str, Any] | None = None  # of the default configuration when it has one
        self.first_environment: dict[str, Any] | None = None
        self.leak: str | None = None
        self.judge = judge_report.CardTally()

    def __call__(self, record: dict[str, Any], item: Any, line: bytes) -> None:
        environment = ambiguity.level(item.ambiguity_type) == ENVIRONMENT
        if environment and self.first_environment is None:
            self.first_environment = record
        if not environment and self.first is None:
            self.first = record
        if self.leak is None:
            self.leak = gates.unpseudonymous([record])
        self.stats.add(item)
        self.columns.add(item)
        self.provenance.add(item)
        self.digests[item.id] = changelog.digest(record)
        self.judge.add(record)
        self.rows.add(record, line, environment)


class _Rows:
    """The files that hold every released row and need no split: ``data.parquet`` and ``data.jsonl.gz`` (the
    default configuration), and ``environment/data.parquet`` and ``data.jsonl.gz`` once an environment-induced
    row comes (an AmbiK row has one kitchen per row: these items are not exported to its CSV layout).

    They are written while the gates still read the rows, into a staging folder outside ``curated/`` (a
    refused release leaves it as it was), ``BATCH_SIZE`` released rows at a time: a Parquet file gets one row
    group per batch (one for a release that fits in a batch, as ``pq.write_table`` wrote before); a file
    with no rows is one empty row group, as ``write_table`` writes it. The default configuration's batches
    also go to ``spill`` (Arrow's file format, uncompressed), from which :func:`_write_splits` takes the
    splits' rows with the same row groups.

    A row's JSON line is written as it comes; for the Parquet files only the line it was read from is kept
    (bytes), which Arrow parses ``CONVERT_SIZE`` lines at a time. So no decoded row outlives its visit: a
    decoded row is thousands of Python objects, which the garbage collector would walk again and again
    while a batch waits."""

    def __init__(self, folder: Path, spill: Path, class_names: list[str], environment_names: list[str]) -> None:
        self.folder = folder
        self.spill = spill
        self.schema = item_arrow_schema(class_names)
        self.environment_schema = item_arrow_schema(environment_names)
        self.data = pq.ParquetWriter(folder / "data.parquet", self.schema, compression="zstd")
        self.spilled: pa.ipc.RecordBatchFileWriter | None = None  # opened by the first batch
        #: the record batches of each row group of ``data.parquet``, in ``spill``
        self.groups: list[int] = []
        self.jsonl = files.open_jsonl_writer(folder / files.JSONL)
        self.environment: tuple[pq.ParquetWriter, Any] | None = None  # (Parquet, JSON lines) once opened
        self.rows = {"data": 0, ENVIRONMENT: 0}
        self.batch = 0  # rows of the batch (both configurations), converted or not
        # per configuration (environment-induced or not): the lines not yet converted, with their mapped
        # columns, and the tables converted, waiting for the batch
        self.lines: dict[bool, list[bytes]] = {False: [], True: []}
        self.mapped: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        self.tables: dict[bool, list[pa.Table]] = {False: [], True: []}

    def add(self, record: dict[str, Any], line: bytes, environment: bool) -> None:
        """``record``, decoded from ``line``: its JSON line now (orjson: the same compact UTF-8 JSON as the
        build writes; the scene graphs are in the Parquet only), its Parquet row from ``line`` later."""
        self._files(environment)[1].write(orjson.dumps(jsonl_form(record)) + b"\n")
        self.lines[environment].append(line)
        self.mapped[environment].append(mapped_columns(record))
        self.batch += 1
        if self.batch >= BATCH_SIZE:
            self.flush()
        elif self.batch % CONVERT_SIZE == 0:
            self.convert()

    def _files(self, environment: bool) -> tuple[pq.ParquetWriter, Any]:
        """(Parquet, JSON lines) of a configuration; the environment's are opened by its first row."""
        if not environment:
            return self.data, self.jsonl
        if self.environment is None:
            (self.folder / ENVIRONMENT).mkdir()
            self.environment = (
                pq.ParquetWriter(
                    self.folder / ENVIRONMENT / "data.parquet", self.environment_schema, compression="zstd"
                ),
                files.open_jsonl_writer(self.folder / ENVIRONMENT / files.JSONL),
            )
        return self.environment

    def convert(self) -> None:
        """The lines waiting to Arrow tables, kept until the batch is full."""
        for environment, lines in self.lines.items():
            if lines:
                schema = self.environment_schema if environment else self.schema
                self.tables[environment].append(json_lines_to_table(lines, self.mapped[environment], schema))
        self.lines = {False: [], True: []}
        self.mapped = {False: [], True: []}

    def flush(self) -> None:
        """Convert what is left of the batch and write it: one row group per file that got rows."""
        self.convert()
        self.batch = 0
        for environment, tables in self.tables.items():
            if not tables:
                continue
            # one contiguous table: the row group's pages are those of a batch converted at once
            table = pa.concat_tables(tables).combine_chunks()
            self._files(environment)[0].write_table(table)
            self.rows[ENVIRONMENT if environment else "data"] += table.num_rows
            if not environment:
                if self.spilled is None:
                    self.spilled = pa.ipc.new_file(self.spill, self.schema)
                batches = table.to_batches()
                for batch in batches:
                    self.spilled.write_batch(batch)
                self.groups.append(len(batches))
        self.tables = {False: [], True: []}

    def close(self) -> None:
        """Write what is left and close every file (also after a failure, so none stays open)."""
        try:
            self.flush()
        finally:
            if not self.rows["data"]:
                self.data.write_table(self.schema.empty_table())
            self.data.close()
            self.jsonl.close()
            if self.spilled is not None:
                self.spilled.close()
            if self.environment is not None:
                for handle in self.environment:
                    handle.close()

    def row_groups(self) -> Iterator[pa.Table]:
        """The row groups of ``data.parquet``, read back from ``spill`` one at a time (after :meth:`close`)."""
        if not self.groups:
            return
        with pa.OSFile(str(self.spill)) as source:  # read, not mapped: a group's pages leave with it
            reader = pa.ipc.open_file(source)
            first = 0
            for count in self.groups:
                yield pa.Table.from_batches([reader.get_batch(k) for k in range(first, first + count)], self.schema)
                first += count


def _write_splits(folder: Path, rows: _Rows, splits: dict[str, list[str]]) -> None:
    """``splits/<name>.parquet`` from the row groups of ``data.parquet`` (Arrow to Arrow: no row is decoded
    again), each with those row groups (an empty one when a split has no rows, as ``write_table`` writes
    it)."""
    (folder / "splits").mkdir()
    schema = rows.schema
    split_of = {i: name for name, ids in splits.items() for i in ids}
    writers = {
        name: pq.ParquetWriter(folder / "splits" / f"{name}.parquet", schema, compression="zstd") for name in splits
    }
    written = dict.fromkeys(splits, 0)
    try:
        for table in rows.row_groups():
            where = [split_of[i] for i in table.column("id").to_pylist()]
            for name, writer in writers.items():
                picked = [k for k, split in enumerate(where) if split == name]
                if picked:
                    # typed indices (an untyped [] is a null array Arrow cannot take)
                    writer.write_table(table.take(pa.array(picked, type=pa.int64())))
                    written[name] += len(picked)
    finally:
        for name, writer in writers.items():
            if not written[name]:
                writer.write_table(schema.empty_table())
            writer.close()


def _release(opts: ReleaseOptions) -> Path:
    """One pass over the runs' rows, holding none: each row is checked, summarised and written to the files
    that need no split (the gates need every row seen before anything reaches ``curated/``, so those files
    wait in a staging folder); the splits are then taken from the batches spilled beside it."""
    versions.check_new(opts.curated, opts.version)
    names = ambiguity.names()
    # the item schema's enum is the registered types, so every row that passes the gate has one of these
    class_names = [n for n in names if ambiguity.level(n) != ENVIRONMENT]
    environment_names = [n for n in names if ambiguity.level(n) == ENVIRONMENT]
    from ambiforge.releases.expectations_worker import Expectations
    from ambiforge.run.layout import run_dir

    items = [run_dir(opts.raw, run_id) / "items.jsonl" for run_id in opts.run_ids]
    with tempfile.TemporaryDirectory(prefix="ambiforge-release-") as staging, Expectations(items) as expectations:
        (Path(staging) / "files").mkdir()
        rows = _Rows(Path(staging) / "files", Path(staging) / "rows.arrow", class_names, environment_names)
        try:
            found = scan(opts.raw, opts.run_ids, opts.allow_unreviewed, seen := _Pass(rows))
            rows.flush()
        finally:
            rows.close()
        return _publish(opts, found, seen, expectations)


def _publish(opts: ReleaseOptions, found: Scan, seen: _Pass, suite: Expectations) -> Path:
    """The gates on what the scan found, then ``curated/<version>/``: the staged files, the splits, the
    changelog, the expectations' results and the sealed manifest and card."""
    kept = found.kept

    def refuse(message: str, report: dict[str, Any]) -> ReleaseGateError:
        path = _gate_report(opts, {"message": message, **report})
        return ReleaseGateError(f"release {opts.version} refused: {message} (report: {path})")

    if found.schema_failures:
        raise refuse(gates.schema_message(found.schema_failures), {"schema_failures": found.schema_failures})
    if seen.leak:
        raise refuse(seen.leak, {})
    if not kept:
        message = gates.nothing_to_release(opts.run_ids, found.review_counts, opts.allow_unreviewed)
        raise refuse(message, {"review_status": found.review_counts})
    everything = list(kept.values())
    # the default configuration (its splits) holds the instruction-level types, AmbiK's
    entries = [e for e in everything if ambiguity.level(e.ambiguity_type) != ENVIRONMENT]
    environment = [e for e in everything if ambiguity.level(e.ambiguity_type) == ENVIRONMENT]
    size = fit_calibration_size(opts.calibration_size, len(entries))
    splits = stratified_splits(entries, size.calibration, opts.seed)  # type: ignore[arg-type]
    if sorted(i for ids in splits.values() for i in ids) != sorted(e.id for e in entries):
        raise ReleaseGateError(f"release {opts.version}: the splits do not cover every item exactly once")
    expectations = suite.run(seen.columns, target_mix=opts.target_mix, tolerance=opts.mix_tolerance, splits=splits)
    if not expectations.success:
        message = gates.expectations_message(
            expectations.results, opts.target_mix, opts.mix_tolerance, source=opts.mix_source
        )
        raise refuse(message, {"expectations": expectations.to_dict()})

    previous = versions.previous(opts.curated, opts.version)
    before = [opts.curated / previous, opts.curated / previous / ENVIRONMENT] if previous else []
    changes = changelog.compare_streamed(
        [p for p in map(files.jsonl_path, before) if p.is_file()],
        seen.digests,
        lambda ids: found.read(sorted((kept[i] for i in ids), key=lambda e: (e.file, e.offset))),
        previous,
        opts.version,
    )
    unreviewed = set(found.unreviewed)
    changes.reasons = {
        **{
            i: EXCLUDED_BECAUSE[found.excluded[i]] if i in found.excluded else "not in the source runs"
            for i in changes.removed
        },
        **{i: "not reviewed" for i in changes.added if i in unreviewed},
    }
    commit, dirty = git_state(REPO)
    manifest: dict[str, Any] = {
        "version": opts.version,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "git_commit": commit,
        "git_dirty": dirty,
        "ambiforge_version": __version__,
        **seen.provenance.result(),
        "run_ids": list(opts.run_ids),
        "sampler": run_samplers(opts.raw, opts.run_ids),
        "allow_unreviewed": opts.allow_unreviewed,
        "counts": {
            "total": len(entries),
            "per_type": per_type(entries),
            "per_split": {
                name: {"total": len(ids), "per_type": per_type(kept[i] for i in ids)} for name, ids in splits.items()
            },
            "merged_duplicates": found.merged_duplicates,
            **(
                {"configurations": {ENVIRONMENT: {"total": len(environment), "per_type": per_type(environment)}}}
                if environment
                else {}
            ),
        },
        "splits": {
            "seed": opts.seed,
            "calibration_size": size.calibration,
            "calibration_size_requested": size.requested,
            **({"note": size.note} if size.note else {}),
            "stratified_by": "ambiguity_type",
        },
        "review": {
            "status": found.review_counts,
            "released_unreviewed": sorted(found.unreviewed),
            "agreement": agreement_summary(opts.annotation, opts.run_ids),
        },
        "citation": {"title": opts.title, "authors": list(opts.authors), "repository_url": opts.repository_url},
        "changes": {"previous": previous, **changes.counts()},
        "change_reasons": changes.reasons,
        "statistics": seen.stats.result(),
    }
    agreement = manifest["review"]["agreement"]
    manifest["judge"] = seen.judge.result({run: a.get("judge_vs_reviewers") for run, a in agreement.items()})

    opts.curated.mkdir(parents=True, exist_ok=True)
    tmp = opts.curated / f".tmp-{opts.version}-{secrets.token_hex(3)}"
    tmp.mkdir()
    try:
        for staged in sorted(seen.rows.folder.iterdir()):
            shutil.move(staged, tmp / staged.name)
        _write_splits(tmp, seen.rows, splits)
        write_text_atomic(tmp / "CHANGELOG.md", changelog.render_changelog(changes))
        write_json_atomic(tmp / "validation" / "expectations.json", expectations.to_dict())
        # checksums, the card with the manifest hash, manifest.json and manifest.sha256 (scheme: release.seal)
        shown = seen.first or seen.first_environment
        first = [shown] if shown is not None else []
        seal(tmp, manifest, lambda m: render_card(m, [], opts.license, first))
        target = opts.curated / opts.version
        os.rename(tmp, target)  # atomic on one filesystem; fails if the version appeared meanwhile
        return target
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
