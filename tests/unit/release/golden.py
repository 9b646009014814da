"""A small release scenario whose files were checksummed with the writer as it was before releases streamed
(commit b65e563, checksummed again with that writer once releases carried manifest.sha256, again when the
Parquet files gained the world column and ambiguity_type as names: only the Parquet files, card and
manifest changed, and again when the world column gained ``affordance`` and ``perturbation``: the Parquet
files, card, validation expectations and manifest changed; again when the card said the scene graphs are in
the Parquet files only: the cards and manifests changed; again when the JSON lines were gzip-compressed and
the AmbiK CSV files left the release for an export: data.jsonl.gz decompresses to the bytes data.jsonl had, the
CSV files exported from the release are the bytes the release held, the Parquet files, changelogs and
expectations are unchanged, and the cards and manifests changed; again when items gained ``frame`` and the world
``left_out`` and ``rationale``: the fixture's items (made before them) have none, and the Parquet files, cards and
manifests changed; again when the kitchen text kept each object in its row (rows by left and right
relations) and plural objects were called in the plural: only the exported AmbiK CSV files, which hold that
text, changed): two runs with every review state, a duplicate
across runs, AmbiK CSV extras, a previous version for the changelog.
``python -m tests.unit.release.golden`` rewrites the fixture and checksums (only ever do that with a
writer known to be right)."""

from __future__ import annotations

import gzip
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ambiforge.models import Review
from ambiforge.releases.writer import ReleaseOptions

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "release"
CHECKSUMS = FIXTURE / "golden_checksums.json"
MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}
FIXED_NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


class FixedDatetime(datetime):
    @classmethod
    def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
        return FIXED_NOW


def pinned(monkeypatch: Any) -> None:
    """Time, git state and version fixed, so two writers' releases can be compared byte for byte."""
    from ambiforge.releases import writer

    monkeypatch.setattr(writer, "datetime", FixedDatetime)
    monkeypatch.setattr(writer, "git_state", lambda repo: ("0" * 40, False))
    monkeypatch.setattr(writer, "__version__", "0.0.0-golden")


def make_fixture(catalog: Any) -> None:
    """Write runs a, b and c (items.jsonl) into the fixture folder."""
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.storage import write_items_jsonl

    gen = OfflineGenerator(catalog, 4, "run-a")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(30, MIX, 4))]
    states = [
        Review(status="unanimous", verdict="accept"),
        Review(status="majority", verdict="accept_with_fixes"),
        Review(status="majority", verdict="reject"),
        Review(status="majority", verdict="accept", queued_for_adjudication=True),
        Review(status="pending", verdict="accept"),
        None,
    ]
    a = [
        i.model_copy(update={"review": states[k % len(states)], "extra": {"source": f"s{k % 3}"} if k % 5 else {}})
        for k, i in enumerate(items)
    ]
    write_items_jsonl(FIXTURE / "run-a" / "items.jsonl", a)
    b = [
        i.model_copy(update={"question": i.question.rstrip("?") + ", please?"}) if k % 7 == 0 else i
        for k, i in enumerate(a[4:])
    ]
    gen_b = OfflineGenerator(catalog, 11, "run-b")
    b += [gen_b.generate(i, t)[0] for i, t in enumerate(type_sequence(5, MIX, 11))]
    b[2] = b[2].model_copy(update={"review": Review(status="majority", verdict="reject")})  # removed: rejected
    write_items_jsonl(FIXTURE / "run-b" / "items.jsonl", b)
    write_items_jsonl(FIXTURE / "run-c" / "items.jsonl", b[:6])  # the same pairs again: merged


def scenario(root: Path) -> tuple[Path, Path]:
    """Release 1.0.0 from run a, then 1.1.0 from runs b and c (c repeats some of b)."""
    import shutil

    from ambiforge.releases.writer import release

    for run in ("run-a", "run-b", "run-c"):
        shutil.copytree(FIXTURE / run, root / "raw" / run)

    def opts(version: str, runs: list[str]) -> ReleaseOptions:
        return ReleaseOptions(
            version=version,
            run_ids=runs,
            raw=root / "raw",
            curated=root / "curated",
            annotation=root / "annotation",
            allow_unreviewed=True,
            calibration_size=7,
            seed=3,
            target_mix=MIX,
            mix_tolerance=0.3,
        )

    return release(opts("1.0.0", ["run-a"])), release(opts("1.1.0", ["run-b", "run-c"]))


def checksums(*folders: Path) -> dict[str, str]:
    """Every file's sha256; a gzip file's decompressed text too (``<path> (decompressed)``), and the AmbiK CSV
    files exported from the release (``ambik.csv (export)``, ``splits/<name>.csv (export)``), so the rows and
    CSV layout of releases before the JSON lines were compressed, and the CSV files left the release, stay
    pinned to the same bytes."""
    sums = {}
    for folder in folders:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                rel = f"{folder.name}/{p.relative_to(folder).as_posix()}"
                sums[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
                if p.suffix == ".gz":
                    sums[f"{rel} (decompressed)"] = hashlib.sha256(gzip.decompress(p.read_bytes())).hexdigest()
        for rel, text in exported_csv(folder).items():
            sums[f"{folder.name}/{rel} (export)"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return sums


def exported_csv(folder: Path) -> dict[str, str]:
    """The AmbiK CSV text of the release's rows and of each split's (with the columns of all its rows, as
    releases held them)."""
    from ambiforge.ambik.csv_io import ambik_rows, columns_for, csv_lines
    from ambiforge.models import Item
    from ambiforge.storage import read_records

    items = [Item.model_validate(r) for r in read_records(folder / "data.parquet")]
    columns = columns_for(items)
    by_id = {i.id: i for i in items}
    parts = {"ambik.csv": items}
    for path in sorted((folder / "splits").glob("*.parquet")):
        parts[f"splits/{path.stem}.csv"] = [by_id[r["id"]] for r in read_records(path)]
    texts = {}
    for rel, part in parts.items():
        header, lines = csv_lines(columns, ambik_rows(part, columns)[1])
        texts[rel] = header + "".join(lines)
    return texts


if __name__ == "__main__":
    import tempfile

    import pytest

    from ambiforge.catalog import load_catalog

    make_fixture(load_catalog())
    with pytest.MonkeyPatch.context() as mp, tempfile.TemporaryDirectory() as tmp:
        pinned(mp)
        sums = checksums(*scenario(Path(tmp)))
    CHECKSUMS.write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n")
    print(f"{len(sums)} files")
