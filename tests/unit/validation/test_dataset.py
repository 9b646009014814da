"""Dataset expectations (Great Expectations), the validate command on a defective AmbiK CSV, AmbiK I/O."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from ambiforge.ambik import read_ambik_csv, write_ambik_csv
from ambiforge.cli.main import main
from ambiforge.errors import InputError
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.validation.expectations import run_expectations
from tests.conftest import REPO

DEFECTS = REPO / "tests" / "data" / "ambik_defects.csv"


@pytest.fixture(scope="module")
def items(catalog):  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 8, "gx")
    types = ["preferences"] * 47 + ["common_sense_knowledge"] * 40 + ["safety"] * 13
    return [gen.generate(i, t)[0] for i, t in enumerate(types)]


def failed(result) -> set[tuple[str, str | None]]:  # type: ignore[no-untyped-def]
    return {(r["expectation"], r["column"]) for r in result.results if not r["success"]}


def test_expectations_pass_on_a_good_table(items, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    mix = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}
    result = run_expectations(
        items,
        target_mix=mix,
        splits={"calibration": [i.id for i in items[:10]], "test": [i.id for i in items[10:]]},
    )
    assert result.success, [r for r in result.results if not r["success"]]
    result.save(tmp_path)
    assert json.loads((tmp_path / "expectations.json").read_text())["success"] is True
    assert (tmp_path / "data_docs" / "index.html").exists()
    assert list((tmp_path / "data_docs" / "validations").rglob("*.html"))


def test_expectations_fail_on_duplicate_id_and_unknown_type(items) -> None:  # type: ignore[no-untyped-def]
    dup = items[1].model_copy(update={"id": items[0].id})
    odd = items[2].model_copy(update={"ambiguity_type": "irony"}, deep=True)  # bypasses the model on purpose
    result = run_expectations([items[0], dup, odd, *items[3:]])
    assert not result.success
    assert ("expect_column_values_to_be_unique", "id") in failed(result)
    assert ("expect_column_values_to_be_in_set", "ambiguity_type") in failed(result)


def test_expectations_fail_on_mix_and_overlapping_splits(items) -> None:  # type: ignore[no-untyped-def]
    result = run_expectations(items, target_mix={"preferences": 1.0}, splits={"a": [items[0].id], "b": [items[0].id]})
    assert ("expect_column_mean_to_be_between", "is_preferences") in failed(result)
    assert ("expect_column_values_to_be_unique", "id") in {
        (r["expectation"], r["column"]) for r in result.results if r["table"] == "splits" and not r["success"]
    }


#: The thresholds this fixture's defects were written for: 20 plan steps an error, one check per defect.
STRICT = """
[validation]
max_plan_steps = 13
long_plan_steps = 30
severity = { variants_shortlist = "off" }
"""


def test_validate_reports_each_defect_on_its_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "strict.toml"
    config.write_text(STRICT)
    assert main(["validate", str(DEFECTS), "--out", str(tmp_path), "--no-mix", "--config", str(config)]) == 1
    report = json.loads((tmp_path / "report.json").read_text())
    found = {row["id"]: sorted({f["rule"] for f in row["failed"]}) for row in report["items"]}
    assert found == {
        "1": [],
        "2": [],
        "3": [],
        "4": ["shortlist"],  # plastic mug is not in the scene
        "5": ["plan"],  # 20 steps
        "6": ["question"],  # no question mark
        "7": ["duplicate"],  # same task as row 1
        "8": ["plan"],  # end_of_ambiguity 5 past a 3-step plan
    }
    messages = {row["id"]: row["failed"][0]["message"] for row in report["items"] if row["failed"]}
    assert "plastic mug" in messages["4"] and "20 steps" in messages["5"] and "past the plan" in messages["8"]
    assert report["rules"]["plan"]["count"] == 2
    html = (tmp_path / "report.html").read_text()
    assert "Worst items" in html and "plastic mug" in html
    assert html.count('<figure class="chart">') == 4 and "Steps in the unambiguous plan" in html


def test_validate_exit_codes(tmp_path: Path, items, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.storage import write_items_jsonl

    good = tmp_path / "good.jsonl"
    write_items_jsonl(good, items)
    assert main(["validate", str(good), "--out", str(tmp_path / "r")]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text().splitlines()[0] + "\n{oops\n")
    capsys.readouterr()
    assert main(["validate", str(bad)]) == 2
    assert (
        capsys.readouterr().err.strip() == f"ambiforge: error: {bad}: line 2: not valid JSON: "
        "Expecting property name enclosed in double quotes"
    )


def test_ambik_import_export_gives_the_same_cells(tmp_path: Path) -> None:
    assert main(["import-ambik", str(DEFECTS), "--out", str(tmp_path / "items.jsonl")]) == 0
    assert main(["export-ambik", str(tmp_path / "items.jsonl"), "--out", str(tmp_path / "back.csv")]) == 0
    read = lambda p: list(csv.reader(p.open(encoding="utf-8", newline="")))  # noqa: E731
    assert read(tmp_path / "back.csv") == read(DEFECTS)
    items = read_ambik_csv(DEFECTS)
    assert items[1].plan_for_clear_task[0] == "Pick up the ceramic bowl."
    assert items[1].end_of_ambiguity == 0 and items[1].extra["take_amb"] == "0"
    assert items[1].user_intent == ["ceramic", "-metal"]
    assert items[0].environment[0].group == "mugs"  # catalog objects keep their attributes


def test_corrected_fields_are_written_canonically(tmp_path: Path) -> None:
    items = read_ambik_csv(DEFECTS)
    items[1] = items[1].model_copy(update={"plan_for_clear_task": ["Pick up the ceramic bowl.", "Heat it."]})
    write_ambik_csv(items, tmp_path / "c.csv")
    rows = list(csv.DictReader((tmp_path / "c.csv").open(encoding="utf-8", newline="")))
    assert rows[1]["plan_for_clear_task"] == "1. Pick up the ceramic bowl.\n2. Heat it."
    assert rows[1]["plan_for_amb_task"].endswith("\r\n")  # unchanged cell kept as it was


def test_generated_items_export_and_read_back(items, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    write_ambik_csv(items[:20], tmp_path / "gen.csv")
    back = read_ambik_csv(tmp_path / "gen.csv")
    for a, b in zip(items[:20], back, strict=True):
        assert (a.id, a.unambiguous_direct, a.plan_for_amb_task, a.user_intent, a.end_of_ambiguity) == (
            b.id,
            b.unambiguous_direct,
            b.plan_for_amb_task,
            b.user_intent,
            b.end_of_ambiguity,
        )
        assert b.unambiguous_indirect == a.unambiguous_indirect


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ("id,environment_short\n1,mug\n", "header: missing AmbiK column(s)"),
        (DEFECTS.read_text().replace(",0.0,", ",two,", 1), "row 2 (id '2'): end_of_ambiguity"),
        (DEFECTS.read_text().replace(",safety,", ",irony,", 1), "row 2 (id '2'): ambiguity_type 'irony'"),
    ],
)
def test_bad_csv_names_file_and_row(tmp_path: Path, content: str, where: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(InputError, match=re.escape(f"bad.csv: {where}")):
        read_ambik_csv(path)
