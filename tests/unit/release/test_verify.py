"""``verify`` trusts nothing: every manifest edit, every cross-format disagreement and every folder problem
is exit 1 naming it (a missing folder exit 2), on small releases made by the real writer (issue 18)."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ambiforge.cli.main import main
from ambiforge.errors import InputError
from ambiforge.models import Review
from ambiforge.releases.checksums import sha256_of
from ambiforge.releases.seal import integrity_section, read_sha256sum, read_witness
from ambiforge.releases.verify import VerifyError, verify_release
from ambiforge.releases.writer import ReleaseGateError, release
from ambiforge.storage.arrow_schema import class_names_in
from tests.unit.release import gz
from tests.unit.release.test_release import make_items, options, write_run


@pytest.fixture(scope="module")
def sealed(tmp_path_factory, catalog) -> Path:  # type: ignore[no-untyped-def]
    """60 items: 30 accepted, 10 rejected (not released), 20 unreviewed (released with allow_unreviewed)."""
    tmp = tmp_path_factory.mktemp("verify")
    items = make_items(catalog, 5, 60, "run-v")
    reviewed = [
        i.model_copy(update={"review": Review(status="unanimous", verdict="accept")})
        if n < 30
        else i.model_copy(update={"review": Review(status="majority", verdict="reject")})
        if n < 40
        else i
        for n, i in enumerate(items)
    ]
    write_run(tmp / "raw", "run-v", reviewed)
    return release(options(tmp, "1.0.0", ["run-v"], calibration_size=6, target_mix=None))


@pytest.fixture
def copy(sealed: Path, tmp_path: Path) -> Path:
    target = tmp_path / "1.0.0"
    shutil.copytree(sealed, target)
    return target


def manifest_of(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def reseal(folder: Path, manifest: dict[str, Any], card: bool = False) -> None:
    """What a forger would do: checksums of every listed file brought up to date, the manifest rewritten,
    manifest.sha256 rewritten, and with ``card`` the card's integrity block too."""

    def refresh() -> None:
        for entry in manifest["files"]:
            path = folder / entry["path"]
            entry["sha256"], entry["bytes"] = sha256_of(path), path.stat().st_size

    refresh()
    if card:
        text = (folder / "README.md").read_text(encoding="utf-8")
        (folder / "README.md").write_text(text[: text.index("\n## Integrity")] + integrity_section(manifest))
        refresh()
    write_manifest(folder, manifest)
    (folder / "manifest.sha256").write_text(f"{sha256_of(folder / 'manifest.json')}  manifest.json\n")


def fails(folder: Path, *fragments: str, **kw: Any) -> str:
    with pytest.raises(VerifyError) as caught:
        verify_release(folder, **kw)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert "\n" not in message
    return message


