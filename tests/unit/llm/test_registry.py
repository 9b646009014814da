"""Extension points of the LLM layer: a provider is one entry point (or one ``register`` call), the steps are
read from the prompt files, and candidates are chosen with every item rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge import redaction
from ambiforge.config.llm import LLMConfig, StepSettings
from ambiforge.engine.preflight import check_llm, resolve_provider
from ambiforge.errors import ConfigError
from ambiforge.generation.llm.selection import Candidate, choose
from ambiforge.llm import providers
from ambiforge.llm.client import make_provider
from ambiforge.llm.prompts import known_steps
from ambiforge.llm.providers import ChatReply, ChatRequest, Choice, ProviderSpec
from ambiforge.models import RuleFailure


class EchoProvider:
    name = "echo"

    def __init__(self, api_key: str, base_url: str | None, timeout: float) -> None:
        self.base_url = base_url

    def complete(self, request: ChatRequest) -> ChatReply:
        return ChatReply((Choice(request.messages[-1][1], "stop"),), 1, 1, request.model, 0.0)


def test_the_built_in_providers_are_found_from_their_entry_points() -> None:
    assert {"openai", "mistral"} <= set(providers.names())
    assert providers.get("openai").api_key_env == "OPENAI_API_KEY"
    assert set(LLMConfig().providers) == set(providers.names())
    with pytest.raises(ConfigError, match="unknown LLM provider 'nope'"):
        providers.get("nope")


def test_a_registered_provider_is_configured_chosen_and_made_without_other_edits(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    spec = ProviderSpec("echo", "ECHO_API_KEY", "ECHO_BASE_URL", "echo-1", EchoProvider)
    providers.register(spec)
    request.addfinalizer(lambda: providers.PROVIDERS.unregister("echo"))
    monkeypatch.setenv("ECHO_API_KEY", "k")
    monkeypatch.setenv("ECHO_BASE_URL", "http://127.0.0.1:1/v1")
    llm = LLMConfig()
    assert llm.providers["echo"].default_model == "echo-1"
    chosen, settings, _ = resolve_provider("echo", llm)
    assert chosen == "echo" and settings is not None
    assert {s.model for s in settings.steps.values()} == {"echo-1"}
    made = make_provider("echo", settings)
    assert isinstance(made, EchoProvider) and made.base_url == "http://127.0.0.1:1/v1"
    assert "ECHO_API_KEY" in redaction.secret_env_names()  # a registered provider's key is a secret


def test_a_provider_section_may_name_the_kind_that_serves_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from ambiforge.config.llm import ProviderSettings

    local = ProviderSettings(api_key_env="LOCAL_KEY", base_url_env="LOCAL_URL", default_model="m", kind="openai")
    llm = check_llm(LLMConfig(providers={**LLMConfig().providers, "local": local}))
    monkeypatch.setenv("LOCAL_KEY", "k")
    assert type(make_provider("local", llm)).__name__ == "OpenAIProvider"
    bad = ProviderSettings(api_key_env="X", base_url_env="Y", default_model="m", kind="smoke-signals")
    with pytest.raises(ConfigError, match=r"\[llm.providers.odd\]: unknown provider kind 'smoke-signals'"):
        check_llm(LLMConfig(providers={**LLMConfig().providers, "odd": bad}))


def test_the_steps_are_read_from_the_prompt_files(tmp_path: Path) -> None:
    assert known_steps() == (
        "unambiguous_task",
        "indirect",
        "plan_clear",
        "ambiguous_variant",
        "plan_ambiguous",
        "intent",
    )
    (tmp_path / "judge.yaml").write_text(
        "id: judge\nversion: 1\nschema: plan\nstep: judge\norder: 9\nsystem: s\nuser: u\n"
    )
    assert known_steps(str(tmp_path))[-1] == "judge"
    steps = {**LLMConfig().steps}
    with pytest.raises(ConfigError, match="no settings for step\\(s\\) judge"):
        check_llm(LLMConfig(prompts_dir=str(tmp_path), steps=steps))
    steps["judge"] = StepSettings(provider="openai", model="gpt-4o")
    assert check_llm(LLMConfig(prompts_dir=str(tmp_path), steps=steps))


def failure(rule: str, severity: str) -> RuleFailure:
    return RuleFailure(rule=rule, severity=severity, message="m")  # type: ignore[arg-type]


def test_errors_weigh_more_than_warnings_when_choosing_a_candidate() -> None:
    item = object()
    two_warnings = Candidate(0, item=item, failures=[failure("hygiene", "warning"), failure("plan", "warning")])  # type: ignore[arg-type]
    one_error = Candidate(1, item=item, failures=[failure("grounding", "error")])  # type: ignore[arg-type]
    failed = Candidate(2, error="step intent: no valid reply")
    assert choose([one_error, two_warnings, failed]) is two_warnings
    assert choose([failed]) is None
    clean = Candidate(3, item=item)  # type: ignore[arg-type]
    assert choose([two_warnings, clean]) is clean
    assert two_warnings.rank == (0, 2, 0) and one_error.rank == (1, 0, 1)
