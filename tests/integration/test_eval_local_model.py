"""KnowNo and Binary against a real language model: llama.cpp's llama-server with SmolLM2-135M (the
``local_model`` fixture of tests/integration/conftest.py, from ``make local-llm``) on two hand-made pairs, and
LAP and LofreeCP on three published AmbiK rows (KnowNo, Binary and NoHelp on ten published rows are in
test_eval_local_published.py: a file of their own, so pytest-xdist runs the two long model runs side by side).

A 135M model's numbers are not expected to be good; the run must be correct and complete: real
log-probabilities reach KnowNo's softmax, every task has a result or a recorded unusable reply, the
calibration is taken, the report is written, and a rerun makes no request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.methods.lofreecp import LofreeSettings
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.published_rows import published_rows
from tests.integration.ambik_rows import SHARED
from tests.unit.evaluation.fixtures import ITEMS


@pytest.mark.slow
def test_knowno_and_binary_on_the_local_model(local_model, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.openai_url)
    data = write_items_jsonl(tmp_path / "items.jsonl", ITEMS[:2])
    opts = EvalOptions(
        data=data,
        methods=("knowno", "binary"),
        model=local_model.model,
        out=tmp_path / "eval",
        name="local",
        cache_dir=tmp_path / "cache",
        calibration_size=2,
        llm=LLMConfig(concurrency=1, rpm=0, timeout_seconds=300, max_retries=1),
    )
    results = run_eval(opts)
    folder = tmp_path / "eval" / "local"
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * 2 * 2  # two methods, both halves of two pairs
    for row in rows:
        assert row["error"] or (row["options"] and row["asked"] is not None), row
    knowno = [r for r in rows if r["method"] == "knowno" and not r["error"]]
    for row in knowno:  # a softmax over the letters the model's top tokens hold
        assert sum(row["scores"]) == pytest.approx(1.0, abs=1e-4)
        assert row["details"]["letter_logprobs"] or row["details"].get("no_letter_in_top_logprobs")
    calibration = results["methods"]["knowno"]["calibration"]
    # two calibration tasks: answered or failed (a 135M model may not follow the format); KnowNo calibrates
    # on the answered ones whose options hold a correct one, and the others are counted, never hidden
    assert calibration["rule"] == "knowno" and calibration["tasks"] + calibration["errors"] == 2, calibration
    assert calibration["n"] + calibration["left_out"] == calibration["tasks"], calibration
    if calibration["n"] == 0:  # nothing to calibrate on: every option in every set, and the report says so
        assert calibration["qhat"] == 1.0 and calibration["warnings"], calibration
    assert {r["method"] for r in rows} == {"knowno", "binary"}
    assert (folder / "report.html").exists() and (folder / "results.parquet").exists()
    calls = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()]
    choose = [c for c in calls if c["prompt_id"] == "eval_choose" and not c["error"]]
    assert choose and all(c["logprobs"] for c in choose)  # real log-probabilities from llama-server

    before = len(calls)
    run_eval(opts)
    again = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()][before:]
    assert again and all(c["cached"] for c in again)  # the rerun made no request


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "ambik_dev_400.csv").exists(), reason=f"no AmbiK rows at {SHARED}")
def test_lap_and_lofreecp_on_published_rows(local_model, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The two AmbiK methods test_eval_local_published.py leaves out (for time), on the published test split's
    layout with the local model: every task is answered or its failure recorded, figures rest on the answered
    ones, and the conformal calibration is taken from published calibration rows."""
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.openai_url)
    data = published_rows(SHARED / "ambik_dev_400.csv", tmp_path / "ambik_test_900.csv", 3, "test")
    calibration = published_rows(SHARED / "ambik_calib_100.csv", tmp_path / "ambik_calib_4.csv", 4, "calib")
    opts = EvalOptions(
        data=data,
        calibration=calibration,
        methods=("lap", "lofreecp"),
        model=local_model.model,
        out=tmp_path / "eval",
        name="local-lap",
        cache_dir=tmp_path / "cache",
        settings={"lofreecp": LofreeSettings(samples=3)},
        llm=LLMConfig(concurrency=2, rpm=0, timeout_seconds=300, max_retries=1),
    )
    document = run_eval(opts)
    rows = [json.loads(line) for line in (tmp_path / "eval" / "local-lap" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * 6 and {r["method"] for r in rows} == {"lap", "lofreecp"}
    for method in ("lap", "lofreecp"):
        r = document["methods"][method]
        assert r["answered"] + r["errors"] == 6, (method, r["answered"], r["errors"])
        assert r["calibration"] and r["calibration"]["tasks"] == 4, r["calibration"]
        mine = [row for row in rows if row["method"] == method and not row["error"]]
        assert r["answered"] == len(mine)
