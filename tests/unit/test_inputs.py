"""Inputs are read within limits: regular files only (a pipe or a device is one line, never a hang), a size
cap for what is read whole, a line cap for JSONL, no NUL in CSV cells."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from ambiforge import inputs
from ambiforge.ambik import read_ambik_csv
from ambiforge.catalog import load_catalog
from ambiforge.errors import CatalogError, InputError
from ambiforge.releases.changelog import read_manifest
from ambiforge.storage import read_records
from ambiforge.validation.stream import item_batches


def within(seconds: float, fn, *args):  # type: ignore[no-untyped-def]
    """Run ``fn`` in a thread; a call still running after ``seconds`` is a hang (the test fails)."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{fn.__name__} blocked"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "items.jsonl"
    os.mkfifo(path)
    return path


def test_a_named_pipe_is_refused_at_once_by_validate_and_the_readers(fifo: Path) -> None:
    for read in (lambda p: list(item_batches(p)()), read_records):
        with pytest.raises(InputError, match="not a regular file"):
            within(5, read, fifo)
    csv = fifo.with_suffix(".csv")
    os.mkfifo(csv)
    with pytest.raises(InputError, match="not a regular file"):
        within(5, read_ambik_csv, csv)


def test_a_device_as_catalog_is_one_line() -> None:
    with pytest.raises(CatalogError, match="not a regular file"):
        within(5, load_catalog, "/dev/zero")


def test_a_catalog_too_large_is_refused_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "catalog.yaml"
    big.write_bytes(b"#" * 2048)
    monkeypatch.setattr(inputs, "CATALOG", 1024)
    with pytest.raises(CatalogError, match="2048 bytes; a catalog may have at most 1024"):
        load_catalog(big)


def test_a_jsonl_line_without_end_is_refused_at_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "items.jsonl"
    path.write_bytes(b'{"id": "' + b"x" * 5000)
    with pytest.raises(InputError, match="line 1: longer than 1000 bytes"):
        list(inputs.lines(path, limit=1000))


def test_a_nul_in_a_csv_cell_is_named(tmp_path: Path) -> None:
    from ambiforge.ambik.csv_io import AMBIK_COLUMNS

    path = tmp_path / "ambik.csv"
    header = ",".join(AMBIK_COLUMNS)
    cells = ["x"] * len(AMBIK_COLUMNS)
    cells[AMBIK_COLUMNS.index("question")] = "Which\0one?"
    path.write_text(header + "\n" + ",".join(cells) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"row 1: column 'question': a NUL character"):
        read_ambik_csv(path)


def test_a_manifest_that_is_not_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_text("not json")
    with pytest.raises(InputError, match="manifest.json: not valid JSON"):
        read_manifest(path)
    path.write_text("[1]")
    with pytest.raises(InputError, match="not a JSON object"):
        read_manifest(path)
