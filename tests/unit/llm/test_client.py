"""The LLM call layer against the local chat-completions server, through the real openai and mistralai SDKs:
retries and Retry-After, repairs, the cache, the call log, budget, keys, prompts and provider choice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ambiforge.config.llm import LLMConfig, Price, StepSettings
from ambiforge.engine.preflight import check_llm, resolve_provider
from ambiforge.errors import BudgetExceeded, ConfigError, LLMCallError, LLMOutputError
from ambiforge.llm.ask import ask
from ambiforge.llm.budget import Budget
from ambiforge.llm.calls import CallCache, CallLog, read_calls
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.llm.prompts import load_prompt, parse_prompt
from ambiforge.llm.providers import ChatRequest, PermanentError
from ambiforge.llm.providers.mistral import MistralProvider
from ambiforge.llm.providers.openai import OpenAIProvider
from ambiforge.llm.structured import parse_reply
from ambiforge.llm.summary import summarize_calls
from ambiforge.testing.llm_server import Faults, ScriptedLLMServer

KEY = "sk-test-0123456789-secret"


def make_client(
    tmp_path: Path, server: ScriptedLLMServer, provider: str = "openai", **llm: Any
) -> tuple[LLMClient, list[float]]:
    settings = LLMConfig(**({"max_retries": 3, "backoff_seconds": 0.01, "timeout_seconds": 2.0} | llm))
    log = CallLog(tmp_path / "run" / "calls.jsonl")
    sdk = (
        OpenAIProvider(KEY, server.openai_url, settings.timeout_seconds)
        if provider == "openai"
        else MistralProvider(KEY, server.url, settings.timeout_seconds)
    )
    client = LLMClient(
        settings,
        log,
        CallCache(tmp_path / "cache"),
        LocalLimiter(4, 0),
        Budget(log.path, settings.max_cost),
        {provider: sdk},
    )
    waits: list[float] = []
    client.sleep = waits.append  # record backoff instead of sleeping
    return client, waits


def request(text: str = "hello", provider: str = "openai", seed: int = 1) -> ChatRequest:
    return ChatRequest(provider, "gpt-4o", (("user", text),), 0.2, 50, seed, {"type": "json_object"})


PURPOSE = CallPurpose("run", "unambiguous_task", "unambiguous_task", "1", pair=0)


def always(kind: str) -> Faults:
    return Faults(rate=1.0, kinds=(kind,), retry_after=7, hang_seconds=3.0)


@pytest.mark.parametrize("provider", ["openai", "mistral"])
def test_a_429_is_retried_after_the_servers_retry_after_and_recorded(tmp_path: Path, provider: str) -> None:
    faults = Faults(rate=1.0, kinds=("429",), retry_after=7, faulty_occurrences=1)  # the first try only
    with ScriptedLLMServer(lambda body: '{"task": "Bring me the mug."}', faults=faults, api_key=KEY) as server:
        client, waits = make_client(tmp_path, server, provider)
        result = client.call(request(provider=provider), PURPOSE, lambda t: (json.loads(t), None))
    assert result.parsed == {"task": "Bring me the mug."}
    assert waits and waits[0] >= 7  # Retry-After: 7 outweighs the 0.01 s backoff
    (record,) = read_calls(tmp_path / "run" / "calls.jsonl")
    assert record["faults"] == ["429"] and record["retries"] == 1 and record["error"] is None
    assert server.statuses() == {"429": 1, "200": 1}


@pytest.mark.parametrize("kind", ["500", "timeout"])
def test_persistent_server_faults_fail_the_call_with_every_attempt_recorded(tmp_path: Path, kind: str) -> None:
    with ScriptedLLMServer(lambda body: "{}", faults=always(kind)) as server:
        client, waits = make_client(tmp_path, server, max_retries=2, timeout_seconds=0.5)
        with pytest.raises(LLMCallError, match=kind):
            client.call(request(), PURPOSE, lambda t: ({}, None))
    (record,) = read_calls(tmp_path / "run" / "calls.jsonl")
    assert record["faults"] == [kind] * 3 and record["error"] and record["response"] is None
    assert len(waits) == 2
    assert not list((tmp_path / "cache").rglob("*.json"))  # failures are never cached


def test_a_bad_key_is_not_retried(tmp_path: Path) -> None:
    with ScriptedLLMServer(lambda body: "{}", api_key="another-key") as server:
        client, waits = make_client(tmp_path, server)
        with pytest.raises(LLMCallError, match="401"):
            client.call(request(), PURPOSE, lambda t: ({}, None))
    assert waits == [] and server.statuses()["401"] == 1


def test_a_reply_is_paid_once_then_served_from_the_cache(tmp_path: Path) -> None:
    with ScriptedLLMServer(lambda body: '{"task": "Bring me the mug."}', api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        first = client.call(request(), PURPOSE, lambda t: (json.loads(t), None))
        again = client.call(request(), PURPOSE, lambda t: (json.loads(t), None))
        other = client.call(request(seed=2), PURPOSE, lambda t: (json.loads(t), None))
    assert (first.cached, again.cached, other.cached) == (False, True, False)
    assert again.text == first.text and again.call_id == first.call_id
    assert len(server.requests) == 2
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert [r["cached"] for r in records] == [False, True, False]
    assert records[0]["cost_usd"] > 0 and records[1]["cost_usd"] == 0.0
    summary = summarize_calls(tmp_path / "run" / "calls.jsonl")
    assert summary is not None
    assert summary["totals"]["calls"] == 3 and summary["totals"]["cache_hits"] == 1
    assert summary["totals"]["cost_usd"] == pytest.approx(records[0]["cost_usd"] + records[2]["cost_usd"])


@pytest.mark.parametrize("damage", [b"", b"\x00" * 64, b'{"response": "Bring', b"\xff\xfe not text"])
def test_a_damaged_cache_entry_is_a_miss_paid_again_and_rewritten(tmp_path: Path, damage: bytes) -> None:
    """What a crash of the machine may leave of an entry (nothing, zeros, a torn write) is a miss, never an
    error; the reply paid again replaces it, and no temporary file stays beside it."""
    with ScriptedLLMServer(lambda body: '{"task": "Bring me the mug."}', api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        first = client.call(request(), PURPOSE, lambda t: (json.loads(t), None))
        [entry] = (tmp_path / "cache").rglob("*.json")
        entry.write_bytes(damage)
        again = client.call(request(), PURPOSE, lambda t: (json.loads(t), None))
    assert (first.cached, again.cached) == (False, False) and again.text == first.text
    assert len(server.requests) == 2
    assert json.loads(entry.read_text(encoding="utf-8"))["response"] == first.text
    assert [p.name for p in (tmp_path / "cache").rglob("*")] == [entry.parent.name, entry.name]


def test_a_malformed_reply_is_repaired_by_asking_again_with_the_error(tmp_path: Path) -> None:
    replies = iter(['{"task": "Bring me', '{"task": ""}', '{"task": "Bring me the mug."}'])
    seen: list[list[dict[str, Any]]] = []

    def responder(body: dict[str, Any]) -> str:
        seen.append(body["messages"])
        return next(replies)

    prompt = load_prompt("unambiguous_task")
    with ScriptedLLMServer(responder, api_key=KEY) as server:
        client, _ = make_client(tmp_path, server, max_repairs=2)
        settings = StepSettings(provider="openai", model="gpt-4o")
        answer = ask(
            client,
            prompt,
            {"environment_short": "mug", "world": "counter: mug", "ambiguity_type": "safety", "ambiguity_steering": ""},
            settings,
            PURPOSE,
            5,
        )
    assert answer.value == {"task": "Bring me the mug."} and len(answer.call_ids) == 3
    assert "not valid JSON" in seen[1][-1]["content"] and seen[1][-2]["role"] == "assistant"
    assert "is too short" in seen[2][-1]["content"]
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert [r["repair"] for r in records] == [0, 1, 2]
    assert records[0]["parse_error"] and records[2]["parsed"] == {"task": "Bring me the mug."}
    assert {r["prompt_id"] for r in records} == {"unambiguous_task"} and records[0]["prompt_version"] == "1"


def test_replies_that_never_validate_fail_the_step_with_the_last_error(tmp_path: Path) -> None:
    with ScriptedLLMServer(lambda body: '{"wrong": 1}', api_key=KEY) as server:
        client, _ = make_client(tmp_path, server, max_repairs=1)
        settings = StepSettings(provider="openai", model="gpt-4o")
        with pytest.raises(LLMOutputError, match="'task' is a required property"):
            ask(
                client,
                load_prompt("unambiguous_task"),
                {
                    "environment_short": "mug",
                    "world": "counter: mug",
                    "ambiguity_type": "safety",
                    "ambiguity_steering": "",
                },
                settings,
                PURPOSE,
                5,
            )
        assert len(server.requests) == 2


def test_the_budget_stops_new_calls_once_spent(tmp_path: Path) -> None:
    prices = {"gpt-4o": Price(input=1_000_000.0, output=0.0)}  # a dollar a token: one call spends it
    with ScriptedLLMServer(lambda body: "{}", api_key=KEY) as server:
        client, _ = make_client(tmp_path, server, max_cost=1.0, prices=prices)
        client.call(request(), PURPOSE, lambda t: ({}, None))
        with pytest.raises(BudgetExceeded, match="budget"):
            client.call(request(seed=9), PURPOSE, lambda t: ({}, None))
        cached = client.call(request(), PURPOSE, lambda t: ({}, None))  # a cached reply costs nothing
    assert cached.cached and len(server.requests) == 1


def test_a_torn_last_line_of_the_call_log_is_skipped(tmp_path: Path) -> None:
    log = CallLog(tmp_path / "calls.jsonl")
    log.append(
        {
            "step": "plan_clear",
            "provider": "openai",
            "model": "m",
            "prompt_id": "p",
            "prompt_version": "1",
            "cost_usd": 0.5,
        }
    )
    with (tmp_path / "calls.jsonl").open("a") as fh:
        fh.write('{"step": "pla')
    assert len(list(read_calls(tmp_path / "calls.jsonl"))) == 1
    assert Budget(tmp_path / "calls.jsonl", 1.0).spent() == 0.5


def test_parse_reply_names_the_path_of_a_schema_error_and_accepts_a_fenced_object() -> None:
    value, error = parse_reply(
        '```json\n{"plan": ["Find the mug."], "ambiguity_starts_at_step": 0}\n```', "plan_ambiguous"
    )
    assert value is None and error is not None and "ambiguity_starts_at_step" in error and "minimum" in error
    value, error = parse_reply('```json\n{"plan": ["Find the mug."]}\n```', "plan")
    assert value == {"plan": ["Find the mug."]} and error is None


def test_every_prompt_has_an_id_version_and_a_schema_that_exists() -> None:
    from ambiforge import ambiguity
    from ambiforge.llm.prompts import default_prompts_dir
    from ambiforge.llm.structured import load_schema

    files = sorted(default_prompts_dir().glob("*.yaml"))
    assert len(files) == 5
    for path in files:
        prompt = load_prompt(path.stem)
        assert prompt.version and load_schema(prompt.schema)["type"] == "object"
    builtin = [
        t
        for n, t in ambiguity.types().items()
        if ambiguity.registry.TYPES.origin(n).startswith("entry point") and t.minimal_pair != "same_instruction"
    ]
    assert len(builtin) == 3  # AmbiK's; the environment-induced types have no LLM prompts (offline only)
    for kind in builtin:  # the built-in types' own: one folder each, prompts included
        prompt = load_prompt(kind.variant_prompt_id, "", str(kind.prompts_dir))
        assert prompt.version and prompt.step == "ambiguous_variant" and load_schema(prompt.schema)["type"] == "object"


def test_a_broken_prompt_file_is_an_error_naming_the_file() -> None:
    with pytest.raises(ConfigError, match="prompts/x.yaml: missing version"):
        parse_prompt("id: x\nschema: plan\nsystem: s\nuser: u\n", "prompts/x.yaml")
    with pytest.raises(ConfigError, match="template error on line 1"):
        parse_prompt("id: x\nversion: 1\nschema: plan\nsystem: '{% if %}'\nuser: u\n", "prompts/x.yaml")
    prompt = parse_prompt("id: x\nversion: 1\nschema: plan\nsystem: s\nuser: '{{ task }}'\n", "prompts/x.yaml")
    with pytest.raises(ConfigError, match="'task' is undefined"):
        prompt.render({})


def test_provider_choice_and_missing_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "MISTRAL_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    provider, llm, note = resolve_provider("auto", LLMConfig())
    assert (provider, llm) == ("offline", None) and "no API key set" in note
    provider, llm, _ = resolve_provider("llm", LLMConfig())
    assert llm is not None
    with pytest.raises(
        ConfigError, match="MISTRAL_API_KEY is not set \\(needed by unambiguous_task\\).*OPENAI_API_KEY"
    ):
        llm.require_keys()
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    provider, llm, note = resolve_provider("auto", LLMConfig())
    assert provider == "openai" and llm is not None and "MISTRAL_API_KEY not set" in note
    assert {s.provider for s in llm.steps.values()} == {"openai"}
    assert llm.steps["unambiguous_task"].model == "gpt-4o"
    monkeypatch.setenv("MISTRAL_API_KEY", "k")
    provider, llm, _ = resolve_provider("auto", LLMConfig())
    assert provider == "llm" and llm is not None and llm.steps["unambiguous_task"].provider == "mistral"
    with pytest.raises(ConfigError, match="needs a price"):
        LLMConfig(steps={**LLMConfig().steps, "intent": StepSettings(provider="openai", model="o9")}).require_prices()
    with pytest.raises(ConfigError, match="unknown step"):
        check_llm(LLMConfig(steps={**LLMConfig().steps, "summarize": StepSettings(provider="openai", model="x")}))


def test_a_conversation_logs_each_reply_once(tmp_path: Path) -> None:
    """A later turn that carries an earlier call's reply names that call instead of copying its text."""
    reply = '{"task": "Bring me the mug."}'
    with ScriptedLLMServer(lambda body: reply, api_key=KEY) as server:
        client, _ = make_client(tmp_path, server)
        first = client.call(request("hello"), PURPOSE, lambda t: (json.loads(t), None))
        follow = ChatRequest(
            "openai", "gpt-4o", (("user", "hello"), ("assistant", reply), ("user", "again")), 0.2, 50, 1, {}
        )
        client.call(follow, PURPOSE, lambda t: ({"text": t}, None))
    records = list(read_calls(tmp_path / "run" / "calls.jsonl"))
    assert records[1]["messages"][1] == {"role": "assistant", "reply_of": first.call_id}
    assert "Bring me the mug." not in json.dumps(records[1]["messages"])  # the reply is in the first record only


