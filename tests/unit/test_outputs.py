"""An output that would destroy data is refused before anything is read or written (issue 30): the
library's check (:func:`ambiforge.outputs.check_output`), so the API is covered as well as the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge import api
from ambiforge.ambik import write_ambik_csv
from ambiforge.config.file import Config, PathsConfig
from ambiforge.errors import ConfigError
from ambiforge.outputs import check_output
from ambiforge.storage import write_items_jsonl
from tests.unit.release.test_release import make_items

JSONL = (".jsonl", ".parquet")


def test_an_output_that_is_the_input_is_refused(tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text("keep\n")
    with pytest.raises(ConfigError, match="--out: .* is also the input"):
        check_output(items, "--out", suffixes=JSONL, inputs=[items])
    link = tmp_path / "link.jsonl"
    link.symlink_to(items)
    with pytest.raises(ConfigError, match="also the input"):
        check_output(link, "--out", suffixes=JSONL, inputs=[items])


def test_an_output_inside_a_release_is_refused(tmp_path: Path) -> None:
    curated = tmp_path / "curated"
    with pytest.raises(ConfigError, match="inside the release folder"):
        check_output(curated / "1.0.0" / "data.jsonl", "--out", suffixes=JSONL, curated=curated)
    elsewhere = tmp_path / "elsewhere" / "2.0.0"
    elsewhere.mkdir(parents=True)
    (elsewhere / "manifest.json").write_text("{}")
    with pytest.raises(ConfigError, match="inside the release folder"):
        check_output(elsewhere / "splits" / "x.jsonl", "--out", suffixes=JSONL)
    assert check_output(curated / "loose.jsonl", "--out", suffixes=JSONL, curated=curated)


@pytest.mark.parametrize("name", ["out.txt", "out", "out.json", "out.csv"])
def test_a_suffix_that_does_not_say_the_format_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigError, match="does not end in .jsonl or .parquet"):
        check_output(tmp_path / name, "--out", suffixes=JSONL)


def test_the_api_writes_nothing_when_refused(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    config = Config(paths=PathsConfig(curated=str(tmp_path / "curated")))
    items = tmp_path / "items.jsonl"
    write_items_jsonl(items, make_items(catalog, 2, 4, "r"))
    before = items.read_bytes()
    with pytest.raises(ConfigError, match="also the input"):
        api.export_ambik(items, items, config=config)
    with pytest.raises(ConfigError, match=r"does not end in \.csv"):
        api.export_ambik(items, tmp_path / "items.txt", config=config)
    assert items.read_bytes() == before
    csv_path = write_ambik_csv(make_items(catalog, 2, 4, "r"), tmp_path / "a.csv")
    with pytest.raises(ConfigError, match="inside the release folder"):
        api.import_ambik(csv_path, tmp_path / "curated" / "1.0.0" / "data.jsonl", config=config)
    with pytest.raises(ConfigError, match="format to write is not clear"):
        api.import_ambik(csv_path, tmp_path / "out.txt", config=config)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "items.jsonl"]
    assert api.import_ambik(csv_path, tmp_path / "out.parquet", config=config) == 4
