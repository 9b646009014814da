"""Release gates that speak plainly, and what review decided is what gets released."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ambiforge import ambiguity
from ambiforge.models import Item, Review
from ambiforge.releases.gates import expectation_message
from ambiforge.releases.manifest import agreement_summary
from ambiforge.releases.manifest_schema import SCHEMA_PATH, manifest_json_schema, render_manifest_schema
from ambiforge.releases.writer import ReleaseGateError, release
from tests.unit.release import gz
from tests.unit.release.test_release import MIX, make_items, options, tree_digest, write_run

ACCEPTED = Review(status="unanimous", verdict="accept")


def reviewed(items: list[Item], review: Review | None) -> list[Item]:
    return [i.model_copy(update={"review": review}) for i in items]


def test_ten_accepted_items_release_with_a_capped_calibration_split(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    write_run(tmp_path / "raw", "r", reviewed(make_items(catalog, 5, 10, "r"), ACCEPTED))
    folder = release(options(tmp_path, "1.0.0", ["r"], allow_unreviewed=False, calibration_size=100, target_mix=None))
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["splits"]["calibration_size"] == 1 and manifest["splits"]["calibration_size_requested"] == 100
    assert "capped to 1" in manifest["splits"]["note"] and "capped to 1" in (folder / "README.md").read_text()
    assert {n: c["total"] for n, c in manifest["counts"]["per_split"].items()} == {"calibration": 1, "test": 9}


def test_no_accepted_items_is_one_line_before_any_expectation(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    items = make_items(catalog, 5, 6, "r")
    rejected = Review(status="majority", verdict="reject")
    queued = Review(status="majority", verdict="accept", queued_for_adjudication=True)
    write_run(tmp_path / "raw", "r", reviewed(items[:3], rejected) + reviewed(items[3:], queued))
    with pytest.raises(ReleaseGateError) as err:
        release(options(tmp_path, "1.0.0", ["r"], allow_unreviewed=True))
    message = str(err.value)
    assert "\n" not in message and "expect_" not in message
    assert "no accepted items in run(s) r (3 waiting in the adjudication queue, 3 rejected in review)" in message
    assert not (tmp_path / "curated").exists() or not any((tmp_path / "curated").iterdir())


def test_mix_outside_tolerance_says_the_shares(tmp_path, catalog, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import tempfile

    items = [i for i in make_items(catalog, 5, 40, "r") if i.ambiguity_type != "safety"]
    write_run(tmp_path / "raw", "r", items)
    (tmp_path / "curated").mkdir()
    before = tree_digest(tmp_path / "curated")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # where the files written during the scan wait
    with pytest.raises(ReleaseGateError) as err:
        release(options(tmp_path, "1.0.0", ["r"], calibration_size=4))
    message = str(err.value)
    assert "\n" not in message and "safety 0.0% vs target 13.0% +/- 5%" in message and "--mix-tolerance" in message
    assert tree_digest(tmp_path / "curated") == before
    assert not list((tmp_path / "tmp").glob("ambiforge-release-*"))  # the staged data files went with the refusal
    release(options(tmp_path, "1.0.0", ["r"], calibration_size=4, mix_tolerance=0.2))  # a wider tolerance passes


def test_expectation_message_reads_like_the_issue() -> None:
    result = {"expectation": "expect_column_mean_to_be_between", "column": "is_preferences", "observed": 0.5238}
    assert expectation_message(result | {"kwargs": {}}, MIX, 0.05) == "preferences 52.4% vs target 47.2% +/- 5%"


def test_rejected_and_queued_never_released_unreviewed_listed(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    items = make_items(catalog, 6, 40, "r")
    rows = (
        reviewed(items[:20], ACCEPTED)
        + reviewed(items[20:25], Review(status="unanimous", verdict="reject"))
        + reviewed(items[25:28], Review(status="split"))
        + reviewed(items[28:30], Review(status="majority", verdict="accept_with_fixes", queued_for_adjudication=True))
        + reviewed(items[30:32], Review(status="pending"))
        + items[32:]
    )
    write_run(tmp_path / "raw", "r", rows)
    folder = release(options(tmp_path, "1.0.0", ["r"], calibration_size=4, target_mix=None))
    released = {r["id"] for r in gz.rows(folder / "data.jsonl.gz")}
    assert released == {i.id for i in items[:20] + items[30:]}
    manifest = json.loads((folder / "manifest.json").read_text())
    unreviewed = sorted(i.id for i in items[30:])
    assert manifest["review"]["released_unreviewed"] == unreviewed
    assert manifest["review"]["status"] == {"accepted": 20, "rejected": 5, "queued": 5, "pending": 2, "unreviewed": 8}
    card = (folder / "README.md").read_text()
    assert "Not human-reviewed: 10 of 30 items" in card and all(f"`{i}`" in card for i in unreviewed)
    log = (folder / "CHANGELOG.md").read_text()
    assert f"- `{unreviewed[0]}` (not reviewed)" in log


def test_manifest_schema_is_generated_from_the_registry(tmp_path: Path) -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render_manifest_schema()  # `ambiforge schema --write`
    folder = tmp_path / "wrong_tool"
    shutil.copytree(ambiguity.get("safety").folder, folder)
    (folder / "definition.yaml").write_text(
        (folder / "definition.yaml").read_text().replace("name: safety", "name: wrong_tool")
    )
    ambiguity.register_folder(folder)
    try:
        assert "wrong_tool" in manifest_json_schema()["$defs"]["per_type"]["required"]
    finally:
        ambiguity.unregister("wrong_tool")


def test_agreement_summary_keeps_only_pseudonyms(tmp_path: Path) -> None:
    (tmp_path / "r").mkdir()
    stats = {
        "percent_agreement": 90.0,
        "cohen_kappa_pairwise": {"ann1@x.org|annotator-2": 0.5, "annotator-1|annotator-2": 0.4},
    }
    agreement = {"items": 3, "verdict": stats, "annotators": {"ann1@x.org": {}, "annotator-2": {"items": 3}}}
    (tmp_path / "r" / "agreement.json").write_text(json.dumps(agreement))
    text = json.dumps(agreement_summary(tmp_path, ["r"]))
    assert "ann1@x.org" not in text and "annotator-1|annotator-2" in text and "annotator-2" in text


def test_a_review_with_real_names_is_refused_without_repeating_them(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.models.item import Annotation

    named = Review(
        status="unanimous", verdict="accept", annotations=[Annotation(annotator="ann1@x.org", verdict="accept")]
    )
    write_run(tmp_path / "raw", "r", reviewed(make_items(catalog, 5, 10, "r"), named))
    with pytest.raises(ReleaseGateError, match="not a pseudonym") as err:
        release(options(tmp_path, "1.0.0", ["r"], allow_unreviewed=False, target_mix=None))
    assert "ann1@x.org" not in str(err.value)
