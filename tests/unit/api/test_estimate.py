"""``ambiforge.estimate``: a model of the LLM generator's calls, from its rendered prompts and the prices."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ambiforge
from ambiforge.config.llm import LLMConfig
from ambiforge.engine.preflight import resolve_provider
from ambiforge.llm.prompts import default_prompts_dir


def options(tmp_path: Path, pairs: int = 12, candidates: int = 1, **llm: object) -> ambiforge.BuildOptions:
    _, settings, _ = resolve_provider("openai", LLMConfig(**llm))  # type: ignore[arg-type]
    out = str(tmp_path / "raw")
    return ambiforge.BuildOptions(provider="openai", pairs=pairs, seed=3, out=out, llm=settings, candidates=candidates)


def test_an_offline_build_costs_nothing(tmp_path: Path) -> None:
    result = ambiforge.estimate(ambiforge.BuildOptions(pairs=5, out=str(tmp_path / "raw")))
    assert (result.calls, result.cost_usd, result.to_dict()["steps"]) == (0, 0.0, {})
    assert isinstance(result.cost_usd, float)
    assert result.offline and not (tmp_path / "raw").exists()


def test_calls_follow_pairs_candidates_and_the_repair_rate(tmp_path: Path) -> None:
    one = ambiforge.estimate(options(tmp_path))
    three = ambiforge.estimate(options(tmp_path, candidates=3)).to_dict()["steps"]
    steps = one.to_dict()["steps"]
    assert list(steps) == [
        "unambiguous_task",
        "indirect",
        "plan_clear",
        "ambiguous_variant",
        "plan_ambiguous",
        "intent",
    ]
    assert {s["calls"] for s in steps.values()} == {12}
    assert three["plan_clear"]["calls"] == 12 and three["intent"]["calls"] == 36
    repairs = one.to_dict()["with_repairs"]
    assert repairs["calls"] == 6 * round(12 * 1.1) and repairs["cost_usd"] > one.cost_usd
    assert one.calls == sum(s["calls"] for s in steps.values()) and one.input_tokens > one.output_tokens > 0
    # gpt-4o at [llm.prices]' 2.5 / 10 USD per million tokens
    assert one.cost_usd == pytest.approx((one.input_tokens * 2.5 + one.output_tokens * 10) / 1e6, rel=1e-3)
    assert not (tmp_path / "raw").exists()


def test_the_tokens_come_from_the_rendered_prompts(tmp_path: Path) -> None:
    folder = tmp_path / "prompts"
    shutil.copytree(default_prompts_dir(), folder, ignore=shutil.ignore_patterns("eval"))
    path = folder / "plan_clear.yaml"
    path.write_text(path.read_text().replace("user: |", "user: |\n  " + "Think of the kitchen carefully. " * 50, 1))
    plain = ambiforge.estimate(options(tmp_path)).to_dict()["steps"]
    longer = ambiforge.estimate(options(tmp_path, prompts_dir=str(folder))).to_dict()["steps"]
    assert longer["plan_clear"]["input_tokens"] > plain["plan_clear"]["input_tokens"] + 12 * 300  # 50 x 8 words
    assert longer["indirect"] == plain["indirect"]


def test_a_model_without_a_price_is_named_and_left_out(tmp_path: Path) -> None:
    opts = options(tmp_path)
    assert opts.llm is not None
    steps = {**opts.llm.steps, "intent": opts.llm.steps["intent"].model_copy(update={"model": "my-model"})}
    result = ambiforge.estimate(opts.model_copy(update={"llm": opts.llm.model_copy(update={"steps": steps})}))
    record = result.to_dict()
    assert result.models_without_price == ("my-model",)
    assert record["steps"]["intent"]["cost_usd"] is None and record["per_model"]["openai/my-model"]["cost_usd"] is None
    priced = sum(s["cost_usd"] for name, s in record["steps"].items() if name != "intent")
    assert result.cost_usd == pytest.approx(priced, abs=1e-5)
