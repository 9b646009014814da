"""The eval through the real call path (LLM client, official openai SDK, scripted server with deterministic
log-probabilities) on the four hand-made pairs: every method runs, the numbers match the in-process
scripted model, a rerun is served from the call cache, and an endpoint without log-probabilities fails
KnowNo with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.errors import LLMCallError
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import ScriptedModel, server_responder
from tests.unit.evaluation.fixtures import ITEMS

METHODS = ("knowno", "lap", "lofreecp", "binary", "nohelp")


def options(tmp: Path, **kw: object) -> EvalOptions:
    data = write_items_jsonl(tmp / "items.jsonl", ITEMS)
    defaults: dict[str, object] = {
        "methods": METHODS,
        "out": tmp / "eval",
        "cache_dir": tmp / "cache",
        "name": "run",
        "calibration_size": 4,  # no split field: the first four rows calibrate, the whole file is evaluated
        "llm": LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
    }
    return EvalOptions(data=data, model="scripted", **(defaults | kw))  # type: ignore[arg-type]


def test_every_method_via_the_server_then_a_rerun_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedLLMServer(server_responder, api_key="sk-eval") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        first = run_eval(options(tmp_path))
        asked = len(server.requests)
        again = run_eval(options(tmp_path))
        assert len(server.requests) == asked  # 0 new requests
    # 8 tasks: options + choice (KnowNo; LAP reuses both from the cache) + 4 affordances (LAP)
    # + 5 samples (LofreeCP; the even-seeded ones equal the temperature-0 action? no: temperature differs)
    # + action (Binary and NoHelp share it) + certainty (Binary)
    assert asked == 8 * (2 + 4 + 5 + 1 + 1)
    assert again["methods"] == first["methods"]
    assert first["evaluated_on"] == "calibration split (the test split is empty)"
    assert all(m["errors"] == 0 for m in first["methods"].values())
    local = run_eval(options(tmp_path, name="local"), model=ScriptedModel())
    assert local["methods"] == first["methods"]


def test_knowno_without_logprobs_fails_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with ScriptedLLMServer(server_responder, api_key="sk-eval", give_logprobs=False) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        with pytest.raises(LLMCallError, match="no log-probabilities") as caught:
            run_eval(options(tmp_path, methods=("knowno",)))
    assert "\n" not in str(caught.value)
