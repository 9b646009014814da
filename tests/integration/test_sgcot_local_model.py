"""SG-CoT against a real language model: llama.cpp's llama-server with SmolLM2-135M (the ``local_model``
fixture, from ``make local-llm``) on the hand-made pairs with scene graphs (an AmbiK-type pair and two
environment-induced ones).

Both ways of calling, one pair each: ``auto`` offers the tools API (llama-server takes it; a server that
refused tools would send the method to its JSON fallback) on the absence pair (a perturbed kitchen and the
robot's partial view in the prompt), and ``json`` asks for the JSON object in the reply's text on the
preference pair; so the real model meets an AmbiK-type pair and an environment-induced one. Both paths'
figures on all three pairs are checked against the scripted server in tests/unit/evaluation/test_sgcot.py;
here they meet a real model's replies. A
135M model's SR and CQR are not expected to be good (the figures of one run are in docs/evaluate.md); the
run must be correct and complete: every episode has an answer or a recorded error, the figures rest on
the answered ones, tokens per call come from the server's usage, and a rerun makes no request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.methods.settings import method_settings
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.local_model import LocalModelServer
from tests.unit.evaluation.sgcot_fixtures import environment_types, items


@pytest.mark.slow
@pytest.mark.parametrize(("tool_mode", "pair"), [("auto", "A1"), ("json", "P1")], ids=["auto", "json"])
def test_sgcot_on_the_local_model(
    local_model: LocalModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool_mode: str, pair: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("OPENAI_BASE_URL", local_model.openai_url)
    with environment_types(tmp_path):
        data = write_items_jsonl(tmp_path / "items.jsonl", [i for i in items() if i.id == pair])
        opts = EvalOptions(
            data=data,
            methods=("sgcot",),
            model=local_model.model,
            out=tmp_path / "eval",
            name="local",
            cache_dir=tmp_path / "cache",
            llm=LLMConfig(concurrency=1, rpm=0, timeout_seconds=300, max_retries=1),
            settings=method_settings({}, {"max_turns": 2, "max_tokens": 160, "tool_mode": tool_mode}),
        )
        try:
            results = run_eval(opts)
        except Exception as exc:  # NothingAnswered: the figures are empty, the rows still say why
            if type(exc).__name__ != "NothingAnswered":
                raise
            results = json.loads((tmp_path / "eval" / "local" / "results.json").read_text())
        folder = tmp_path / "eval" / "local"
        rows = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
        assert len(rows) == 2  # both halves of the pair
        for row in rows:
            assert row["error"] or (row["details"]["answer"]["kind"] in ("act", "ask") and row["calls"]), row
        figures = results["methods"]["sgcot"]["method_figures"]
        assert figures["n"]["all"] + figures["errors"]["all"] == 2
        calls = [c for c in map(json.loads, (folder / "calls.jsonl").read_text().splitlines()) if not c["error"]]
        assert calls and figures["calls_without_usage"] == 0  # llama-server reports usage
        assert figures["input_tokens_per_call"] and figures["input_tokens_per_call"] > 100
        print("\nSG-CoT on", local_model.model, json.dumps({k: figures[k] for k in ("SR", "CQR", "n", "errors")}))
        print("tool mode", figures["tool_mode"], "calls/episode", figures["calls_per_episode"],
              "tokens/call in", figures["input_tokens_per_call"], "out", figures["output_tokens_per_call"])  # fmt: skip
        for row in rows:
            print(row["item_id"], row["half"], row["error"] or row["details"]["answer"])

        before = len(calls)
        run_eval(opts) if figures["n"]["all"] else None
        again = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()][before:]
        assert all(c["cached"] for c in again)  # the rerun made no request
