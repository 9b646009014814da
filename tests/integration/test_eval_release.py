"""A whole eval through the LLM client, the official openai SDK and the scripted server (deterministic
log-probabilities): on a real release (offline items), attached to it, and rerun from the call cache."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.releases.writer import ReleaseOptions, release
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import ScriptedModel, server_responder

METHODS = ("knowno", "lap", "lofreecp", "binary", "nohelp")
MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}


@pytest.fixture(scope="module")
def release_folder(tmp_path_factory: pytest.TempPathFactory, catalog) -> Path:  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("release")
    gen = OfflineGenerator(catalog, 5, "r1")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(24, MIX, 5))]
    write_items_jsonl(tmp / "raw" / "r1" / "items.jsonl", items)
    opts = ReleaseOptions(
        version="1.0.0",
        run_ids=["r1"],
        raw=tmp / "raw",
        curated=tmp / "curated",
        annotation=tmp / "annotation",
        allow_unreviewed=True,
        calibration_size=10,
        seed=3,
        target_mix=MIX,
        mix_tolerance=0.2,
    )
    return release(opts)


def options(tmp: Path, data: Path, **kw: object) -> EvalOptions:
    defaults: dict[str, object] = {
        "methods": METHODS,
        "out": tmp / "eval",
        "cache_dir": tmp / "cache",
        "name": "run",
        "llm": LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),  # no rate window: the server is local
    }
    return EvalOptions(data=data, model="scripted", **(defaults | kw))  # type: ignore[arg-type]


def test_release_eval_via_server_is_attached_and_reruns_from_the_cache(
    release_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        first = run_eval(options(tmp_path, release_folder, attach=release_folder))
        asked = len(server.requests)
        again = run_eval(options(tmp_path, release_folder))
        assert len(server.requests) == asked  # the rerun made no request at all
    assert asked > 0 and all(r.status == 200 for r in server.requests)
    assert first["evaluated_on"] == "test split" and first["pairs"] == 14 and first["calibration_tasks"] == 10
    assert first["calibration_ambiguous"] in (5, 6)  # alternating within each type
    assert again["methods"] == first["methods"]

    # the transport changes nothing: the in-process scripted model gives the same tables
    local = run_eval(options(tmp_path, release_folder, name="local"), model=ScriptedModel())
    assert local["methods"] == first["methods"]

    folder = tmp_path / "eval" / "run"
    rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    assert len(rows) == len(METHODS) * 2 * 14
    assert pq.read_table(folder / "results.parquet").num_rows == len(rows)
    html = (folder / "report.html").read_text()
    for needle in ("AmbDif", "Correct help rate", "Set size correctness", "data:image/png;base64", "Preferences"):
        assert needle in html
    link = json.loads((release_folder.parent / "1.0.0.evals" / "run.json").read_text())
    assert link["release"] == "1.0.0" and link["ambdif"] == {m: first["methods"][m]["ambdif"]["all"] for m in METHODS}
    calls = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()]
    assert {c["prompt_id"] for c in calls} == {
        "eval_options",
        "eval_choose",
        "eval_affordance",
        "eval_next_action",
        "eval_certainty",
    }
    assert sum(1 for c in calls if not c["cached"]) == asked
