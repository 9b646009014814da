"""``[judge]``: defaults, the resolved agents, the fingerprint, and one line naming the key for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.config.build import build_options
from ambiforge.config.file import load_config
from ambiforge.engine.fingerprint import fingerprint_material
from ambiforge.engine.preflight import check_options
from ambiforge.errors import ConfigError


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ambiforge.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_judge_is_off_by_default_and_leaves_the_fingerprint_alone(tmp_path: Path) -> None:
    cfg = load_config(config_file(tmp_path, "[build]\npairs = 3\n"))
    assert cfg.judge.enabled is False
    options = build_options(cfg)
    material = fingerprint_material(options)
    assert "judge" not in material["options"] and "judge" not in material["stages"]


def test_enabled_judge_defaults_to_three_agents_of_the_provider_default_model(tmp_path: Path) -> None:
    cfg = load_config(config_file(tmp_path, "[judge]\nenabled = true\nrounds = 3\n"))
    options = build_options(cfg)
    default = cfg.llm.providers["openai"].default_model
    assert options.judge.agents == (default, default, default)
    assert options.judge.methods == ("debate", "dialogue") and options.judge.rounds == 3
    assert options.judge_llm is not None  # an offline build still knows where the judge's provider is
    assert all(options.judge.severity_of(c) == "warning" for c in ("clear_judged_ambiguous", "debate_error"))
    material = fingerprint_material(options)
    assert material["stages"]["judge"] == "1" and material["options"]["judge"]["models"] == [default] * 3
    assert "judge_llm" not in material["options"]


def test_configured_models_and_severities_are_kept(tmp_path: Path) -> None:
    text = (
        '[judge]\nenabled = true\nmodels = ["a", "b"]\nmethods = ["debate"]\nuser = "llm"\n'
        'severity = { clear_judged_ambiguous = "error" }\n'
    )
    options = build_options(load_config(config_file(tmp_path, text)))
    assert options.judge.agents == ("a", "b") and options.judge.methods == ("debate",)
    assert options.judge.severity_of("clear_judged_ambiguous") == "error"
    assert options.judge.severity_of("question_not_answered") == "warning"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("colour = 1", "judge.colour"),
        ("rounds = 6", "judge.rounds"),
        ("rounds = 0", "judge.rounds"),
        ('user = "robot"', "judge.user"),
        ('methods = ["vote"]', "judge.methods"),
        ("methods = []", "judge.methods"),
        ('models = [""]', "judge.models"),
        ('severity = { clear_judged_ambigous = "error" }', "judge.severity"),
        ('severity = { clear_judged_ambiguous = "fatal" }', "judge.severity.clear_judged_ambiguous"),
        ('provider = "nowhere"', "judge.provider"),
        ('enabled = "yes please"', "judge.enabled"),
        ('models = ["only-one"]', "judge"),
        ('personas = ["careful", "", "quick"]', "judge.personas"),
        ('personas = ["careful", "quick"]', "judge.personas"),  # three agents without models
        ('models = ["a", "b"]\npersonas = ["careful", "quick", "third"]', "judge.personas"),
        (f'personas = ["{"x" * 501}", "b", "c"]', "judge.personas"),
        ("personas = 3", "judge.personas"),
    ],
)
def test_bad_judge_values_are_one_line_naming_the_key(tmp_path: Path, text: str, key: str) -> None:
    path = config_file(tmp_path, f"[judge]\n{text}\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert f"{path}: {key}:" in message and "\n" not in message


def test_personas_are_kept_one_per_agent_and_fingerprinted_only_when_set(tmp_path: Path) -> None:
    text = '[judge]\nenabled = true\npersonas = ["careful", "quick", "pedantic"]\n'
    options = build_options(load_config(config_file(tmp_path, text)))
    assert options.judge.personas == ("careful", "quick", "pedantic") and len(options.judge.agents) == 3
    assert fingerprint_material(options)["options"]["judge"]["personas"] == ["careful", "quick", "pedantic"]
    two = build_options(load_config(config_file(tmp_path, text.replace('"pedantic"]', ']\nmodels = ["a", "b"]'))))
    assert two.judge.personas == ("careful", "quick") and two.judge.agents == ("a", "b")
    plain = build_options(load_config(config_file(tmp_path, "[judge]\nenabled = true\n")))
    # none set: not in the dump, so runs judged before personas existed keep fingerprint and judgement keys
    assert "personas" not in fingerprint_material(plain)["options"]["judge"]
    assert "personas" not in plain.judge.model_dump()


def test_bad_personas_message_says_the_rule(tmp_path: Path) -> None:
    path = config_file(tmp_path, '[judge]\npersonas = ["careful", "quick"]\n')
    with pytest.raises(
        ConfigError, match=r"judge.personas: 2 persona\(s\) for 3 agents \(the default without models\)"
    ):
        load_config(path)
    path = config_file(tmp_path, f'[judge]\npersonas = ["{"x" * 501}", "b", "c"]\n')
    with pytest.raises(ConfigError, match="judge.personas: persona 1 has 501 characters \\(at most 500\\)"):
        load_config(path)


def test_an_enabled_judge_needs_its_provider_key_before_any_work(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    options = build_options(load_config(config_file(tmp_path, "[judge]\nenabled = true\n")))
    with pytest.raises(ConfigError, match=r"OPENAI_API_KEY is not set \(needed by \[judge\]"):
        check_options(options)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert check_options(options) is options
    monkeypatch.setenv("OPENAI_API_KEY", "sk test")
    with pytest.raises(ConfigError, match="OPENAI_API_KEY: the key contains white space"):
        check_options(options)


def test_every_check_of_judge_pair_has_a_meaning_for_the_report() -> None:
    from ambiforge.config.judge import FLAGS
    from ambiforge.judge.checks import CHECKS

    assert set(CHECKS) == set(FLAGS)


def test_the_cli_exits_2_with_one_line_and_a_deployment_carries_the_judge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import flows.deployments as deployments
    from ambiforge.cli.main import main

    served: dict[str, object] = {}
    monkeypatch.setattr(
        deployments,
        "serve_build",
        lambda cron, options, name: served.update(d=deployments.build_deployment(cron, options, name)),
    )
    bad = config_file(tmp_path, "[judge]\nenabled = true\nrounds = 9\n")
    assert main(["serve", "--cron", "0 3 * * *", "--config", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ambiforge: error:") and "judge.rounds" in err and len(err.splitlines()) == 1

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    good = config_file(tmp_path, '[judge]\nenabled = true\nmodels = ["a", "b", "c"]\n')
    assert main(["serve", "--cron", "0 3 * * *", "--config", str(good), "--pairs", "4"]) == 0
    params = served["d"].parameters["options"]  # type: ignore[attr-defined]
    assert params["judge"]["enabled"] is True and params["judge"]["models"] == ["a", "b", "c"]
    assert params["judge_llm"]["providers"]["openai"]["api_key_env"] == "OPENAI_API_KEY"  # names, never keys
