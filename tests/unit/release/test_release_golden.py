"""The streaming writer's files are byte for byte those of the writer before it streamed (checksums taken
with that writer, sealed as verify expects, on the fixture in tests/fixtures/release), whatever the batch
size."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ambiforge.releases.files import read_rows
from ambiforge.releases.writer import release
from ambiforge.storage import items_to_table, read_records
from ambiforge.storage.arrow_schema import class_names_in
from tests.unit.release.golden import CHECKSUMS, checksums, pinned, scenario
from tests.unit.release.test_release import make_items, options, write_run


def _release_with_batch(
    batch: int, root: Path, monkeypatch: pytest.MonkeyPatch, convert: int | None = None
) -> tuple[Path, Path]:
    from ambiforge.releases import writer

    monkeypatch.setattr(writer, "BATCH_SIZE", batch)
    monkeypatch.setattr(writer, "CONVERT_SIZE", convert or writer.CONVERT_SIZE)
    return scenario(root)


# one row, odd, an exact divisor of 22 items, one batch; rows converted to Arrow a few at a time within a batch
@pytest.mark.parametrize(("batch", "convert"), [(1, 1), (3, 2), (11, 4), (2_000, 5)])
def test_release_files_equal_the_pre_streaming_writer(batch, convert, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pinned(monkeypatch)
    folders = _release_with_batch(batch, tmp_path / "streamed", monkeypatch, convert)
    got = checksums(*folders)
    want = json.loads(CHECKSUMS.read_text())
    assert sorted(got) == sorted(want)
    if batch < 22:
        # More than one batch: a Parquet file has one row group per batch, so its bytes (and the manifest's
        # checksums of it) differ; its rows, schema and metadata are those of the one-batch release.
        whole = _release_with_batch(2_000, tmp_path / "whole", monkeypatch)
        for mine, ref in zip(folders, whole, strict=True):
            for path in sorted(ref.rglob("*.parquet")):
                a, b = pq.read_table(mine / path.relative_to(ref)), pq.read_table(path)
                assert a.equals(b) and a.schema.metadata == b.schema.metadata
            assert pq.ParquetFile(mine / "data.parquet").metadata.num_row_groups == -(
                -len(read_rows(mine / "data.jsonl.gz")) // batch
            )
            m, r = (json.loads((f / "manifest.json").read_text()) for f in (mine, ref))
            assert {k: v for k, v in m.items() if k != "files"} == {k: v for k, v in r.items() if k != "files"}
            # the card holds the hash of the manifest (which lists the Parquet checksums): the same card
            # up to its integrity section
            cards = [(f / "README.md").read_text().split("\n## Integrity\n")[0] for f in (mine, ref)]
            assert cards[0] == cards[1]
        got = {
            k: v
            for k, v in got.items()
            if not k.endswith((".parquet", "manifest.json", "manifest.sha256", "README.md"))
        }
        want = {k: v for k, v in want.items() if k in got}
    assert got == want


def test_an_empty_split_is_the_file_write_table_makes(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    write_run(tmp_path / "raw", "r", make_items(catalog, 2, 12, "r"))
    folder = release(options(tmp_path, "1.0.0", ["r"], calibration_size=0, target_mix=None))
    empty = folder / "splits" / "calibration.parquet"
    # as the writer before streaming took it, with the default configuration's ClassLabel (AmbiK's types)
    names = class_names_in(pq.read_schema(folder / "data.parquet"))
    table = items_to_table(read_records(folder / "data.parquet"), names)
    pq.write_table(table.take(pa.array([], type=pa.int64())), tmp_path / "ref.parquet", compression="zstd")
    assert empty.read_bytes() == (tmp_path / "ref.parquet").read_bytes()
    assert pq.read_table(folder / "splits" / "test.parquet").equals(pq.read_table(folder / "data.parquet"))
    assert sorted(p.name for p in (folder / "splits").iterdir()) == ["calibration.parquet", "test.parquet"]
