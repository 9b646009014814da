"""Whole builds on the LLM path: the real openai and mistralai SDKs against the local chat-completions
server, which answers ambiforge's prompts from the catalog (``ambiforge.testing.kitchen_responder``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ambiforge.config.build import BuildOptions
from ambiforge.config.llm import LLMConfig
from ambiforge.engine.preflight import resolve_provider
from ambiforge.llm.calls import read_calls
from ambiforge.llm.prompts import default_prompts_dir, load_prompt, type_variant_prompts
from ambiforge.models.schema import schema_errors
from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import Faults, ScriptedLLMServer
from tests.conftest import REPO
from tests.integration.processes import group

KEY = "sk-test-abcdef0123456789-never-logged"
RESPONDER = KitchenResponder()


def llm_env(server: ScriptedLLMServer, tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "OPENAI_API_KEY": KEY,
        "MISTRAL_API_KEY": KEY,
        "OPENAI_BASE_URL": server.openai_url,
        "MISTRAL_BASE_URL": server.url,
        "PREFECT_HOME": str(tmp_path / "prefect-home"),
    }


def set_keys(monkeypatch: pytest.MonkeyPatch, server: ScriptedLLMServer) -> None:
    for name, value in llm_env(server, Path("/nonexistent")).items():
        if name.endswith(("_KEY", "_BASE_URL")):
            monkeypatch.setenv(name, value)


def options(tmp_path: Path, provider: str, pairs: int, run_id: str = "r", **llm: Any) -> BuildOptions:
    extra = {"candidates": llm.pop("candidates")} if "candidates" in llm else {}
    chosen, settings, _ = resolve_provider(provider, LLMConfig(**llm))
    return BuildOptions(run_id=run_id, provider=chosen, pairs=pairs, seed=3, out=str(tmp_path), llm=settings, **extra)


def files_text(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


@pytest.mark.slow
@pytest.mark.parametrize("provider", ["openai", "mistral"])
def test_cli_build_of_20_pairs_through_the_sdk(tmp_path: Path, provider: str) -> None:
    with ScriptedLLMServer(RESPONDER, api_key=KEY) as server:
        cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", provider, "--pairs", "20"]
        cmd += ["--seed", "4", "--run-id", "llm", "--out", str(tmp_path / "raw")]
        proc = subprocess.run(cmd, cwd=REPO, env=llm_env(server, tmp_path), capture_output=True, text=True, timeout=600)
        requests = len(server.requests)
    assert proc.returncode == 0, proc.stderr
    folder = tmp_path / "raw" / "llm"
    items = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    summary = json.loads((folder / "summary.json").read_text())
    rejected = [json.loads(line) for line in (folder / "rejected.jsonl").read_text().splitlines()]
    # the scripted responder answers only where an offline template fits the prompt's kitchen (fewer since the
    # templates refuse more kitchens: no loose food in the oven, no "any clean one" a job narrows, no drink
    # heated without a microwave-safe mug, no grams without a scale), and its "put away" tasks are written for
    # its own placement: the reader refuses one that moves nothing here
    assert len(items) >= 10 and len(items) + len(rejected) == 20
    assert all(schema_errors(item) == [] for item in items)
    assert all(r["stage"] and r["reason"] for r in rejected)
    for item in items:
        provenance = item["provenance"]
        assert provenance["generator"] == "llm" and len(provenance["call_ids"]) >= 6
        assert {m["provider"] for m in provenance["models"]} == {provider}
        assert {p["id"] for p in provenance["prompts"]} >= {"unambiguous_task", "plan_clear", "intent"}
    calls = list(read_calls(folder / "calls.jsonl"))
    assert len(calls) == requests  # one record per request the server answered, none cached in a fresh run
    files = [*default_prompts_dir().glob("*.yaml"), *type_variant_prompts()]
    versions = {path.stem: load_prompt(path.stem, "", str(path.parent)).version for path in files}
    assert all(c["provider"] == provider and c["prompt_version"] == versions[c["prompt_id"]] for c in calls)
    assert all(c["input_tokens"] > 0 and c["output_tokens"] > 0 and c["cost_usd"] > 0 for c in calls)
    assert summary["llm"]["totals"]["calls"] == len(calls)
    assert summary["llm"]["totals"]["cost_usd"] == pytest.approx(sum(c["cost_usd"] for c in calls), abs=1e-5)
    assert "LLM calls" in proc.stderr and "unambiguous_task" in proc.stderr
    # the key went to the server (else it would have answered 401) and nowhere else
    assert KEY not in proc.stdout + proc.stderr
    assert KEY not in files_text(tmp_path / "raw")


@pytest.fixture
def no_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("MISTRAL_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.mark.usefixtures("no_keys")
def test_a_missing_key_is_an_error_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ambiforge.cli.main import main

    code = main(["build", "--provider", "llm", "--pairs", "3", "--out", str(tmp_path / "raw")])
    err = capsys.readouterr().err
    assert code == 2
    assert "MISTRAL_API_KEY is not set (needed by unambiguous_task)" in err and "OPENAI_API_KEY is not set" in err
    assert not (tmp_path / "raw").exists()


@pytest.mark.usefixtures("prefect_harness", "no_keys")
def test_auto_without_keys_builds_offline_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ambiforge.cli.main import main

    assert main(["build", "--provider", "auto", "--pairs", "4", "--run-id", "a", "--out", str(tmp_path)]) == 0
    assert "no API key set" in capsys.readouterr().err
    item = json.loads((tmp_path / "a" / "items.jsonl").read_text().splitlines()[0])
    assert item["provenance"]["generator"] == "offline"


@pytest.mark.usefixtures("prefect_harness")
def test_40_pairs_with_20_percent_faults_complete_and_every_failure_is_accounted_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.build import build_flow

    # the client's timeout is far above a loaded machine's reply time (a slow 429 or 500 read as a timeout
    # would break the exact counts below) and the hang far above the timeout
    faults = Faults(rate=0.2, seed=7, retry_after=1, hang_seconds=4.0)
    with ScriptedLLMServer(RESPONDER, faults=faults, api_key=KEY) as server:
        set_keys(monkeypatch, server)
        opts = options(tmp_path, "openai", 40, max_retries=4, backoff_seconds=0.05, timeout_seconds=2.0, concurrency=8)
        summary = build_flow(opts)
        statuses = server.statuses()
    folder = tmp_path / "r"
    items = (folder / "items.jsonl").read_text().splitlines()
    rejected = [json.loads(line) for line in (folder / "rejected.jsonl").read_text().splitlines()]
    assert len(items) + len(rejected) == 40 and summary["items_written"] == len(items)
    assert all(r["stage"] and r["reason"] for r in rejected)
    # the scripted responder answers only where an offline template fits the prompt's kitchen (see above)
    assert len(items) >= 20
    llm = summary["llm"]
    # every fault the server injected is in the summary, by kind
    assert statuses["429"] > 0 and statuses["500"] > 0 and statuses["timeout"] > 0 and statuses["malformed"] > 0
    assert llm["faults"]["429"] == statuses["429"]
    assert llm["faults"]["500"] == statuses["500"]
    # every hang is a timeout; a plain reply slowed past the timeout by a loaded machine is one too
    assert llm["faults"]["timeout"] >= statuses["timeout"]
    assert llm["faults"]["unusable_reply"] >= statuses["malformed"]
    # a pair the LLM could not finish names the step and the cause
    for r in rejected:
        if r["stage"].startswith("llm"):
            assert "step " in r["reason"]


@pytest.mark.usefixtures("prefect_harness")
def test_candidates_are_scored_by_the_validators_and_the_losers_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.build import build_flow

    with ScriptedLLMServer(KitchenResponder(flawed_share=0.5), api_key=KEY) as server:
        set_keys(monkeypatch, server)
        one = build_flow(options(tmp_path / "k1", "openai", 15, candidates=1))
        three = build_flow(options(tmp_path / "k3", "openai", 15, candidates=3))
    records = [json.loads(line) for line in (tmp_path / "k3" / "r" / "candidates.jsonl").read_text().splitlines()]
    # the scripted responder answers only where an offline template fits the prompt's kitchen
    assert len(records) >= 9 and all(len(r["candidates"]) == 3 for r in records)
    flawed = 0
    for record in records:
        scored = [c for c in record["candidates"] if c["score"] is not None]
        (chosen,) = [c for c in record["candidates"] if c["chosen"]]
        assert chosen["score"] == min(c["score"] for c in scored)
        flawed += sum(1 for c in scored if c["score"] > 0)
        for c in scored:
            assert c["score"] == len(c["failures"])
    assert flawed > 0  # losers with their failures are kept
    failed = {f["rule"] for r in records for c in r["candidates"] for f in c.get("failures", [])}
    assert "minimal_pair" in failed
    # choosing among three candidates lets more pairs through validation than taking the only one
    assert three["items_written"] > one["items_written"]


@pytest.mark.usefixtures("prefect_harness")
def test_a_second_run_is_served_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.build import build_flow

    with ScriptedLLMServer(RESPONDER, api_key=KEY) as server:
        set_keys(monkeypatch, server)
        build_flow(options(tmp_path, "mistral", 10, run_id="first"))
        before = len(server.requests)
        summary = build_flow(options(tmp_path, "mistral", 10, run_id="second"))
        assert len(server.requests) == before
    totals = summary["llm"]["totals"]
    assert totals["calls"] == totals["cache_hits"] > 0 and totals["cost_usd"] == 0
    first = [json.loads(line) for line in (tmp_path / "first" / "items.jsonl").read_text().splitlines()]
    second = [json.loads(line) for line in (tmp_path / "second" / "items.jsonl").read_text().splitlines()]
    assert [i["id"] for i in first] == [i["id"] for i in second]


@pytest.mark.usefixtures("prefect_harness")
def test_the_budget_stops_new_calls_and_the_unfinished_pairs_say_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.build import build_flow

    with ScriptedLLMServer(RESPONDER, api_key=KEY) as server:
        set_keys(monkeypatch, server)
        summary = build_flow(options(tmp_path, "openai", 40, max_cost=0.2, concurrency=2))
    rejected = [json.loads(line) for line in (tmp_path / "r" / "rejected.jsonl").read_text().splitlines()]
    budget = [r for r in rejected if r["stage"] == "budget"]
    assert budget and all("budget of $0.2000 reached" in r["reason"] for r in budget)
    spent = summary["llm"]["totals"]["cost_usd"]
    largest = max(c["cost_usd"] for c in read_calls(tmp_path / "r" / "calls.jsonl"))
    assert 0.2 <= spent <= 0.2 + 2 * largest  # at most the calls in flight when it was reached


@pytest.mark.slow
def test_killed_mid_generation_the_rerun_pays_for_nothing_twice_and_gives_the_same_items(tmp_path: Path) -> None:
    config = tmp_path / "ambiforge.toml"
    config.write_text("[llm]\nconcurrency = 2\n")
    # 12 pairs: about 66 calls, killed after 24 of them
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "openai", "--pairs", "12"]
    cmd += ["--seed", "5", "--run-id", "k", "--config", str(config)]

    with ScriptedLLMServer(RESPONDER, latency=0.03, api_key=KEY) as server:
        env = llm_env(server, tmp_path)
        # stderr to a file, not a pipe: the killed build's Prefect API server outlives it and holds the pipe
        log = (tmp_path / "killed.log").open("w")
        calls = tmp_path / "a" / "k" / "calls.jsonl"
        # its own process group, killed whole afterwards: nothing the killed build started outlives the test
        with group([*cmd, "--out", str(tmp_path / "a")], cwd=REPO, env=env, stderr=log) as killed:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and killed.poll() is None:
                if calls.exists() and calls.read_text().count("\n") >= 24:
                    killed.send_signal(signal.SIGKILL)
                    break
                time.sleep(0.01)
            killed.wait(timeout=60)
        log.close()
        stderr = (tmp_path / "killed.log").read_text()
        assert killed.returncode == -signal.SIGKILL, f"the build ended before it was killed: {stderr}"
        assert not (tmp_path / "a" / "k" / "items.jsonl").exists()
        paid_before = sum(server.successes().values())

        rerun = subprocess.run([*cmd, "--out", str(tmp_path / "a")], cwd=REPO, env=env, capture_output=True, text=True)
        assert rerun.returncode == 0, rerun.stderr
        repeated = {digest: n for digest, n in server.successes().items() if n > 1}
        # Only the calls in flight at the kill (at most `concurrency`, 2) can be asked again: their replies
        # never reached the build. Every reply the build received was cached and not asked for again.
        assert len(repeated) <= 2 and all(n == 2 for n in repeated.values())
        received = [c for c in read_calls(calls) if not c["cached"] and c["response"] is not None]
        cached = sum(1 for c in read_calls(calls) if c["cached"])
        assert cached >= paid_before - len(repeated) > 0
        assert len({c["call_id"] for c in received}) == len(received)  # no reply received twice

    with ScriptedLLMServer(RESPONDER, latency=0.0, api_key=KEY) as fresh:
        whole = subprocess.run(
            [*cmd, "--out", str(tmp_path / "b")], cwd=REPO, env=llm_env(fresh, tmp_path), capture_output=True, text=True
        )
        assert whole.returncode == 0, whole.stderr
    resumed = (tmp_path / "a" / "k" / "items.jsonl").read_bytes()
    assert resumed == (tmp_path / "b" / "k" / "items.jsonl").read_bytes()
    # the scripted responder answers only where an offline template fits the prompt's kitchen
    assert len(resumed.splitlines()) >= 6


@pytest.mark.usefixtures("prefect_harness")
def test_on_dask_the_concurrency_limit_holds_for_the_whole_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.build import build_flow

    # two worker processes, each running a batch on `concurrency` pair threads: 4 calls could be in flight
    opts = options(tmp_path, "openai", 8, concurrency=2, rpm=0)
    opts = opts.model_copy(update={"task_runner": "dask", "batch_size": 4})
    with ScriptedLLMServer(RESPONDER, latency=0.1, api_key=KEY) as server:
        set_keys(monkeypatch, server)
        summary = build_flow(opts)
        peak, answered = server.peak_in_flight, len(server.requests)
    # the scripted responder answers only where an offline template fits the prompt's kitchen
    assert summary["items_written"] + summary["rejected_count"] == 8 and summary["items_written"] >= 4
    assert answered >= 8 * 5
    assert peak == 2


def test_a_build_whose_every_pair_is_rejected_exits_1(tmp_path: Path) -> None:
    """A model that only ever copies the reply example: every pair is rejected with its reason, the
    build writes no item and says so with exit 1 (not 0 with an empty dataset)."""
    with ScriptedLLMServer(lambda body: '{"task": "..."}', api_key=KEY) as server:
        cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "openai", "--pairs", "3"]
        cmd += ["--seed", "4", "--run-id", "empty", "--out", str(tmp_path / "raw")]
        proc = subprocess.run(cmd, cwd=REPO, env=llm_env(server, tmp_path), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stderr
    folder = tmp_path / "raw" / "empty"
    assert (folder / "items.jsonl").read_text() == ""
    rejected = [json.loads(line) for line in (folder / "rejected.jsonl").read_text().splitlines()]
    assert len(rejected) == 3
    assert all(r["stage"] == "llm_output" and "placeholder" in r["reason"] for r in rejected), rejected