def test_a_fresh_release_verifies_and_seals_its_manifest(sealed: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    manifest = manifest_of(sealed)
    assert verify_release(sealed) == {"files": len(manifest["files"]), "rows": 50}
    sums = read_sha256sum((sealed / "manifest.sha256").read_text())
    assert sums == {"manifest.json": sha256_of(sealed / "manifest.json")}
    assert verify_release(sealed, manifest_sha256=sums["manifest.json"])["rows"] == 50
    recorded = read_witness((sealed / "README.md").read_text())
    assert recorded is not None and recorded["git_commit"] == manifest["git_commit"]
    assert recorded["review.status"] == {"accepted": 30, "rejected": 10, "unreviewed": 20}
    assert "README.md" in {e["path"] for e in manifest["files"]}
    assert main(["verify", str(sealed)]) == 0
    err = capsys.readouterr().err  # the console writes to stderr
    assert "50 rows" in err and f"manifest sha256 {sums['manifest.json']}" in err


EDITS = {
    "allow_unreviewed": lambda m: m.update(allow_unreviewed=False),
    "run_ids": lambda m: m.update(run_ids=["run-v", "run-w"]),
    "review.status": lambda m: m["review"]["status"].update(rejected=3),
    "git_commit": lambda m: m.update(git_commit="0" * 40),
}


@pytest.mark.parametrize("field", list(EDITS))
def test_a_manifest_edit_breaks_the_seal_and_is_named(copy: Path, field: str, capsys) -> None:  # type: ignore[no-untyped-def]
    manifest = manifest_of(copy)
    EDITS[field](manifest)
    write_manifest(copy, manifest)
    fails(copy, "manifest.sha256", f"{field}:")
    assert main(["verify", str(copy)]) == 1
    err = capsys.readouterr().err
    assert err.count("ambiforge: error:") == 1 and field in err and "Traceback" not in err


@pytest.mark.parametrize("field", list(EDITS))
def test_a_manifest_edit_with_a_new_seal_is_named(copy: Path, field: str) -> None:
    manifest = manifest_of(copy)
    EDITS[field](manifest)
    reseal(copy, manifest)
    fails(copy, f"{field}:")


@pytest.mark.parametrize(
    ("field", "edit"),
    [
        ("allow_unreviewed", EDITS["allow_unreviewed"]),
        ("review.status.unreviewed", lambda m: m["review"]["status"].update(unreviewed=5, accepted=45)),
        ("review.status", lambda m: m["review"]["status"].update(accepted=31)),
        ("counts.per_split.test.total", lambda m: m["counts"]["per_split"]["test"].update(total=43)),
        (
            "counts.per_type.safety",
            lambda m: m["counts"]["per_type"].update(safety=m["counts"]["per_type"]["safety"] + 1),
        ),
        ("splits.calibration_size", lambda m: m["splits"].update(calibration_size=7)),
        ("review.released_unreviewed", lambda m: m["review"]["released_unreviewed"].pop()),
        ("prompts", lambda m: m["prompts"].append({"id": "x", "version": "1"})),
    ],
)
def test_rows_contradict_a_fully_forged_manifest(copy: Path, field: str, edit: Any) -> None:
    """Card, checksums and manifest.sha256 all rewritten: the figures recomputed from the rows still differ."""
    manifest = manifest_of(copy)
    edit(manifest)
    reseal(copy, manifest, card=True)
    fails(copy, f"{field}:")


def test_only_the_published_hash_catches_a_forged_git_commit(sealed: Path, copy: Path) -> None:
    published = sha256_of(sealed / "manifest.json")
    manifest = manifest_of(copy)
    manifest["git_commit"] = "0" * 40
    reseal(copy, manifest, card=True)
    assert verify_release(copy)["rows"] == 50  # nothing inside the folder can tell
    fails(copy, "you gave", manifest_sha256=published)


def rewrite_jsonl(folder: Path, row: int, field: str, value: Any) -> None:
    path = folder / "data.jsonl.gz"
    lines = gz.read_text(path).splitlines()
    record = json.loads(lines[row - 1])
    record[field] = value
    lines[row - 1] = json.dumps(record, ensure_ascii=False)
    gz.write_text(path, "\n".join(lines) + "\n")


def test_an_edited_question_in_jsonl_is_named_against_parquet(copy: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    rewrite_jsonl(copy, 5, "question", "Which one do you mean, really?")
    reseal(copy, manifest_of(copy))
    fails(copy, "data.parquet:5: field question differs", "'Which one do you mean, really?'")
    assert main(["verify", str(copy)]) == 1
    assert "data.parquet:5: field question differs" in capsys.readouterr().err


def test_the_issues_edit_checksum_updated_in_the_manifest_only(copy: Path) -> None:
    """Issue 18's case: a question edited in data.jsonl.gz and its checksum updated in manifest.json (not in
    manifest.sha256): the seal fails and the first difference is named."""
    rewrite_jsonl(copy, 5, "question", "Which one do you mean, really?")
    manifest = manifest_of(copy)
    path = copy / "data.jsonl.gz"
    for entry in manifest["files"]:
        if entry["path"] == "data.jsonl.gz":
            entry["sha256"], entry["bytes"] = sha256_of(path), path.stat().st_size
    write_manifest(copy, manifest)
    fails(copy, "does not match manifest.sha256", "data.parquet:5: field question differs")


def test_an_edited_parquet_row_is_named(copy: Path) -> None:
    path = copy / "data.parquet"
    table = pq.read_table(path)
    answers = table.column("answer").to_pylist()
    answers[7] = "something else"
    table = table.set_column(table.schema.get_field_index("answer"), table.schema.field("answer"), [answers])
    pq.write_table(table, path, compression="zstd")
    reseal(copy, manifest_of(copy))
    fails(copy, "data.parquet:8: field answer differs", "'something else'")


def test_an_edited_ambiguity_type_in_a_split_is_named(copy: Path) -> None:
    path = copy / "splits" / "test.parquet"
    table = pq.read_table(path)
    labels = table.column("ambiguity_type").to_pylist()
    names = class_names_in(table.schema)
    labels[0] = names[(names.index(labels[0]) + 1) % len(names)]
    table = table.set_column(
        table.schema.get_field_index("ambiguity_type"), table.schema.field("ambiguity_type"), [labels]
    )
    pq.write_table(table, path, compression="zstd")
    reseal(copy, manifest_of(copy))
    fails(copy, "splits/test.parquet:1: field ambiguity_type differs")


def test_an_ambiguity_type_outside_the_class_names_is_named(copy: Path) -> None:
    path = copy / "data.parquet"
    table = pq.read_table(path)
    labels = table.column("ambiguity_type").to_pylist()
    labels[2] = "irony"
    table = table.set_column(
        table.schema.get_field_index("ambiguity_type"), table.schema.field("ambiguity_type"), [labels]
    )
    pq.write_table(table, path, compression="zstd")
    reseal(copy, manifest_of(copy))
    fails(copy, "data.parquet:3: ambiguity_type 'irony' is not one of the ClassLabel's names")


def test_a_release_written_before_compression_verifies(copy: Path) -> None:
    """Plain data.jsonl and the AmbiK CSV files, as releases were written before: verified as they were."""
    gz.to_legacy(copy)
    assert verify_release(copy)["rows"] == 50
    lines = (copy / "data.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    record["question"] = "Which one, in the old layout?"
    lines[1] = json.dumps(record, ensure_ascii=False)
    (copy / "data.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    reseal(copy, manifest_of(copy))
    fails(copy, "data.parquet:2: field question differs (data.jsonl 'Which one, in the old layout?'")


def test_a_damaged_gzip_file_is_named(copy: Path) -> None:
    path = copy / "data.jsonl.gz"
    path.write_bytes(path.read_bytes()[:-40])  # cut short: the stream ends before its end marker
    reseal(copy, manifest_of(copy))
    fails(copy, "data.jsonl.gz: not a readable gzip file")


@pytest.mark.parametrize("name", ["ambik.csv", "splits/calibration.csv"])
def test_an_edited_csv_cell_is_named(copy: Path, name: str) -> None:
    """In a release that has them (written before the AmbiK CSV became an export)."""
    gz.to_legacy(copy)
    path = copy / name
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    column = rows[0].index("answer")
    rows[2][column] = "Edited answer."
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8", newline="")
    reseal(copy, manifest_of(copy))
    fails(copy, f"{name}:2: field answer differs", "'Edited answer.'")


def test_a_row_moved_between_splits_is_named(copy: Path) -> None:
    """Moving a test row into calibration (files, counts, card and seals all made consistent) still
    disagrees with the seeded stratified split."""
    cal, test = (pq.read_table(copy / "splits" / f"{s}.parquet") for s in ("calibration", "test"))
    moved_id = test.column("id")[0].as_py()
    records = gz.rows(copy / "data.jsonl.gz")
    order = [r["id"] for r in records]
    moved = sorted(cal.to_pylist() + test.slice(0, 1).to_pylist(), key=lambda r: order.index(r["id"]))
    pq.write_table(pa.Table.from_pylist(moved, schema=cal.schema), copy / "splits" / "calibration.parquet")
    pq.write_table(test.slice(1), copy / "splits" / "test.parquet")
    manifest = manifest_of(copy)
    kind = next(r["ambiguity_type"] for r in records if r["id"] == moved_id)
    for name, step in (("calibration", 1), ("test", -1)):
        manifest["counts"]["per_split"][name]["total"] += step
        manifest["counts"]["per_split"][name]["per_type"][kind] += step
    manifest["splits"]["calibration_size"] += 1
    reseal(copy, manifest, card=True)
    fails(copy, "splits/calibration.parquet: holds", moved_id)


def test_a_missing_folder_is_exit_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="no such release folder"):
        verify_release(tmp_path / "nope")
    assert main(["verify", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("ambiforge: error:") == 1 and "nope" in err and "Traceback" not in err


def test_a_file_listed_nowhere_is_named(copy: Path) -> None:
    (copy / "notes.txt").write_text("hello\n")
    fails(copy, "notes.txt: not listed in the manifest")


def test_an_extra_directory_is_named(copy: Path) -> None:
    (copy / "scratch").mkdir()
    fails(copy, "scratch/: a directory the manifest does not list")


def test_a_listed_file_that_is_missing_is_named(copy: Path) -> None:
    (copy / "CHANGELOG.md").unlink()
    fails(copy, "CHANGELOG.md: listed in the manifest but missing")


def test_a_release_file_gone_from_disk_and_manifest_is_named(copy: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (copy / "data.jsonl.gz").unlink()
    manifest = manifest_of(copy)
    manifest["files"] = [e for e in manifest["files"] if e["path"] != "data.jsonl.gz"]
    reseal(copy, manifest, card=True)
    fails(copy, "data.jsonl.gz: every release has this file, but it is missing")
    assert main(["verify", str(copy)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_a_missing_manifest_sha256_is_named(copy: Path) -> None:
    (copy / "manifest.sha256").unlink()
    fails(copy, "manifest.sha256: missing")


def test_a_row_breaking_the_item_schema_is_named(copy: Path) -> None:
    rewrite_jsonl(copy, 3, "end_of_ambiguity", -1)
    reseal(copy, manifest_of(copy))
    fails(copy, "data.jsonl.gz:3: end_of_ambiguity")


def test_a_duplicated_row_is_named(copy: Path) -> None:
    path = copy / "data.jsonl.gz"
    lines = gz.read_text(path).splitlines()
    lines[1] = lines[0]
    gz.write_text(path, "\n".join(lines) + "\n")
    reseal(copy, manifest_of(copy))
    fails(copy, "data.jsonl.gz:2: id")


def test_calibration_size_0_is_a_test_only_release_that_verifies(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    write_run(tmp_path / "raw", "run-z", make_items(catalog, 6, 30, "run-z"))
    folder = release(options(tmp_path, "1.0.0", ["run-z"], calibration_size=0, target_mix=None))
    assert manifest_of(folder)["counts"]["per_split"]["calibration"]["total"] == 0
    assert verify_release(folder)["rows"] == 30


@pytest.mark.parametrize("value", [1e30, 3_000_000_000, 2**31])
def test_a_number_too_wide_for_parquet_is_named_before_any_write(tmp_path: Path, catalog, value: Any) -> None:  # type: ignore[no-untyped-def]
    """The item schema bounds end_of_ambiguity (10,000), so the schema gate refuses the run, naming the file,
    line and field, before anything is written."""
    write_run(tmp_path / "raw", "run-o", make_items(catalog, 7, 20, "run-o"))
    path = tmp_path / "raw" / "run-o" / "items.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    record["end_of_ambiguity"] = value
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReleaseGateError, match=r"items.jsonl:4: end_of_ambiguity: .* maximum of 10000") as caught:
        release(options(tmp_path, "1.0.0", ["run-o"], calibration_size=2, target_mix=None))
    assert caught.value.exit_code == 1
    assert not (tmp_path / "curated" / "1.0.0").exists()


def test_a_number_the_schema_allows_but_parquet_cannot_store_is_named_before_any_write(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    """A provenance seed has no bound in the item schema; wider than its int64 column it is bad input."""
    write_run(tmp_path / "raw", "run-o", make_items(catalog, 7, 20, "run-o"))
    path = tmp_path / "raw" / "run-o" / "items.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    record["provenance"]["seed"] = 2**70
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"items.jsonl: line 4: provenance.seed: .* does not fit") as caught:
        release(options(tmp_path, "1.0.0", ["run-o"], calibration_size=2, target_mix=None))
    assert caught.value.exit_code == 2
    assert not (tmp_path / "curated" / "1.0.0").exists()


def test_a_missing_manifest_is_named(copy: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (copy / "manifest.json").unlink()
    fails(copy, "manifest.json: missing")
    assert main(["verify", str(copy)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_a_parquet_file_that_is_not_parquet_is_named(copy: Path) -> None:
    (copy / "splits" / "test.parquet").write_bytes(b"not parquet at all")
    reseal(copy, manifest_of(copy))
    fails(copy, "splits/test.parquet: not a readable Parquet file")
