"""A build against a real language model: SmolLM2-135M-Instruct served by llama.cpp's llama-server
(``make local-llm``). A 135M model mostly writes unusable replies; what is tested is that the pipeline
stays honest with it: every planned pair ends as an item or a rejection with a reason, no item holds a
placeholder or a copied example, every call records why it ended, and the exit code says whether anything
was built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge.llm.calls import read_calls
from ambiforge.llm.prompts import default_prompts_dir, known_steps, load_prompt, type_variant_prompts
from ambiforge.llm.reply_check import check_reply
from ambiforge.testing.local_model import LocalModelServer
from tests.conftest import REPO

PAIRS = 2
GENERATED = (
    "unambiguous_direct",
    "unambiguous_indirect",
    "ambiguous_task",
    "question",
    "answer",
    "amb_shortlist",
    "plan_for_clear_task",
    "plan_for_amb_task",
    "user_intent",
    "variants",
)


def local_config(path: Path, model: str) -> Path:
    """Every step on the local model with short answers, one call at a time (two cores), one repair."""
    lines = [
        "[llm]",
        "concurrency = 1",
        "timeout_seconds = 300",
        "max_retries = 1",
        "max_repairs = 1",
        "[llm.providers.openai]",
        'api_key_env = "OPENAI_API_KEY"',
        'base_url_env = "OPENAI_BASE_URL"',
        f'default_model = "{model}"',
    ]
    for step in known_steps():
        lines += [f"[llm.steps.{step}]", 'provider = "openai"', f'model = "{model}"', "max_tokens = 96"]
    path.write_text("\n".join(lines) + "\n")
    return path


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.slow
def test_a_build_against_the_real_local_model_ends_honestly(tmp_path: Path, local_model: LocalModelServer) -> None:
    config = local_config(tmp_path / "ambiforge.toml", local_model.model)
    env = {
        **os.environ,
        "OPENAI_API_KEY": "sk-local-dummy",
        "OPENAI_BASE_URL": local_model.openai_url,
        "PREFECT_HOME": str(tmp_path / "prefect-home"),
    }
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "openai", "--pairs", str(PAIRS)]
    cmd += ["--seed", "2", "--run-id", "local", "--out", str(tmp_path / "raw"), "--config", str(config)]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=1800)
    folder = tmp_path / "raw" / "local"
    items, rejected = jsonl(folder / "items.jsonl"), jsonl(folder / "rejected.jsonl")
    # every planned pair ends as an item or a rejection that says where and why
    assert len(items) + len(rejected) == PAIRS, proc.stderr[-2000:]
    assert all(r["stage"] and r["reason"] for r in rejected)
    # the exit code matches the outcome: 0 with items, 1 with none
    assert proc.returncode == (0 if items else 1), proc.stderr[-2000:]
    # no item holds a placeholder or one of the prompts' examples
    files = [*default_prompts_dir().glob("*.yaml"), *type_variant_prompts()]
    examples = [e for path in files for e in load_prompt(path.stem, "", str(path.parent)).examples]
    for item in items:
        generated = {key: item[key] for key in GENERATED}
        data = [item["environment_short"], item["environment_full"]]
        assert check_reply(generated, examples=examples, data=data) is None, generated
    # the model was really asked, and every answered call says why it ended
    calls = list(read_calls(folder / "calls.jsonl"))
    answered = [c for c in calls if c["response"] is not None]
    assert answered and all(c["model"] == local_model.model for c in calls)
    assert all(c["finish_reason"] in ("stop", "length") for c in answered)
    assert all(c["cost_usd"] == 0.0 for c in calls)  # an unpriced local model is free, never gpt-4o's price
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["llm"]["models_without_price"] == [local_model.model]


def test_the_real_local_model_gives_logprobs_and_honours_a_schema(
    tmp_path: Path, local_model: LocalModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ambiforge.config.llm import LLMConfig
    from ambiforge.llm.budget import Budget
    from ambiforge.llm.calls import CallCache, CallLog
    from ambiforge.llm.client import CallPurpose, LLMClient, plain_text
    from ambiforge.llm.limiter import LocalLimiter
    from ambiforge.llm.providers import ChatRequest
    from ambiforge.llm.structured import parse_reply, response_format

    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-dummy")
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.openai_url)
    llm = LLMConfig(timeout_seconds=120, max_retries=0)
    log = CallLog(tmp_path / "calls.jsonl")
    client = LLMClient(llm, log, CallCache(tmp_path / "cache"), LocalLimiter(1, 0), Budget(log.path, None))
    purpose = CallPurpose("local", "probe", "probe", "1")
    question = (("user", "Which one is a fruit? A) apple B) chair C) spoon D) cup. Answer with one letter."),)
    letter = client.call(
        ChatRequest("openai", local_model.model, question, 0.0, 2, 1, logprobs=True, top_logprobs=4),
        purpose,
        plain_text,
    )
    assert letter.logprobs and letter.finish_reason in ("stop", "length")
    first = letter.logprobs[0]
    assert first.top and first.top[0][1] >= first.top[-1][1] and all(p <= 0 for _, p in first.top)
    ask = (("user", 'Write a short task for a kitchen robot. Reply with a JSON object whose only key is "task".'),)
    fmt = response_format("json_schema", "unambiguous_task")
    task = client.call(
        ChatRequest("openai", local_model.model, ask, 0.0, 96, 1, response_format=fmt),
        purpose,
        lambda text: parse_reply(text, "unambiguous_task"),
    )
    # the grammar holds the reply to the schema, or the reply was cut off (and says so)
    assert task.parsed is not None or task.finish_reason == "length", task.text
