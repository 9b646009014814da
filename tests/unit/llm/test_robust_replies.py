"""Structured output that holds with weak models, against the scripted server: placeholders and copied
examples are repaired then rejected, a truncated reply is its own fault (new seed, no re-sent loop), a
server that refuses json_schema gets json_object without a retry storm, unpriced models cost 0."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from ambiforge import ambiguity
from ambiforge.config.llm import StepSettings
from ambiforge.errors import LLMOutputError
from ambiforge.llm.ask import SHORTER, ask
from ambiforge.llm.calls import read_calls
from ambiforge.llm.client import CallPurpose
from ambiforge.llm.prompts import load_prompt
from ambiforge.llm.reply_check import check_reply
from ambiforge.llm.summary import summarize_calls
from ambiforge.testing.llm_server import ScriptedLLMServer
from tests.unit.llm.test_client import KEY, make_client

PURPOSE = CallPurpose("run", "unambiguous_task", "unambiguous_task", "2", pair=0)
SCENE = {
    "environment_short": "mug, paring knife, wooden spatula",
    "world": "counter: mug, paring knife, wooden spatula",
    "ambiguity_type": "safety",
    "ambiguity_steering": "",
}
SETTINGS = StepSettings(provider="openai", model="gpt-4o", max_tokens=40)


def ask_task(client: Any, settings: StepSettings = SETTINGS, seed: int = 5, scene: dict[str, str] = SCENE) -> Any:
    return ask(client, load_prompt("unambiguous_task"), scene, settings, PURPOSE, seed)


@pytest.mark.parametrize(
    "reply, why",
    [
        ('{"task": "..."}', "ellipsis"),
        ('{"task": "Put the … in the sink."}', "ellipsis"),
        ('{"task": "<task>"}', "template marker"),
        ('{"task": "string"}', "placeholder"),
        ('{"task": "TODO"}', "placeholder"),
        ('{"task": "Task"}', "key name"),
        ('{"task": "   ?!   "}', "no words"),
    ],
)
def test_placeholder_replies_are_repaired_then_rejected(tmp_path: Path, reply: str, why: str) -> None:
    seen: list[list[dict[str, Any]]] = []

    def responder(body: dict[str, Any]) -> str:
        seen.append(body["messages"])
        return reply

    with ScriptedLLMServer(responder, api_key=KEY) as server:
        client, _ = make_client(tmp_path, server, max_repairs=2)
        with pytest.raises(LLMOutputError, match=why):
            ask_task(client)
        assert len(server.requests) == 3  # the first ask and two repairs, then the step fails
    assert why in seen[1][-1]["content"] and seen[1][-2] == {"role": "assistant", "content": reply}
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert [r["repair"] for r in records] == [0, 1, 2] and all(r["parsed"] is None for r in records)
    assert all(why in r["parse_error"] for r in records)


def test_a_placeholder_repaired_into_real_text_is_accepted(tmp_path: Path) -> None:
    replies = iter(['{"task": "..."}', '{"task": "Put the mug in the sink."}'])
    with ScriptedLLMServer(lambda body: next(replies), api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        answer = ask_task(client)
    assert answer.value == {"task": "Put the mug in the sink."} and len(answer.call_ids) == 2


def test_the_reply_check_knows_examples_from_data_and_echoes_from_answers() -> None:
    safety = ambiguity.get("safety")
    prompt = load_prompt(safety.variant_prompt_id, "", str(safety.prompts_dir))
    assert prompt.examples == ("the wooden spatula",)
    kitchen_without = ["mug, metal ladle", "Put the metal ladle in the sink."]
    kitchen_with = ["mug, wooden spatula", "Put the wooden spatula in the sink."]
    leaked = {"ambiguous_task": "Put the wooden spatula in a sink.", "question": "Which?", "answer": "The mug."}
    error = check_reply(leaked, examples=prompt.examples, data=kitchen_without)
    assert error is not None and "copies the prompt's example 'the wooden spatula'" in error
    assert error.startswith("the reply is not an answer: ambiguous_task:")
    assert check_reply(leaked, examples=prompt.examples, data=kitchen_with) is None
    instructions = "Objects in the kitchen: mug\nWrite one short task that the user could ask the robot to do."
    echo = {"task": "Write one short task that the user could ask the robot to do."}
    assert "repeats the prompt's instructions" in (check_reply(echo, instructions=instructions) or "")
    steering = "Choose a task about an object that has look-alikes in the kitchen (several objects of the same kind)"
    echoed = {"task": "Pick a task from the list of items that have look-alikes in the kitchen (several objects"}
    assert "repeats the prompt's instructions" in (check_reply(echoed, instructions=steering) or "")
    heading = {"task": "Objects in the kitchen: mug"}
    assert "heading" in (check_reply(heading, instructions=instructions) or "")
    assert "is empty" in (check_reply({"plan": ["Find the mug.", " "]}) or "")
    fine = {"task": "Put the mug in the sink.", "plan": ["Find the mug.", "Put the mug in the sink."]}
    assert check_reply(fine, instructions=instructions, data=["mug"]) is None


def test_a_truncated_reply_is_recorded_and_repaired_shorter_with_a_new_seed(tmp_path: Path) -> None:
    bodies: list[dict[str, Any]] = []

    def responder(body: dict[str, Any]) -> str:
        bodies.append(body)
        if SHORTER.strip()[:30] in body["messages"][-1]["content"]:
            return '{"task": "Put the mug in the sink."}'
        return '{"task": "Put the mug' + ", the mug" * 100 + '"}'  # a repetition loop past max_tokens

    with ScriptedLLMServer(responder, api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        answer = ask_task(client)
    assert answer.value == {"task": "Put the mug in the sink."}
    first, repair = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert first["finish_reason"] == "length" and "cut off at max_tokens (40 tokens)" in first["parse_error"]
    assert repair["finish_reason"] == "stop" and repair["repair"] == 1
    assert bodies[1]["seed"] != bodies[0]["seed"]  # a new seed: the same one would loop again
    assert all(m["role"] != "assistant" for m in bodies[1]["messages"])  # the truncated text is not re-sent
    assert len(bodies[1]["messages"]) == len(bodies[0]["messages"])
    summary = summarize_calls(tmp_path / "run" / "calls.jsonl")
    assert summary is not None and summary["faults"]["truncated"] == 1


def test_a_server_refusing_json_schema_falls_back_to_json_object_without_a_retry_storm(tmp_path: Path) -> None:
    formats: list[dict[str, Any]] = []

    def responder(body: dict[str, Any]) -> str:
        formats.append(body["response_format"])
        return '{"task": "Put the mug in the sink."}'

    with ScriptedLLMServer(responder, api_key=KEY, refuse_json_schema=500) as server:
        client, waits = make_client(tmp_path, server, max_retries=4)
        for seed in range(4):
            ask_task(client, seed=seed)
        statuses = server.statuses()
    # one refused request for the whole run, never retried; then every call in json_object mode
    assert len(server.requests) == 5 and statuses == {"unsupported": 1, "200": 4} and waits == []
    assert all(f["type"] == "json_object" and f["schema"]["title"] == "unambiguous_task" for f in formats)
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert records[0]["faults"] == ["unsupported_response_format"] and records[0]["params"]["response_format"] == (
        "json_schema"
    )
    assert [r["params"]["response_format"] for r in records[1:]] == ["json_object"] * 4
    assert client.format_level("openai", "gpt-4o") == 1


def test_a_server_refusing_any_schema_gets_plain_json_object(tmp_path: Path) -> None:
    formats: list[dict[str, Any]] = []

    def responder(body: dict[str, Any]) -> str:
        formats.append(body["response_format"])
        return '{"task": "Put the mug in the sink."}'

    kwargs = {"refuse_json_schema": 400, "refuse_schema_in_json_object": True}
    with ScriptedLLMServer(responder, api_key=KEY, **kwargs) as server:
        client, _ = make_client(tmp_path, server)
        ask_task(client, seed=1)
        ask_task(client, seed=2)
        assert len(server.requests) == 4 and server.statuses() == {"unsupported": 2, "200": 2}
    assert formats == [{"type": "json_object"}] * 2


def test_a_fallback_reply_is_served_from_the_cache_on_a_rerun_without_asking_again(tmp_path: Path) -> None:
    reply = '{"task": "Put the mug in the sink."}'
    with ScriptedLLMServer(lambda body: reply, api_key=KEY, refuse_json_schema=500) as server:
        first, _ = make_client(tmp_path, server)
        ask_task(first)
        again, _ = make_client(tmp_path, server)  # a new run: a new client, the same cache
        answer = ask_task(again)
        assert len(server.requests) == 2  # the refusal and the fallback of the first run only
    assert answer.value == json.loads(reply)


def test_a_model_without_a_price_costs_nothing_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = StepSettings(provider="openai", model="smollm2-135m", max_tokens=40)
    with ScriptedLLMServer(lambda body: '{"task": "Put the mug in the sink."}', api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        with caplog.at_level(logging.WARNING, logger="ambiforge.llm"):
            ask_task(client, settings, seed=1)
            ask_task(client, settings, seed=2)
            ask_task(client, settings, seed=1)  # from the cache
    warnings = [r for r in caplog.records if "no price" in r.getMessage()]
    assert len(warnings) == 1 and "smollm2-135m" in warnings[0].getMessage()
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert [r["cost_usd"] for r in records] == [0.0, 0.0, 0.0] and records[0]["priced"] is False
    summary = summarize_calls(tmp_path / "run" / "calls.jsonl")
    assert summary is not None and summary["models_without_price"] == ["smollm2-135m"]
    assert summary["warnings"] and "smollm2-135m" in summary["warnings"][0]
    totals = summary["totals"]
    sent = records[0]["input_tokens"] + records[1]["input_tokens"]
    assert totals["input_tokens"] == sent and totals["cached_input_tokens"] == records[0]["input_tokens"] > 0
    assert totals["cached_output_tokens"] == records[0]["output_tokens"] and totals["cache_hits"] == 1
