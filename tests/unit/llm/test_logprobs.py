"""Token log-probabilities, samples and plain-text calls through the client and the real openai SDK, against
the scripted server's deterministic distributions."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from ambiforge.errors import ConfigError, LLMCallError
from ambiforge.llm.calls import read_calls
from ambiforge.llm.client import CallPurpose, plain_text
from ambiforge.llm.providers import ChatRequest
from ambiforge.testing.llm_server import ScriptedLLMServer, prompt_key, scripted_logprobs
from ambiforge.testing.replies import ScriptedReply
from tests.unit.llm.test_client import KEY, make_client

PURPOSE = CallPurpose("run", "eval", "knowno_choose", "1", pair=0)
MESSAGES = (("system", "Answer with one letter."), ("user", "Which option? A) mug B) cup C) bowl D) plate"))


def letter_request(**changes: Any) -> ChatRequest:
    fields: dict[str, Any] = {"logprobs": True, "top_logprobs": 4} | changes
    return ChatRequest("openai", "tiny", MESSAGES, 0.0, 2, 1, **fields)


def test_a_request_for_logprobs_gets_the_servers_distribution_and_keeps_it_in_log_and_cache(tmp_path: Path) -> None:
    with ScriptedLLMServer(lambda body: "B", api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        first = client.call(letter_request(), PURPOSE, plain_text)
        again = client.call(letter_request(), PURPOSE, plain_text)
        assert len(server.requests) == 1
    key = prompt_key({"messages": [{"role": r, "content": c} for r, c in MESSAGES]})
    expected_logprob, expected_top = scripted_logprobs(key, 0, "B", 4)
    assert first.text == "B" and first.parsed == {"text": "B"} and first.finish_reason == "stop"
    assert first.logprobs is not None and len(first.logprobs) == 1
    token = first.logprobs[0]
    assert token.token == "B" and token.logprob == pytest.approx(expected_logprob)
    assert [t for t, _ in token.top] == [t for t, _ in expected_top] and token.top[0][0] == "B"
    assert [p for _, p in token.top] == pytest.approx([p for _, p in expected_top])
    assert sum(math.exp(p) for _, p in token.top) < 1.0  # four of eleven candidates
    assert again.cached and again.logprobs == first.logprobs  # the cache keeps them
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert records[0]["logprobs"][0][0]["token"] == "B"
    assert records[0]["params"]["logprobs"] is True and records[0]["params"]["top_logprobs"] == 4
    assert records[1]["cached"] and records[1]["logprobs"] == records[0]["logprobs"]


def test_logprob_options_are_part_of_the_cache_key() -> None:
    plain = ChatRequest("openai", "tiny", MESSAGES, 0.0, 2, 1)
    assert len({plain.digest(), letter_request().digest(), letter_request(top_logprobs=5).digest()}) == 3
    assert "logprobs" not in plain.payload()  # requests without the new options keep their old hash


def test_logprobs_with_a_response_format_are_refused_before_any_call() -> None:
    with pytest.raises(ConfigError, match="takes no response_format"):
        letter_request(response_format={"type": "json_object"})


def test_an_endpoint_that_returns_no_logprobs_is_a_one_line_error(tmp_path: Path) -> None:
    with ScriptedLLMServer(lambda body: "B", api_key=KEY, give_logprobs=False) as server:
        client, _ = make_client(tmp_path, server)
        with pytest.raises(LLMCallError, match="returned no log-probabilities") as caught:
            client.call(letter_request(), PURPOSE, plain_text)
    assert "\n" not in str(caught.value)
    (record,) = read_calls(tmp_path / "run" / "calls.jsonl")
    assert record["faults"] == ["no_logprobs"] and record["error"]
    assert not list((tmp_path / "cache").rglob("*.json"))  # not cached: a rerun asks again


def test_mistral_says_in_one_line_that_it_has_no_logprobs(tmp_path: Path) -> None:
    with ScriptedLLMServer(lambda body: "B", api_key=KEY) as server:
        client, _ = make_client(tmp_path, server, provider="mistral")
        with pytest.raises(LLMCallError, match="not supported by the Mistral chat API"):
            client.call(_mistral(), PURPOSE, plain_text)
        assert server.requests == []


def _mistral() -> ChatRequest:
    return ChatRequest("mistral", "tiny", MESSAGES, 0.0, 2, 1, logprobs=True, top_logprobs=2)


def test_several_samples_and_scripted_logprobs(tmp_path: Path) -> None:
    def responder(body: dict[str, Any]) -> ScriptedReply:
        sample = body.get("_sample", 0)
        return ScriptedReply("AB"[sample % 2], logprobs=[("AB"[sample % 2], -0.5, [("A", -0.5), ("B", -1.5)])])

    with ScriptedLLMServer(responder, api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        result = client.call(letter_request(n=3, top_logprobs=1), PURPOSE, plain_text)
    assert result.texts == ["A", "B", "A"]
    assert [c.logprobs[0].top for c in result.choices if c.logprobs] == [(("A", -0.5),)] * 3
    (record,) = read_calls(tmp_path / "run" / "calls.jsonl")
    assert record["responses"] == ["A", "B", "A"] and record["params"]["n"] == 3


def test_a_plain_text_call_carries_no_response_format(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []

    def responder(body: dict[str, Any]) -> str:
        seen.append(body)
        return "Put the mug in the sink."

    with ScriptedLLMServer(responder, api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        result = client.call(ChatRequest("openai", "tiny", MESSAGES, 0.7, 20, 3), PURPOSE, plain_text)
    assert result.parsed == {"text": "Put the mug in the sink."}
    assert "response_format" not in seen[0] and "logprobs" not in seen[0]
    assert json.loads(json.dumps(result.parsed))["text"].startswith("Put")


def test_samples_as_separate_requests_for_servers_that_refuse_n(tmp_path: Path) -> None:
    from ambiforge.llm.client import sample

    with ScriptedLLMServer(lambda body: f"seed {body['seed']}", api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        request = ChatRequest("openai", "tiny", MESSAGES, 0.8, 5, 7)
        results = sample(client, request, 3, PURPOSE, plain_text)
        again = sample(client, request, 3, PURPOSE, plain_text)
        assert len(server.requests) == 3  # the second time from the cache
    assert results[0].text == "seed 7" and len({r.text for r in results}) == 3
    assert [r.text for r in again] == [r.text for r in results] and all(r.cached for r in again)
