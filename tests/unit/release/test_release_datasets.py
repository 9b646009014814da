"""Researchers load a release with Hugging Face ``datasets``, pandas or DuckDB: ``ambiguity_type`` reads as
its name (a ClassLabel in ``datasets``), ``review`` and ``world`` as typed nested structs, from the release
folder (card front matter) and from its Parquet files."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml

from ambiforge import ambiguity
from ambiforge.models import Item, Review
from ambiforge.models.item import Annotation
from ambiforge.releases.files import read_rows
from ambiforge.releases.jsonl_form import jsonl_form
from ambiforge.releases.writer import release
from ambiforge.storage import read_records
from tests.unit.release.test_release import make_items, options, write_run


@pytest.fixture(scope="module")
def released(tmp_path_factory, catalog) -> tuple[Path, list[Item]]:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("datasets")
    anns = [
        Annotation(annotator=f"annotator-{k}", verdict="accept", corrections={"question": "Which?"}) for k in (1, 2, 3)
    ]
    review = Review(status="unanimous", verdict="accept", ambiguity_type="preferences", annotations=anns)
    items = [i.model_copy(update={"review": review}) for i in make_items(catalog, 7, 30, "r")]
    write_run(tmp / "raw", "r", items)
    folder = release(options(tmp, "1.0.0", ["r"], allow_unreviewed=False, calibration_size=5, target_mix=None))
    return folder, items


def test_load_dataset_gives_classlabel_and_typed_structs(released, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    from datasets import ClassLabel, Features, List, Value, load_dataset

    folder, items = released
    names = [n for n in ambiguity.names() if ambiguity.level(n) == "instruction"]  # the default configuration
    from_folder = load_dataset(str(folder), cache_dir=str(tmp_path / "hf"))
    from_parquet = load_dataset(
        "parquet",
        data_files={"calibration": str(folder / "splits/calibration.parquet"), "data": str(folder / "data.parquet")},
        cache_dir=str(tmp_path / "hf"),
    )
    for split in (from_folder["calibration"], from_folder["test"]):  # the card's features: a ClassLabel
        assert split.features["ambiguity_type"] == ClassLabel(names=names)
    for split in (from_parquet["calibration"], from_parquet["data"]):  # a bare Parquet file: the names
        assert split.features["ambiguity_type"] == Value("string")
    for split in (from_folder["calibration"], from_folder["test"], from_parquet["calibration"], from_parquet["data"]):
        assert isinstance(split.features["review"], dict) and "annotations" in split.features["review"]
        world = split.features["world"]
        node = world["graph"]["nodes"].feature
        assert node["attributes"]["colour"] == Value("string") and node["state"]["open"] == Value("bool")
        assert world["graph"]["seed"] == Value("int64") and isinstance(world["clear_plan"], List)
    row = from_folder["test"][0]
    assert names[row["ambiguity_type"]] in names
    first = from_parquet["data"][0]
    assert first["ambiguity_type"] == items[0].ambiguity_type
    assert first["review"]["annotations"][0]["annotator"] == "annotator-1"
    assert first["review"]["annotations"][0]["corrections"] == [{"field": "question", "value": "Which?"}]
    assert first["world"]["graph"]["nodes"] == [n.model_dump(mode="json") for n in items[0].world.graph.nodes]  # type: ignore[union-attr]
    assert from_folder["test"].num_rows + from_folder["calibration"].num_rows == 30

    # the card's features are what datasets itself would write (the class label aside: in the Parquet file it
    # is the name), and the Parquet rows read back as items
    meta = yaml.safe_load((folder / "README.md").read_text().split("---\n")[1])
    card_features = Features._from_yaml_list(meta["dataset_info"][0]["features"])
    from_schema = Features.from_arrow_schema(pq.read_schema(folder / "data.parquet"))
    assert card_features["ambiguity_type"] == ClassLabel(names=names)
    assert {k: v for k, v in card_features.items() if k != "ambiguity_type"} == {
        k: v for k, v in from_schema.items() if k != "ambiguity_type"
    }
    # data.jsonl.gz: the same rows without the scene graphs, which are in the Parquet file only; datasets'
    # JSON loader reads the compressed file as it is (the card's snippet)
    without_graphs = [jsonl_form(r) for r in read_records(folder / "data.parquet")]
    assert without_graphs == read_rows(folder / "data.jsonl.gz")
    lines = load_dataset("json", data_files=str(folder / "data.jsonl.gz"), cache_dir=str(tmp_path / "hf"))["train"]
    assert lines["id"] == [i.id for i in items] and lines[0]["question"] == items[0].question
    assert (
        "graph" not in lines[0]["world"] and lines[0]["world"]["candidates"] == without_graphs[0]["world"]["candidates"]
    )
    # the card's advice for a bare Parquet file gives the ClassLabel
    cast = from_parquet["data"].cast_column("ambiguity_type", ClassLabel(names=names))
    assert [names[k] for k in cast["ambiguity_type"]] == [i.ambiguity_type for i in items]


def test_pandas_and_duckdb_read_names_and_query_the_graph(released) -> None:  # type: ignore[no-untyped-def]
    folder, items = released
    data = folder / "data.parquet"
    frame = pd.read_parquet(data)
    assert list(frame["ambiguity_type"]) == [i.ambiguity_type for i in items]
    # the compressed JSON lines, read directly as the card shows
    lines = pd.read_json(folder / "data.jsonl.gz", lines=True)
    assert list(lines["ambiguity_type"]) == [i.ambiguity_type for i in items]
    questions = duckdb.sql(f"select id, question from read_json('{folder / 'data.jsonl.gz'}')").fetchall()
    assert questions == [(i.id, i.question) for i in items]

    types = duckdb.sql(f"select ambiguity_type from '{data}'").fetchall()
    assert [t for (t,) in types] == [i.ambiguity_type for i in items]
    sizes = duckdb.sql(f"select id, len(world.graph.nodes), len(world.graph.edges) from '{data}'").fetchall()
    by_id = {i.id: i for i in items}
    for item_id, nodes, edges in sizes:
        graph = by_id[item_id].world.graph  # type: ignore[union-attr]
        assert (nodes, edges) == (len(graph.nodes), len(graph.edges))
    # a nested query: where the first candidate of an item stands (DuckDB lists count from 1)
    item = next(i for i in items if i.world is not None and i.world.candidates)
    world = item.world
    assert world is not None
    found = duckdb.sql(
        f"select e.relation, e.target from (select unnest(world.graph.edges) as e, world.candidates[1] as c, id "
        f"from '{data}') where id = '{item.id}' and e.source = c and e.relation in ('in', 'on', 'inside')"
    ).fetchall()
    located = ("in", "on", "inside")
    expected = [
        (e.relation, e.target) for e in world.graph.edges if e.source == world.candidates[0] and e.relation in located
    ]
    assert found == expected and len(found) == 1
