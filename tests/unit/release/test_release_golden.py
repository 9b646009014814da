"""The streaming writer's files are byte for byte those of the writer before it streamed (checksums taken
with commit b65e563 on the fixture in tests/fixtures/release), whatever the batch size."""

from __future__ import annotations

import json

import pytest

from tests.unit.release.golden import CHECKSUMS, checksums, pinned, scenario


@pytest.mark.parametrize("batch", [1, 3, 11, 10_000])  # one row, odd, an exact multiple of 22 items, one batch
def test_release_files_equal_the_pre_streaming_writer(batch, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import ambiforge.release.writer as writer

    pinned(monkeypatch)
    monkeypatch.setattr(writer, "BATCH_SIZE", batch)
    got = checksums(*scenario(tmp_path))
    want = json.loads(CHECKSUMS.read_text())
    if batch < 22:  # more than one row group: the Parquet files' rows are checked, not their bytes
        got = {k: v for k, v in got.items() if not k.endswith(".parquet") and not k.endswith("manifest.json")}
        want = {k: v for k, v in want.items() if k in got}
    assert got == want
