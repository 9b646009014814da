"""The streamed ``validate`` (two passes over batches) reports what validating the whole list reports:
the same report.json, issues.csv and report.html, whatever the batch size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.storage import read_items, write_items_jsonl, write_items_parquet
from ambiforge.validation import RuleContext, validate_items
from ambiforge.validation.expectations import run_expectations
from ambiforge.validation.report import build_report, write_report
from ambiforge.validation.stream import item_batches, validate_stream

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "release" / "run-a" / "items.jsonl"
MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}


@pytest.fixture(scope="module")
def items_file(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """Fixture items with every kind of finding: an id twice, a task twice, a reworded task, a plan too
    long, a question missing its mark."""
    items = read_items(FIXTURE)
    items += [
        items[0],  # duplicate_id and duplicate
        items[1].model_copy(update={"id": "copy-1"}),  # duplicate
        items[2].model_copy(
            update={"id": "reworded-2", "unambiguous_direct": "Please, " + items[2].unambiguous_direct}
        ),
        items[3].model_copy(update={"id": "long-plan", "plan_for_clear_task": [f"step {k}" for k in range(40)]}),
        items[4].model_copy(update={"id": "no-mark", "question": "which one"}),
    ]
    folder = tmp_path_factory.mktemp("stream")
    write_items_jsonl(folder / "items.jsonl", items)
    write_items_parquet(folder / "items.parquet", items)
    return folder / "items.jsonl"


def whole_list_report(path: Path, ctx: RuleContext, out: Path) -> dict[str, bytes]:
    """What ``validate`` did before it streamed."""
    judged = validate_items(read_items(path), ctx)
    expectations = run_expectations(judged, target_mix=MIX, tolerance=0.03, max_plan_steps=13)
    report = build_report(judged, expectations.to_dict(), str(path))
    write_report(report, judged, out, target_mix=MIX)
    return files(out)


def files(out: Path) -> dict[str, bytes]:
    """The report's files, the folder's own path (the summary names it) replaced by a placeholder."""
    return {p.name: p.read_bytes().replace(str(out).encode(), b"OUT") for p in out.iterdir()}


def streamed_report(path: Path, ctx: RuleContext, out: Path, batch: int) -> dict[str, bytes]:
    done = validate_stream(item_batches(path, batch), ctx, str(path), target_mix=MIX, tolerance=0.03, max_plan_steps=13)
    write_report(done.report, done.flagged, out, target_mix=MIX, diversity=done.diversity, plots=done.plots)  # type: ignore[arg-type]
    return files(out)


@pytest.fixture(scope="module")
def whole(items_file, catalog, tmp_path_factory) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    return whole_list_report(items_file, RuleContext(catalog=catalog), tmp_path_factory.mktemp("whole"))


@pytest.mark.parametrize("batch", [1, 3, 7, 2_000])  # one, odd, an exact divisor of 35 items, one batch
def test_streamed_report_is_the_whole_list_report(items_file, whole, batch, tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    want = whole
    got = streamed_report(items_file, RuleContext(catalog=catalog), tmp_path / "streamed", batch)
    assert set(got) == {"report.json", "issues.csv", "report.html"}
    report = json.loads(got["report.json"])
    assert {r for r, e in report["rules"].items() if e["count"]} >= {"duplicate_id", "duplicate", "near_duplicate"}
    assert report["summary"]["with_errors"] > 0
    assert got == want


def test_parquet_streams_like_jsonl(items_file, tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    ctx = RuleContext(catalog=catalog)
    a = streamed_report(items_file, ctx, tmp_path / "jsonl", 4)
    b = streamed_report(items_file.with_suffix(".parquet"), ctx, tmp_path / "parquet", 4)
    a_report, b_report = json.loads(a.pop("report.json")), json.loads(b.pop("report.json"))
    assert a_report.pop("source") != b_report.pop("source")
    assert a_report == b_report and a["issues.csv"] == b["issues.csv"]


def test_bad_record_names_file_and_record(tmp_path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.errors import InputError

    path = tmp_path / "items.jsonl"
    path.write_text(FIXTURE.read_text().splitlines()[0] + "\n" + '{"id": "x"}\n')
    with pytest.raises(InputError) as err:
        validate_stream(item_batches(path, 1), RuleContext(catalog=catalog), str(path))
    assert "record 2 (id 'x')" in str(err.value) and str(path) in str(err.value)


@pytest.mark.parametrize("batch", [1, 7])
def test_rule_failures_by_position_give_the_whole_lists_verdicts(items_file, batch, catalog) -> None:  # type: ignore[no-untyped-def]
    """A build's first pass keeps only the failures (by position) and judges each item as it reads it
    again: the same verdicts as judging the whole list."""
    from ambiforge.validation.stream import judged, rule_failures

    ctx = RuleContext(catalog=catalog)
    items = read_items(items_file)
    found = rule_failures(iter([items[k : k + batch] for k in range(0, len(items), batch)]), ctx)
    assert found and len(found) < len(items)  # only the flagged items are kept
    assert [judged(item, found.get(pos, [])) for pos, item in enumerate(items)] == validate_items(items, ctx)


def test_report_json_streams_its_rows_into_the_bytes_of_the_whole_report(items_file, catalog, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The report's rows wait in a file (:class:`Rows`, only the flagged ones held) and report.json is
    written with them read back one at a time: the bytes ``json.dumps`` of the whole report gives."""
    from ambiforge.atomic import write_json_atomic
    from ambiforge.validation.report import ReportBuilder, Rows, write_report_json

    judged = validate_items(read_items(items_file), RuleContext(catalog=catalog))
    for items in (judged, []):
        builder = ReportBuilder()
        for item in items:
            builder.add(item)
        report = builder.result({"success": True}, "source")
        rows = report["items"]
        assert isinstance(rows, Rows) and len(rows) == len(items)
        assert [n for n, _ in rows.flagged] == [n for n, item in enumerate(items) if item.validation.failed]  # type: ignore[union-attr]
        streamed = write_report_json(tmp_path / "streamed.json", report).read_bytes()
        whole = write_json_atomic(tmp_path / "whole.json", {**report, "items": list(rows)}).read_bytes()
        assert streamed == whole and json.loads(streamed)["items"] == list(rows)
