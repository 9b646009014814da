"""One debate and one clarification dialogue against a real language model: llama.cpp's llama-server with
SmolLM2-135M (the ``local_model`` fixture of tests/integration/conftest.py, from ``make local-llm``), through
the LLM client (cache, call log) and the official openai SDK.

A 135M model is not expected to judge well; the run must be correct and complete: the debate ends (consensus,
the round limit, or a recorded unusable reply), the dialogue ends with an action or a recorded unusable
reply, every call is logged with its prompt id and version, and a rerun makes no request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.config.debate import DebateSettings
from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.debate import Debate, agents_for, debate
from ambiforge.detectors.dialogue import Conversation, converse, score
from ambiforge.detectors.tasks import halves
from ambiforge.evaluation.command import EvalOptions, make_model
from tests.unit.detectors.fixtures import PAIRS


def test_one_debate_and_one_dialogue_on_the_local_model(  # type: ignore[no-untyped-def]
    local_model, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.openai_url)
    opts = EvalOptions(
        data=tmp_path,
        methods=("debate",),
        model=local_model.model,
        cache_dir=tmp_path / "cache",
        llm=LLMConfig(concurrency=1, rpm=0, timeout_seconds=300, max_retries=1),
    )
    folder = tmp_path / "judge"

    def run() -> tuple[Debate, Conversation]:
        model = make_model(opts, folder)
        task, _ = halves(PAIRS["preferences"])
        d = debate(task, agents_for(model, ()), leader=0, settings=DebateSettings(rounds=2), max_tokens=160)
        talk = converse(task, model, max_questions=1)
        return d, talk

    d, talk = run()
    assert d.rounds >= 1 and len(d.calls) >= 1
    assert d.error or d.consensus or d.rounds == 2, d  # ended: consensus, the limit, or a recorded error
    assert d.consensus == (d.verdict is not None)
    assert talk.error or talk.action, talk
    figures = score(halves(PAIRS["preferences"])[0], talk)
    assert figures["questions"] <= 1 and figures["query_discrepancy"] == figures["questions"] - 1
    calls = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()]
    ids = {c["prompt_id"] for c in calls}
    assert "judge_debate_lead" in ids and "eval_dialogue" in ids
    assert all(c["prompt_version"] for c in calls)

    before = len(calls)
    again_d, _ = run()
    again = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()][before:]
    assert again and all(c["cached"] for c in again)  # the rerun made no request
    assert again_d.verdicts == d.verdicts
