"""The ``judgement`` field travels into every release format: JSONL (an object), Parquet (a struct that
``datasets`` loads, and that reads back as the same records) and CSV (a JSON string column)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import ambiforge
from ambiforge.ambik.csv_io import read_ambik_csv
from ambiforge.models.schema import schema_errors
from ambiforge.releases.jsonl_form import jsonl_form, with_graphs
from ambiforge.releases.writer import release
from ambiforge.storage import read_records
from tests.unit.judge.fakes import CLEAR_IS_AMBIGUOUS, judged
from tests.unit.release import gz
from tests.unit.release.test_release import make_items, options, write_run


def test_judgement_in_jsonl_parquet_and_csv(tmp_path: Path, catalog, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    made = make_items(catalog, 7, 30, "r")
    made = [judged(i, CLEAR_IS_AMBIGUOUS) if n < 20 else i for n, i in enumerate(made)]  # ten not judged
    write_run(tmp_path / "raw", "r", made)
    folder = release(options(tmp_path, "1.0.0", ["r"], calibration_size=5))
    by_id = {i.id: i for i in made}

    jsonl = {r["id"]: r for r in gz.rows(folder / "data.jsonl.gz")}
    parquet = {r["id"]: r for r in read_records(folder / "data.parquet")}
    for item_id, record in jsonl.items():
        expected = by_id[item_id].judgement
        assert record["judgement"] == (expected.model_dump(mode="json") if expected else None)
        assert schema_errors(with_graphs(record, parquet[item_id])) == []  # the graphs are in the Parquet file
    assert [jsonl_form(r) for r in parquet.values()] == list(jsonl.values())

    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    from datasets import load_dataset

    data = load_dataset("parquet", data_files={"data": str(folder / "data.parquet")}, cache_dir=str(tmp_path / "hf"))
    rows = {r["id"]: r for r in data["data"]}
    some = next(i for i in made if i.judgement is not None)
    row = rows[some.id]["judgement"]
    assert row["clear_task"]["verdict"] == "ambiguous" and row["flags"][0]["check"] == "clear_judged_ambiguous"
    assert row["models"] == ["m1", "m2", "m3"]
    unjudged = next(i for i in made if i.judgement is None)
    assert rows[unjudged.id]["judgement"] is None

    exported = tmp_path / "ambik.csv"  # the AmbiK CSV layout, exported from the release
    ambiforge.export_ambik(folder / "data.parquet", exported)
    with exported.open(encoding="utf-8", newline="") as fh:
        cells = {r["id"]: r["judgement"] for r in csv.DictReader(fh)}
    assert json.loads(cells[some.id]) == some.judgement.model_dump(mode="json")  # type: ignore[union-attr]
    assert cells[unjudged.id] == ""
    back = {i.id: i for i in read_ambik_csv(exported, catalog)}
    assert back[some.id].judgement == some.judgement and back[unjudged.id].judgement is None
