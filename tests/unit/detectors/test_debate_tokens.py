"""A debate's tokens are the provider's reported usage (through the LLM client and the scripted server),
also when its replies come from the cache; only calls without usage are estimated (characters / 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.debate import AMBIGUOUS, CLEAR, debate, rotate
from ambiforge.detectors.model import Completion
from ambiforge.detectors.tasks import halves
from ambiforge.evaluation.command import EvalOptions, make_model
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import DebateScript, ScriptedModel, Scripts, make_responder
from tests.unit.detectors.fixtures import PAIRS

AMB, _ = halves(PAIRS["preferences"])
SCRIPTS = Scripts(debates={AMB.task: DebateScript(verdicts=(CLEAR, AMBIGUOUS), agree_from=2)})


def recording(server: ScriptedLLMServer) -> list[dict[str, int]]:
    """The ``usage`` of every reply the server sends (an empty dict for a reply without one), in order."""
    sent: list[dict[str, int]] = []
    answer = server.answer

    def record(body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        status, payload, headers = answer(body)
        sent.append(payload.get("usage") or {})
        return status, payload, headers

    server.answer = record  # type: ignore[method-assign]
    return sent


def client_agents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: ScriptedLLMServer) -> list[Any]:
    """Three agents (models a, b, c) on one LLM client that talks to ``server`` through the openai SDK."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-tokens")
    monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
    opts = EvalOptions(
        data=tmp_path / "unused.jsonl",
        methods=("debate",),
        model="a",
        cache_dir=tmp_path / "cache",
        llm=LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
    )
    model = make_model(opts, tmp_path / "run")
    return [model, model.with_model("b"), model.with_model("c")]  # type: ignore[attr-defined]


def test_tokens_are_the_servers_usage_per_debate_and_a_cached_rerun_reports_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedLLMServer(make_responder(SCRIPTS), api_key="sk-tokens") as server:
        sent = recording(server)
        agents = client_agents(tmp_path, monkeypatch, server)
        first = []
        for leader in range(3):
            before = len(sent)
            d = debate(AMB, agents, leader)
            usage = sent[before:]
            assert d.error is None and d.consensus and len(usage) == len(d.calls) == 6
            assert d.tokens == sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage)
            assert d.tokens_estimated is False and d.cached_calls == 0
            first.append(d)
        asked = len(server.requests)
        again = rotate(AMB, agents)
        assert len(server.requests) == asked  # every reply from the cache
    for old, new in zip(first, again.debates, strict=True):
        # a cached reply counts the usage recorded when it was made: what the debate consumed
        assert (new.tokens, new.tokens_estimated, new.cached_calls) == (old.tokens, False, 6)


def test_a_server_without_usage_is_estimated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with ScriptedLLMServer(make_responder(SCRIPTS), api_key="sk-tokens", give_usage=False) as server:
        sent = recording(server)
        d = debate(AMB, client_agents(tmp_path, monkeypatch, server), 0)
    assert sent and all(u == {} for u in sent)
    assert d.consensus and d.tokens > 0 and d.tokens_estimated is True


def test_a_model_without_usage_keeps_the_estimate() -> None:
    d = debate(AMB, [ScriptedModel(n, SCRIPTS) for n in "abc"], 0)
    assert d.consensus and d.tokens > 0 and d.tokens_estimated is True


class Reporting(ScriptedModel):
    """A scripted agent whose every reply reports 100 prompt and 7 completion tokens."""

    def complete(self, *args: Any, **kw: Any) -> Completion:
        reply = super().complete(*args, **kw)
        return Completion(reply.text, reply.call_id, reply.cached, 100, 7)


def test_reported_usage_is_summed_and_one_estimated_call_marks_the_debate_estimated() -> None:
    reported = debate(AMB, [Reporting(n, SCRIPTS) for n in "abc"], 0)
    assert (reported.tokens, reported.tokens_estimated) == (107 * len(reported.calls), False)
    mixed = debate(AMB, [Reporting("a", SCRIPTS), ScriptedModel("b", SCRIPTS), ScriptedModel("c", SCRIPTS)], 0)
    assert mixed.tokens_estimated is True and mixed.tokens != reported.tokens