def test_the_openai_provider_sends_the_request_fields_and_nothing_else() -> None:
    """The body is posted as the request says (model, messages, sampling, format or log-probabilities,
    seed), and the reply comes back parsed; the SDK still sorts HTTP errors (a wrong key is a 401)."""
    bodies: list[dict[str, Any]] = []

    def responder(body: dict[str, Any]) -> str:
        bodies.append(body)
        return '{"task": "Put the cup away."}'

    fmt = {"type": "json_schema", "json_schema": {"name": "t", "schema": {"type": "object"}, "strict": True}}
    messages = (("system", "Be brief."), ("user", "A task?"))
    shaped = ChatRequest("openai", "gpt-4o", messages, 0.7, 80, 5, fmt)
    sampled = ChatRequest("openai", "gpt-4o", messages, 0.0, 20, 6, {}, logprobs=True, top_logprobs=2)
    with ScriptedLLMServer(responder, api_key=KEY) as server:
        provider = OpenAIProvider(KEY, server.openai_url, 5.0)
        reply = provider.complete(shaped)
        tokens = provider.complete(sampled)
        with pytest.raises(PermanentError):
            OpenAIProvider("sk-wrong-0123456789", server.openai_url, 5.0).complete(shaped)
    sent = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "A task?"}]
    assert bodies == [
        {"model": "gpt-4o", "messages": sent, "temperature": 0.7, "max_tokens": 80, "response_format": fmt, "seed": 5},
        {
            "model": "gpt-4o",
            "messages": sent,
            "temperature": 0.0,
            "max_tokens": 20,
            "seed": 6,
            "logprobs": True,
            "top_logprobs": 2,
        },
    ]
    assert reply.text == '{"task": "Put the cup away."}'
    assert tokens.choices[0].logprobs


def test_a_clients_reply_schemas_are_loaded_once_when_pair_threads_ask_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading
    import time

    from ambiforge.llm import structured

    loaded: list[str] = []
    real = structured.load_schema

    def slow_load(name: str) -> dict[str, Any]:
        loaded.append(name)
        time.sleep(0.05)  # every thread arrives while the first one reads and checks it
        return real(name)

    monkeypatch.setattr(structured, "load_schema", slow_load)
    schemas = structured.ReplySchemas()
    start = threading.Barrier(8)
    replies: list[tuple[Any, Any]] = []

    def parse() -> None:
        start.wait()
        replies.append(structured.parse_reply('{"plan": ["Find the mug."]}', "plan", schemas))

    threads = [threading.Thread(target=parse) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loaded == ["plan"] and replies == [({"plan": ["Find the mug."]}, None)] * 8
    assert structured.response_format("json_schema", "plan", schemas)["json_schema"]["schema"]["type"] == "object"
    assert loaded == ["plan"]  # the request's format comes from the same loaded schema
