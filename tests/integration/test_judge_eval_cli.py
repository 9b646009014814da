"""``ambiforge eval --method debate,dialogue`` from the command line (Prefect flow, LLM client, openai SDK,
scripted server) on the published AmbiK calibration split (read in place) and on a release folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder
from tests.integration.test_eval_ambik import AMBIK
from tests.unit.detectors.fixtures import PAIRS

pytestmark = pytest.mark.usefixtures("prefect_harness")


def run(data: Path, tmp: Path, name: str, *extra: str) -> dict:  # type: ignore[type-arg]
    config = tmp / "ambiforge.toml"
    config.write_text(f'[paths]\nraw = "{tmp / "raw"}"\n\n[llm]\nrpm = 0\nconcurrency = 8\n', encoding="utf-8")
    args = ["eval", "--data", str(data), "--method", "debate,dialogue", "--model", "a", "--agents", "a,b,c"]
    args += ["--rounds", "2", "--max-questions", "1", "--out", str(tmp / "eval"), "--name", name]
    args += ["--config", str(config), *extra]
    assert main(args) == 0
    return json.loads((tmp / "eval" / name / "results.json").read_text())


@pytest.mark.skipif(not AMBIK.exists(), reason=f"the published AmbiK calibration split is not at {AMBIK}")
def test_debate_and_dialogue_on_ambik_and_on_a_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = tmp_path / "curated" / "1.0.0"
    write_items_jsonl(release / "data.jsonl", list(PAIRS.values()))
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        ambik = run(AMBIK, tmp_path, "ambik", "--limit", "6")
        on_release = run(release, tmp_path, "release", "--calibration-size", "3")
        assert {r.model for r in server.requests} == {"a", "b", "c"}
    for document, pairs in ((ambik, 6), (on_release, 3)):
        debate, dialogue = document["methods"]["debate"], document["methods"]["dialogue"]
        assert debate["method_figures"]["debates"] == pairs * 2 * 3
        assert debate["method_figures"]["consensus_rate"] == 1.0  # the unscripted followers agree at once
        assert set(debate["method_figures"]["leader_success"]) == {"0:a", "1:b", "2:c"}
        assert {"success", "query_discrepancy", "mean_question_words"} <= set(dialogue["method_figures"])
        assert document["settings"]["agents"] == ["a", "b", "c"] and document["settings"]["rounds"] == 2
    from ambiforge.cli.common import console
    from ambiforge.cli.eval import print_table

    with console.capture() as printed:
        print_table({**ambik, "folder": "eval/ambik"})
    assert "debate: success" in printed.get() and "consensus_rate" in printed.get()
