"""Which tasks calibrate and which are evaluated (AmbiK's take_amb, a release's splits, the first rows),
and the CLI's one-line errors."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ambiforge.ambik.csv_io import write_ambik_csv
from ambiforge.cli.main import main
from ambiforge.errors import InputError
from ambiforge.evaluation.data import load_dataset
from ambiforge.storage import write_items_jsonl
from tests.unit.evaluation.fixtures import ITEMS


def test_ambik_calibration_file_take_amb_picks_the_half(tmp_path: Path) -> None:
    items = [i.model_copy(update={"extra": {"take_amb": v}}) for i, v in zip(ITEMS, "1001", strict=True)]
    path = write_ambik_csv(items, tmp_path / "ambik_calib.csv")
    ds = load_dataset(path)
    assert [(t.item_id, t.ambiguous) for t in ds.calibration] == [
        ("P1", True),
        ("P2", False),
        ("C1", False),
        ("S1", True),
    ]
    assert len(ds.items) == 4 and ds.evaluated_on.startswith("calibration split")


def test_the_calibration_file_can_be_another_file(tmp_path: Path) -> None:
    items = [i.model_copy(update={"extra": {"take_amb": "1"}}) for i in ITEMS[:2]]
    calibration = write_ambik_csv(items, tmp_path / "calib.csv")
    data = write_items_jsonl(tmp_path / "test.jsonl", ITEMS[2:])
    ds = load_dataset(data, calibration)
    assert [i.id for i in ds.items] == ["C1", "S1"]
    assert [(t.item_id, t.ambiguous) for t in ds.calibration] == [("P1", True), ("P2", True)]


def test_first_rows_calibrate_alternating_halves_within_each_type(tmp_path: Path) -> None:
    data = write_items_jsonl(tmp_path / "items.jsonl", ITEMS)
    ds = load_dataset(data, calibration_size=3)
    # P1 and P2 are both preferences: ambiguous then clear; C1 is the first of its type: ambiguous
    assert [(t.item_id, t.ambiguous) for t in ds.calibration] == [("P1", True), ("P2", False), ("C1", True)]
    assert [i.id for i in ds.items] == ["S1"] and ds.evaluated_on == "test split"


def test_a_release_folder_uses_its_calibration_split(tmp_path: Path) -> None:
    release = tmp_path / "1.0.0"
    write_items_jsonl(release / "data.jsonl", ITEMS)
    (release / "splits").mkdir()
    with (release / "splits" / "calibration.csv").open("w", newline="") as fh:
        csv.writer(fh).writerows([["id"], ["C1"], ["S1"]])
    ds = load_dataset(release)
    assert {t.item_id for t in ds.calibration} == {"C1", "S1"}
    assert [i.id for i in ds.items] == ["P1", "P2"]


def test_bad_take_amb_names_file_and_row(tmp_path: Path) -> None:
    items = [ITEMS[0].model_copy(update={"extra": {"take_amb": "maybe"}})]
    path = write_ambik_csv(items, tmp_path / "bad.csv")
    with pytest.raises(InputError, match=r"bad\.csv: row 1 \(id 'P1'\): take_amb"):
        load_dataset(path)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--method", "knowno,maybe"], "unknown method(s) maybe"),
        (["--persona", "careful"], "--persona: 1 persona(s) for 3 agents"),
        (["--agents", "a,b", "--persona", "x", "--persona", "y", "--persona", "z"], "--persona: 3 persona(s) for 2"),
        (["--persona", "a", "--persona", " ", "--persona", "c"], "--persona: persona 2 is empty"),
        (["--persona", "@no-such-persona.txt"], "no-such-persona.txt: not found (--persona @FILE)"),
        (["--epsilon", "1.5"], "--epsilon must be between 0 and 1"),
        (["--method", "debate", "--rounds", "21"], "--rounds must be at most 20, got 21"),
        (["--method", "debate", "--rounds", "0"], "--rounds must be at least 1, got 0"),
    ],
)
def test_cli_errors_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    data = write_items_jsonl(tmp_path / "items.jsonl", ITEMS)
    code = main(["eval", "--data", str(data), "--model", "m", "--out", str(tmp_path / "eval"), *args])
    err = capsys.readouterr().err.strip()
    assert code == 2 and needle in err and len(err.splitlines()) == 1


def test_cli_missing_data_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--data", str(tmp_path / "nope.csv"), "--model", "m"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"ambiforge: error: {tmp_path / 'nope.csv'}: not found"
