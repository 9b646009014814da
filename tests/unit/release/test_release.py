"""Releases: two versions from offline runs, their manifest, checksums, splits, card and changelog; and
the gates that refuse a release without touching curated/."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml

import ambiforge
from ambiforge import ambiguity
from ambiforge.cli.main import main
from ambiforge.errors import ConfigError
from ambiforge.generation.mix import type_quotas, type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Item, Review
from ambiforge.releases.files import read_rows
from ambiforge.releases.manifest import manifest_errors
from ambiforge.releases.verify import VerifyError, verify_release
from ambiforge.releases.writer import ReleaseGateError, ReleaseOptions, release
from ambiforge.storage import write_items_jsonl
from ambiforge.storage.arrow_schema import class_names_in

MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}


def make_items(catalog, seed: int, n: int, run_id: str) -> list[Item]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, seed, run_id)
    return [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(n, MIX, seed))]


def write_run(raw: Path, run_id: str, items: list[Item]) -> None:
    write_items_jsonl(raw / run_id / "items.jsonl", items)


def options(tmp: Path, version: str, runs: list[str], **kw: object) -> ReleaseOptions:
    defaults = dict(
        raw=tmp / "raw",
        curated=tmp / "curated",
        annotation=tmp / "annotation",
        allow_unreviewed=True,
        calibration_size=40,
        seed=3,
        target_mix=MIX,
    )
    return ReleaseOptions(version=version, run_ids=runs, **(defaults | kw))  # type: ignore[arg-type]


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def two_releases(tmp_path_factory, catalog):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("rel")
    first = make_items(catalog, 1, 200, "run-a")
    write_run(tmp / "raw", "run-a", first)
    v1 = release(options(tmp, "1.0.0", ["run-a"]))
    # Second run: 5 items gone, 3 corrected, 7 new ones.
    changed_ids = [first[10].id, first[20].id, first[30].id]
    second = [i for i in first[5:]]
    second = [
        i.model_copy(update={"question": i.question.rstrip("?") + ", please?"}) if i.id in changed_ids else i
        for i in second
    ]
    extra = make_items(catalog, 9, 7, "run-b")
    write_run(tmp / "raw", "run-b", second + extra)
    v2 = release(options(tmp, "1.1.0", ["run-b"]))
    return (
        tmp,
        v1,
        v2,
        first,
        {"removed": {i.id for i in first[:5]}, "changed": set(changed_ids), "added": {i.id for i in extra}},
    )


def test_manifest_checksums_and_files(two_releases) -> None:  # type: ignore[no-untyped-def]
    tmp, v1, v2, first, _ = two_releases
    for folder in (v1, v2):
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest_errors(manifest) == []
        assert verify_release(folder)["rows"] == manifest["counts"]["total"]
        for entry in manifest["files"]:
            assert hashlib.sha256((folder / entry["path"]).read_bytes()).hexdigest() == entry["sha256"]
        paths = {e["path"] for e in manifest["files"]}
        assert {
            "data.parquet",
            "data.jsonl.gz",
            "README.md",
            "CHANGELOG.md",
            "splits/calibration.parquet",
            "splits/test.parquet",
        } <= paths
        assert not any(p.endswith(".csv") or p.endswith(".jsonl") for p in paths)  # the AmbiK CSV is an export
    m1 = json.loads((v1 / "manifest.json").read_text())
    assert m1["counts"]["total"] == 200 and m1["allow_unreviewed"] is True and m1["run_ids"] == ["run-a"]
    assert m1["prompts"] and m1["catalog"][0]["sha256"] == first[0].provenance.catalog_sha256
    assert m1["review"]["status"] == {"unreviewed": 200}
    assert len(m1["git_commit"] or "0" * 40) == 40


def test_splits_have_the_sizes_and_keep_the_type_mix(two_releases) -> None:  # type: ignore[no-untyped-def]
    _, v1, _, first, _ = two_releases
    cal = pd.read_parquet(v1 / "splits" / "calibration.parquet")
    test = pd.read_parquet(v1 / "splits" / "test.parquet")
    assert len(cal) == 40 and len(test) == 160
    assert not set(cal["id"]) & set(test["id"]) and set(cal["id"]) | set(test["id"]) == {i.id for i in first}
    whole = Counter(i.ambiguity_type for i in first)
    assert class_names_in(pq.read_schema(v1 / "splits" / "calibration.parquet")) == [
        n for n in ambiguity.names() if ambiguity.level(n) == "instruction"
    ]
    cal_types = list(cal["ambiguity_type"])  # pandas shows the names, not class indexes
    assert set(cal_types) <= set(ambiguity.names())
    assert dict(Counter(cal_types)) == {t: n for t, n in type_quotas(40, dict(whole)).items() if n}
    assert isinstance(cal["plan_for_clear_task"].iloc[0].tolist(), list)  # lists stay lists


def test_card_front_matter_is_yaml_with_configs(two_releases) -> None:  # type: ignore[no-untyped-def]
    _, v1, _, _, _ = two_releases
    text = (v1 / "README.md").read_text()
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["license"] == "cc-by-4.0" and meta["size_categories"] == ["n<1K"]
    assert meta["annotations_creators"] == ["machine-generated"]
    assert {c["config_name"] for c in meta["configs"]} == {"default", "all"}
    for section in (
        "## How it was built",
        "## Ambiguity types",
        "## Fields",
        "## Statistics",
        "## Agreement",
        "## Uses",
        "## Out-of-scope uses",
        "## Personal and sensitive information",
        "## Bias, risks and limitations",
        "## Maintainers and contact",
        "## License",
        "**Not reviewed.** None of the 200 items",
        "type-token ratio",
    ):
        assert section in text


def test_changelog_lists_exactly_the_items_that_differ(two_releases, capsys) -> None:  # type: ignore[no-untyped-def]
    _, v1, v2, _, expected = two_releases
    manifest = json.loads((v2 / "manifest.json").read_text())
    assert manifest["changes"] == {"previous": "1.0.0", "added": 7, "removed": 5, "changed": 3}
    log = (v2 / "CHANGELOG.md").read_text()
    listed = {line.split("`")[1] for line in log.splitlines() if line.startswith("- `")}
    assert listed == expected["added"] | expected["removed"] | expected["changed"]
    for item_id in expected["changed"]:
        assert f"- `{item_id}`: question" in log
    assert main(["diff", str(v1), str(v2)]) == 0
    assert capsys.readouterr().out == log


def test_flipping_one_byte_fails_verify_naming_the_file(two_releases, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import shutil

    _, v1, _, _, _ = two_releases
    copy = tmp_path / "1.0.0"
    shutil.copytree(v1, copy)
    target = copy / "splits" / "test.parquet"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    with pytest.raises(VerifyError, match=r"splits/test.parquet: sha256"):
        verify_release(copy)
    assert main(["verify", str(copy)]) == 1
    assert "splits/test.parquet" in capsys.readouterr().err


def test_existing_or_older_version_is_refused_and_nothing_changes(two_releases) -> None:  # type: ignore[no-untyped-def]
    tmp, _, _, _, _ = two_releases
    before = tree_digest(tmp / "curated")
    with pytest.raises(ConfigError, match="already released"):
        release(options(tmp, "1.0.0", ["run-a"]))
    with pytest.raises(ConfigError, match="not greater than the last release 1.1.0"):
        release(options(tmp, "1.0.5", ["run-a"]))
    assert tree_digest(tmp / "curated") == before


def test_invalid_item_fails_the_gate_and_leaves_no_folder(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    items = make_items(catalog, 2, 60, "bad")
    write_run(tmp_path / "raw", "bad", items)
    path = tmp_path / "raw" / "bad" / "items.jsonl"
    lines = path.read_text().splitlines()
    record = json.loads(lines[7])
    record["end_of_ambiguity"] = -3
    lines[7] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReleaseGateError, match=r"items.jsonl:8: end_of_ambiguity"):
        release(options(tmp_path, "1.0.0", ["bad"], calibration_size=10))
    assert not (tmp_path / "curated").exists() or not any((tmp_path / "curated").iterdir())
    reports = list((tmp_path / "raw" / "release-gates").glob("1.0.0-*.json"))
    assert reports and json.loads(reports[0].read_text())["schema_failures"][0]["row"].endswith("items.jsonl:8")


def test_only_accepted_items_unless_allowed(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    items = make_items(catalog, 4, 50, "rev")
    reviewed = [
        i.model_copy(update={"review": Review(status="unanimous", verdict="accept")})
        if n % 2 == 0
        else i.model_copy(update={"review": Review(status="majority", verdict="reject")})
        for n, i in enumerate(items[:40])
    ] + items[40:]
    write_run(tmp_path / "raw", "rev", reviewed)
    folder = release(options(tmp_path, "0.1.0", ["rev"], allow_unreviewed=False, calibration_size=5, target_mix=None))
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["counts"]["total"] == 20
    assert manifest["review"]["status"] == {"accepted": 20, "rejected": 20, "unreviewed": 10}
    assert {r["id"] for r in read_rows(folder / "data.jsonl.gz")} == {i.id for i in reviewed[:40:2]}
    assert "annotations_creators:\n- expert-generated" in (folder / "README.md").read_text()


def test_researchers_can_load_it(two_releases, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import csv

    _, v1, _, first, _ = two_releases
    df = pd.read_parquet(v1 / "data.parquet")
    assert len(df) == 200 and list(df["id"]) == [i.id for i in first]
    # the AmbiK CSV layout, exported from the release as its card says
    assert ambiforge.export_ambik(v1 / "data.parquet", tmp_path / "ambik.csv") == 200
    rows = list(csv.DictReader((tmp_path / "ambik.csv").open(encoding="utf-8", newline="")))
    assert rows[0]["plan_for_clear_task"].startswith("1. ") and int(rows[0]["end_of_ambiguity"]) >= 0
    assert [r["id"] for r in rows] == [i.id for i in first]
    lines = pd.read_json(v1 / "data.jsonl.gz", lines=True)  # pandas reads the compressed JSON lines itself
    assert list(lines["id"]) == [i.id for i in first] and "graph" not in lines["world"][0]
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    from datasets import load_dataset

    ds = load_dataset(
        "parquet",
        data_files={
            "calibration": str(v1 / "splits/calibration.parquet"),
            "test": str(v1 / "splits/test.parquet"),
        },
        cache_dir=str(tmp_path / "hf"),
    )
    assert ds["calibration"].num_rows == 40 and ds["test"].num_rows == 160
    assert isinstance(ds["test"][0]["plan_for_amb_task"], list)
