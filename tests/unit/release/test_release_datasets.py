"""Researchers load a release with Hugging Face ``datasets``: ``ambiguity_type`` is a ClassLabel and
``review`` a struct, from the release folder (card front matter) and from its Parquet files (metadata)."""

from __future__ import annotations

import pyarrow.parquet as pq
import yaml

from ambiforge import ambiguity
from ambiforge.models import Review
from ambiforge.models.item import Annotation
from ambiforge.releases.writer import release
from ambiforge.storage import read_records
from tests.unit.release.test_release import make_items, options, write_run


def test_load_dataset_gives_classlabel_and_review_struct(tmp_path, catalog, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    from datasets import ClassLabel, Features, load_dataset

    anns = [
        Annotation(annotator=f"annotator-{k}", verdict="accept", corrections={"question": "Which?"}) for k in (1, 2, 3)
    ]
    review = Review(status="unanimous", verdict="accept", ambiguity_type="preferences", annotations=anns)
    items = [i.model_copy(update={"review": review}) for i in make_items(catalog, 7, 30, "r")]
    write_run(tmp_path / "raw", "r", items)
    folder = release(options(tmp_path, "1.0.0", ["r"], allow_unreviewed=False, calibration_size=5, target_mix=None))

    names = list(ambiguity.names())
    from_folder = load_dataset(str(folder), cache_dir=str(tmp_path / "hf"))
    from_parquet = load_dataset(
        "parquet",
        data_files={"calibration": str(folder / "splits/calibration.parquet"), "data": str(folder / "data.parquet")},
        cache_dir=str(tmp_path / "hf"),
    )
    for split in (from_folder["calibration"], from_folder["test"], from_parquet["calibration"], from_parquet["data"]):
        assert split.features["ambiguity_type"] == ClassLabel(names=names)
        assert isinstance(split.features["review"], dict) and "annotations" in split.features["review"]
    row = from_parquet["data"][0]
    assert names[row["ambiguity_type"]] == items[0].ambiguity_type
    assert row["review"]["annotations"][0]["annotator"] == "annotator-1"
    assert row["review"]["annotations"][0]["corrections"] == [{"field": "question", "value": "Which?"}]
    assert from_folder["test"].num_rows + from_folder["calibration"].num_rows == 30

    # the card's features are what datasets itself would write, and the Parquet rows read back as items
    meta = yaml.safe_load((folder / "README.md").read_text().split("---\n")[1])
    card_features = Features._from_yaml_list(meta["dataset_info"][0]["features"])
    assert card_features == Features.from_arrow_schema(pq.read_schema(folder / "data.parquet"))
    assert read_records(folder / "data.parquet") == read_records(folder / "data.jsonl")
