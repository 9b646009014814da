"""``ambiforge build`` of an offline dataset with ``[judge] enabled = true``: the judge's debates go through
the real openai SDK to the scripted chat-completions server (which plays the judge's prompts,
:mod:`ambiforge.testing.scripted_eval`), and the verdicts reach ``judgements.jsonl``, the validation report
and a release."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge.detectors.tasks import halves
from ambiforge.llm.calls import read_calls
from ambiforge.models import Item
from ambiforge.releases.verify import verify_release
from ambiforge.releases.writer import ReleaseOptions, release
from ambiforge.storage import read_items, read_records
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import DEFAULT_SCRIPTS, make_responder, unit
from tests.conftest import REPO
from tests.integration.test_llm_build import KEY, llm_env

MODELS = ("judge-a", "judge-b", "judge-c")
PERSONAS = ("a careful home cook", "a food-safety inspector", "a literal-minded robot engineer")


def clear_judged_ambiguous(item: Item) -> bool:
    """What the scripted model decides, unscripted: every leader calls a task ambiguous when its hash is
    below 0.5 and the followers agree in round 1, so the debates reach that verdict unanimously."""
    return unit(halves(item)[1].task) < 0.5


@pytest.mark.slow
def test_offline_build_with_the_judge_on_the_scripted_server(tmp_path: Path) -> None:
    config = tmp_path / "ambiforge.toml"
    models = ", ".join(f'"{m}"' for m in MODELS)
    personas = ", ".join(f'"{p}"' for p in PERSONAS)
    config.write_text(
        f"[judge]\nenabled = true\nmodels = [{models}]\npersonas = [{personas}]\nrounds = 3\n", encoding="utf-8"
    )
    raw = tmp_path / "raw"
    with ScriptedLLMServer(make_responder(DEFAULT_SCRIPTS), api_key=KEY) as server:
        # 4 pairs (seed 4): two clear tasks the scripted judge finds ambiguous, two it finds clear
        cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "offline", "--pairs", "4"]
        cmd += ["--seed", "4", "--run-id", "judged", "--out", str(raw), "--config", str(config)]
        proc = subprocess.run(cmd, cwd=REPO, env=llm_env(server, tmp_path), capture_output=True, text=True, timeout=600)
        requests = len(server.requests)
    assert proc.returncode == 0, proc.stderr
    folder = raw / "judged"
    items = read_items(folder / "items.jsonl")
    records = [json.loads(line) for line in (folder / "judgements.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [i.id for i in items] and len(items) == 4

    expected = {i.id for i in items if clear_judged_ambiguous(i)}
    assert expected and len(expected) < len(items), "the seed must give clear tasks judged both ways"
    for item, record in zip(items, records, strict=True):
        judgement = item.judgement
        assert judgement is not None and judgement.models == list(MODELS) and judgement.rounds == 3
        assert judgement.personas == list(PERSONAS)
        assert judgement.clear_task is not None and judgement.clear_task.debates == 3  # every agent led once
        assert judgement.clear_task.consensus == 3
        assert {d["leader_model"] for d in record["debate"]["clear"]["debates"]} == set(MODELS)
        flagged = "clear_judged_ambiguous" in {f.check for f in judgement.flags}
        assert flagged == (item.id in expected) == (judgement.clear_task.verdict == "ambiguous")
        assert all(f.severity == "warning" for f in judgement.flags)  # warnings: kept, reported

    report = json.loads((folder / "validation" / "report.json").read_text())
    assert {
        row["id"]
        for row in report["judge"]["flagged"]
        if any(f["check"] == "clear_judged_ambiguous" for f in row["flags"])
    } == expected
    assert report["judge"]["flags"]["clear_judged_ambiguous"]["items"] == len(expected)
    assert expected <= {i["id"] for i in report["issues"] if i["rule"] == "judge.clear_judged_ambiguous"}

    calls = list(read_calls(folder / "calls.jsonl"))
    leads = [c for c in calls if c["step"] == "debate.lead"]
    assert {p for c in leads for p in PERSONAS if p in json.dumps(c["messages"])} == set(PERSONAS)
    assert len(calls) == requests > 0  # every judge call went through the client into the run's log
    assert {c["step"] for c in calls} >= {"debate.lead", "debate.follow"}
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["llm"]["totals"]["calls"] == requests and "judge" in summary["seconds"]

    curated = release(
        ReleaseOptions(
            version="1.0.0",
            run_ids=["judged"],
            raw=raw,
            curated=tmp_path / "curated",
            annotation=tmp_path / "annotation",
            allow_unreviewed=True,
            calibration_size=2,
        )
    )
    released = {r["id"]: r for r in read_records(curated / "data.parquet")}
    assert {k: v["judgement"] for k, v in released.items()} == {
        i.id: i.judgement.model_dump(mode="json")
        for i in items
        if i.id in released  # type: ignore[union-attr]
    }
    card = (curated / "README.md").read_text()
    assert "## Automatic judge" in card and all(p in card for p in PERSONAS)
    verify_release(curated)  # the judgement field agrees across JSONL, Parquet and CSV
