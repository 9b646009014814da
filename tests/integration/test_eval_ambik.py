"""``ambiforge eval`` on the published AmbiK calibration split (read from ../shared, never copied), through
the Prefect flow, the LLM client and the scripted server with deterministic log-probabilities: every
method, the report, the numbers, and a rerun served from the call cache."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ambiforge.cli.main import main
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder
from tests.conftest import REPO

pytestmark = pytest.mark.usefixtures("prefect_harness")

# ../shared beside the checkout (as CI lays it out); a git worktree one level deeper finds it one level up.
AMBIK = next(
    (
        p
        for p in (R / "shared" / "data" / "ambik_calib_100.csv" for R in (REPO.parent, REPO.parent.parent))
        if p.exists()
    ),
    REPO.parent / "shared" / "data" / "ambik_calib_100.csv",
)
METHODS = "knowno,lap,lofreecp,binary,nohelp"

# The scripted model (ambiforge/testing/scripted_eval.py) on AmbiK's 100 calibration rows, both halves each.
# KnowNo/LAP: 52 of the 100 calibration tasks get no correct option among the four; KnowNo's rule (the
# default) calibrates on the other 48 and says so (with a warning: 48 % is below 1 - epsilon). The scripted
# letter scores are flat (A from 0.1 to 2.1 nats, B-D fixed), so qhat is still high and most sets hold two or
# more options: HR 1, CHR 1 on the type whose good agent asks (preferences) and 0 elsewhere. NoHelp never asks:
# HR 0, ICR 0 (the paper's definition), CHR 0 on preferences and 1 elsewhere, AmbDif 0. Binary and LofreeCP
# follow the scripted certainty labels and samples; their numbers were computed once and are pinned here.
EXPECTED = {
    "knowno": {"ambdif": 0.23, "HR": 1.0, "CHR": 0.235, "ICR": 0.4179, "SSC": 0.0174, "set_size": 2.315},
    "lap": {"ambdif": 0.11, "HR": 1.0, "CHR": 0.235, "ICR": 0.4058, "SSC": 0.0554, "set_size": 3.83},
    "lofreecp": {"ambdif": 0.13, "HR": 0.785, "CHR": 0.35, "ICR": 0.3463, "SSC": 0.0128, "set_size": 1.785},
    "binary": {"ambdif": 0.21, "HR": 0.405, "CHR": 0.53, "ICR": 0.3621, "SSC": 0.0078, "set_size": 1.0},
    "nohelp": {"ambdif": 0.0, "HR": 0.0, "CHR": 0.765, "ICR": 0.0, "SSC": None, "set_size": 1.0},
}


@pytest.mark.slow
@pytest.mark.skipif(not AMBIK.exists(), reason=f"the published AmbiK calibration split is not at {AMBIK}")
def test_eval_on_the_ambik_calibration_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "ambiforge.toml"
    config.write_text(f'[paths]\nraw = "{tmp_path / "raw"}"\n\n[llm]\nrpm = 0\nconcurrency = 8\n', encoding="utf-8")
    args = ["eval", "--data", str(AMBIK), "--method", METHODS, "--model", "scripted", "--out", str(tmp_path / "eval")]
    args += ["--name", "ambik", "--config", str(config)]
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        assert main(args) == 0
        asked = len(server.requests)
        assert main(args) == 0
        assert len(server.requests) == asked  # the rerun is served from the call cache
    folder = tmp_path / "eval" / "ambik"
    results = json.loads((folder / "results.json").read_text())
    assert results["pairs"] == 100 and results["calibration_tasks"] == 100
    assert results["calibration_ambiguous"] == 50  # AmbiK's take_amb column
    for method, expected in EXPECTED.items():
        got = results["methods"][method]
        overall = got["by_group"]["all"]
        assert {"ambdif": got["ambdif"]["all"], **{k: overall[k] for k in expected if k != "ambdif"}} == expected
        assert got["errors"] == 0
    knowno, nohelp = results["methods"]["knowno"]["by_group"], results["methods"]["nohelp"]["by_group"]
    assert knowno["preferences"]["CHR"] == 1.0 and knowno["safety"]["CHR"] == 0.0
    assert nohelp["preferences"]["CHR"] == 0.0 and nohelp["unambiguous"]["CHR"] == 1.0
    calibration = results["methods"]["knowno"]["calibration"]
    assert calibration["rule"] == "knowno" and calibration["no_correct_option"] == 52 and calibration["n"] == 48
    assert calibration["qhat"] == pytest.approx(0.847469, abs=1e-6)
    assert any("only 48 of 100 calibration tasks" in w for w in calibration["warnings"])
    assert results["methods"]["knowno"]["test_coverage"]["with_correct_option"] == 0.8542
    assert pq.read_table(folder / "results.parquet").num_rows == 5 * 200
    html = (folder / "report.html").read_text()
    assert "AmbDif" in html and html.count("data:image/png;base64") == 3  # set size, ICR, HR vs CHR
    assert "Help rate vs correct help rate per method" in html and "laid out like AmbiK" in html
    assert "Conformal calibration" in html and "without a correct option" in html
    assert "ambik_calib_100" not in {p.name for p in REPO.rglob("*.csv")}  # read in place, never copied
