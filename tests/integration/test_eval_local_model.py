"""LAP and LofreeCP against a real language model: llama.cpp's llama-server with SmolLM2-135M (the
``local_model`` fixture of tests/integration/conftest.py, from ``make local-llm``) on two published AmbiK rows
(KnowNo, Binary and NoHelp on published rows are in test_eval_local_published.py: a file of its own, so
pytest-xdist runs the two long model runs side by side).

A 135M model's numbers are not expected to be good; the run must be correct and complete: every task has a
result or a recorded unusable reply, and the conformal calibration is taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.methods.lofreecp import LofreeSettings
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.testing.published_rows import published_rows
from tests.integration.ambik_rows import SHARED

ROWS, CALIBRATION_ROWS = 2, 3


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "ambik_dev_400.csv").exists(), reason=f"no AmbiK rows at {SHARED}")
def test_lap_and_lofreecp_on_published_rows(local_model, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The two AmbiK methods test_eval_local_published.py leaves out (for time), on the published test split's
    layout with the local model: every task is answered or its failure recorded, figures rest on the answered
    ones, and the conformal calibration is taken from published calibration rows."""
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.openai_url)
    data = published_rows(SHARED / "ambik_dev_400.csv", tmp_path / "ambik_test_900.csv", ROWS, "test")
    calib = tmp_path / f"ambik_calib_{CALIBRATION_ROWS}.csv"
    calibration = published_rows(SHARED / "ambik_calib_100.csv", calib, CALIBRATION_ROWS, "calib")
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
    assert len(rows) == 2 * 2 * ROWS and {r["method"] for r in rows} == {"lap", "lofreecp"}
    for method in ("lap", "lofreecp"):
        r = document["methods"][method]
        assert r["answered"] + r["errors"] == 2 * ROWS, (method, r["answered"], r["errors"])
        assert r["calibration"] and r["calibration"]["tasks"] == CALIBRATION_ROWS, r["calibration"]
        mine = [row for row in rows if row["method"] == method and not row["error"]]
        assert r["answered"] == len(mine)
