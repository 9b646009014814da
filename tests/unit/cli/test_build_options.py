"""``build`` and ``serve`` read the whole configuration, check it before any work, and choose models."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from ambiforge.cli.main import main
from ambiforge.config.file import Config, load_config
from ambiforge.errors import ConfigError
from ambiforge.resources import prompts_dir


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("MISTRAL_API_KEY", "sk-test")


def test_a_missing_prompt_stops_the_build_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], keys: None
) -> None:
    prompts = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), prompts)
    (prompts / "plan_clear.yaml").unlink()
    config = tmp_path / "ambiforge.toml"
    config.write_text(f'[llm]\nprompts_dir = "{prompts}"\n')
    code = main(["build", "--provider", "openai", "--config", str(config), "--out", str(tmp_path / "raw")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.splitlines() == [
        f"ambiforge: error: {prompts / 'plan_clear.yaml'}: prompt template not found (needed by llm.steps.plan_clear)"
    ]
    assert not (tmp_path / "raw").exists()  # stopped before any work


def test_a_missing_prompts_dir_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str], keys: None) -> None:
    config = tmp_path / "ambiforge.toml"
    config.write_text('[llm]\nprompts_dir = "/nonexistent/prompts"\n')
    assert main(["build", "--provider", "openai", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"ambiforge: error: {config}: llm.prompts_dir: /nonexistent/prompts is not a folder"


def test_model_and_step_model_override_the_configured_models(keys: None) -> None:
    from ambiforge.cli.build import command_options

    cfg = Config()  # defaults
    options = command_options(cfg, provider="openai", model="qwen2.5-0.5b", step_models={"intent": "tiny"})
    assert options.llm is not None
    models = {step: s.model for step, s in options.llm.steps.items()}
    assert models.pop("intent") == "tiny"
    assert set(models.values()) == {"qwen2.5-0.5b"}
    options = command_options(cfg, provider="llm", step_models={"plan_clear": "small"})
    assert options.llm is not None
    assert options.llm.steps["plan_clear"].model == "small"
    assert options.llm.steps["unambiguous_task"].model == "mistral-large-latest"  # the rest as configured


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--step-model", "plan_clear"], "--step-model: expected STEP=MODEL, got 'plan_clear'"),
        (["--step-model", "judge=x"], "--step-model: unknown step 'judge'"),
        (["--provider", "offline", "--model", "x"], "--model/--step-model need an LLM provider"),
    ],
)
def test_bad_model_options_exit_2(capsys: pytest.CaptureFixture[str], keys: None, args: list[str], needle: str) -> None:
    if "--provider" not in args:
        args = ["--provider", "openai", *args]
    assert main(["build", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err


def test_serve_honours_the_sampler_and_validation_sections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import flows.deployments as deployments

    served: dict[str, Any] = {}

    def fake_serve(cron: str, options: Any, name: str) -> None:
        served["deployment"] = deployments.build_deployment(cron, options, name)

    monkeypatch.setattr(deployments, "serve_build", fake_serve)
    config = tmp_path / "ambiforge.toml"
    config.write_text("[sampler]\nfood_groups = [1, 3]\nitem_groups = [2, 2]\n[validation]\nmax_plan_steps = 5\n")
    assert main(["serve", "--cron", "0 3 * * *", "--config", str(config), "--pairs", "12"]) == 0
    params = served["deployment"].parameters["options"]
    assert params["sampler"] == {"food_groups": [1, 3], "item_groups": [2, 2], "per_group": [3, 5]}
    assert params["validation"]["max_plan_steps"] == 5
    assert params["pairs"] == 12 and params["run_id"] == ""


def test_build_exit_code_is_1_without_items() -> None:
    from ambiforge.cli.build import build_exit_code

    assert build_exit_code({"items_written": 0, "pairs_requested": 5}) == 1
    assert build_exit_code({"items_written": 3, "pairs_requested": 5}) == 0


def test_build_exit_code_is_1_naming_the_type_whose_pairs_were_rejected_past_the_mix() -> None:
    from ambiforge.cli.build import build_exit_code
    from ambiforge.engine.summary import mix_missed

    reason = "pair 7: no absence pair found in 200 sampled scenes"
    summary = {
        "items_written": 170,
        "pairs_requested": 200,
        "planned_per_type": {"multiplicity": 100, "absence": 100},
        "per_type": {"multiplicity": 100, "absence": 70},
        "rejected": [{"ambiguity_type": "absence", "stage": "generate", "reason": reason}] * 30,
    }
    message = mix_missed(summary)
    assert message is not None and "absence: 30 of 100 planned pairs not generated (15.0 points" in message
    assert reason in message and "multiplicity" not in message
    assert build_exit_code(summary) == 1
    within = {**summary, "rejected": summary["rejected"][:10], "items_written": 190}
    assert mix_missed(within) is None and build_exit_code(within) == 0


def test_an_unknown_type_in_the_configured_mix_names_the_key(tmp_path: Path) -> None:
    config = tmp_path / "ambiforge.toml"
    config.write_text("[build.type_mix]\nirony = 1.0\n")
    with pytest.raises(ConfigError, match=r"build.type_mix: .*unknown ambiguity type 'irony'"):
        load_config(config)
