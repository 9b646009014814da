"""The card states what happened to this release: review from its own counts, the sampler ranges of its runs,
and a load snippet whose cache belongs to this release alone."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from ambiforge.models import Review
from ambiforge.releases.writer import release
from tests.unit.release import gz
from tests.unit.release.test_release import make_items, options, write_run


def card_of(folder: Path) -> str:
    return (folder / "README.md").read_text(encoding="utf-8").split("\n## Integrity\n")[0]


def test_an_unreviewed_release_says_so_and_claims_no_annotators(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    write_run(tmp_path / "raw", "r", make_items(catalog, 2, 30, "r"))
    sampler = {"food_groups": [1, 2], "item_groups": [3, 4], "per_group": [2, 6]}
    (tmp_path / "raw" / "r" / "options.json").write_text(json.dumps({"options": {"sampler": sampler}}))
    card = card_of(release(options(tmp_path, "1.0.0", ["r"], calibration_size=5, target_mix=None)))
    assert "**Not reviewed.** None of the 30 items of this release was reviewed by a person" in card
    assert "No item was reviewed by a person." in card
    assert "annotators reviewed" not in card and "accepted in review" not in card
    assert "Annotators appear under pseudonyms" not in card
    # the run's [sampler], not the defaults
    assert "in run r with 1 to 2 food groups and 3 to 4 kitchen-item groups, 2 to 6 objects each" in card
    assert "the embedded offline template generator (no language model)" in card


def test_a_reviewed_release_states_its_counts(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    items = make_items(catalog, 4, 24, "rev")
    reviewed = [
        i.model_copy(update={"review": Review(status="unanimous", verdict="accept")})
        if n % 3
        else i.model_copy(update={"review": Review(status="majority", verdict="reject")})
        for n, i in enumerate(items[:20])
    ] + items[20:]
    write_run(tmp_path / "raw", "rev", reviewed)
    agreement = {
        "items": 20,
        "annotations_per_item": 3,
        "status_counts": {"unanimous": 11, "majority": 7, "split": 2},
        "adjudicated": 2,
        "queued": 0,
        "verdict": {"items": 20, "percent_agreement": 80.0},
        "ambiguity_type": {"items": 20},
    }
    (tmp_path / "annotation" / "rev").mkdir(parents=True)
    (tmp_path / "annotation" / "rev" / "agreement.json").write_text(json.dumps(agreement))
    folder = release(options(tmp_path, "1.0.0", ["rev"], calibration_size=3, target_mix=None))
    card = card_of(folder)
    accepted = sum(1 for n in range(20) if n % 3)
    assert f"**Not human-reviewed: 4 of {accepted + 4} items.**" in card
    assert f"the other\n> {accepted} were accepted in review" in card
    assert (
        "Run `rev`: 20 items reviewed, 3 annotations each; 11 decided unanimously, 7 by majority, 2 split; "
        "2 decided by the maintainer" in card
    )
    assert f"{accepted} of {accepted + 4} items were accepted in review in Label Studio" in card
    assert "not recorded (no `options.json` in the run folder)" in card  # this run recorded no sampler


def snippet_of(card: str) -> str:
    """The Python block of the card that loads the release with ``datasets``."""
    block = re.search(r"```python\n(.*?)```", card, re.DOTALL)
    assert block is not None
    lines = block.group(1).split("\n")
    return "\n".join(lines[: next(i for i, x in enumerate(lines) if x.startswith("ds["))])


def test_the_cards_snippet_loads_each_release_from_the_same_path(tmp_path, catalog, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Two releases copied in turn to the same relative path, one shared ``datasets`` cache: each load gets
    its own rows."""
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    write_run(tmp_path / "raw", "a", make_items(catalog, 1, 40, "a"))
    write_run(tmp_path / "raw", "b", make_items(catalog, 2, 25, "b"))
    one = release(options(tmp_path, "1.0.0", ["a"], calibration_size=10, target_mix=None))
    two = release(options(tmp_path, "1.1.0", ["b"], calibration_size=5, target_mix=None))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for folder, sizes in ((one, (10, 30)), (two, (5, 20)), (one, (10, 30))):
        if (work / "release").exists():
            shutil.rmtree(work / "release")
        shutil.copytree(folder, work / "release")
        code = snippet_of(card_of(folder)).replace('"path/to/this/folder"', '"release"')
        scope: dict[str, object] = {}
        exec(compile(code, "card-snippet", "exec"), scope)  # noqa: S102 - the card's own snippet is the test
        ds = scope["ds"]
        assert (ds["calibration"].num_rows, ds["test"].num_rows) == sizes  # type: ignore[index]
        ids = {r["id"] for r in gz.rows(folder / "data.jsonl.gz")}
        assert {*ds["calibration"]["id"], *ds["test"]["id"]} == ids  # type: ignore[index]


@pytest.mark.parametrize("field", ["sampler"])
def test_the_manifest_records_the_runs_sampler(tmp_path, catalog, field) -> None:  # type: ignore[no-untyped-def]
    write_run(tmp_path / "raw", "r", make_items(catalog, 2, 12, "r"))
    folder = release(options(tmp_path, "1.0.0", ["r"], calibration_size=2, target_mix=None))
    assert json.loads((folder / "manifest.json").read_text())[field] == {"r": None}
