"""``[llm]`` in ambiforge.toml: which provider and model serves each step, limits, retries, prices.

Secrets are not configuration: keys come only from the environment variable each provider names, and no
model of this module ever holds one, so dumping options into a summary or a Prefect parameter is safe.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from ambiforge.errors import ConfigError


class _Section(BaseModel):
    # No inf/nan: an infinite timeout or backoff would hang a build, a nan price would poison the budget.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ProviderSettings(_Section):
    api_key_env: str
    base_url_env: str
    base_url: str = ""  # empty: $<base_url_env>, else the SDK's own default endpoint
    default_model: str
    kind: str = ""  # the registered provider that serves it (empty: the section's own name)

    @model_validator(mode="before")
    @classmethod
    def _known_kind(cls, value: Any) -> Any:
        """A section naming an unknown ``kind`` and lacking keys is reported for its kind, not for the keys
        (``base_url_env: Field required``); a complete one is checked before any work
        (:func:`ambiforge.engine.preflight.check_llm`), with the same words."""
        from ambiforge.config.providers import specs

        kind = value.get("kind") if isinstance(value, dict) else None
        required = ("api_key_env", "base_url_env", "default_model")
        if isinstance(kind, str) and kind and kind not in specs() and not all(k in value for k in required):
            raise ValueError(f"unknown provider kind {kind!r} (known: {', '.join(specs())})")
        return value

    def model_post_init(self, context: object) -> None:
        """A configured key variable's value is a secret wherever it would be printed or logged."""
        from ambiforge.redaction import register_env

        register_env(self.api_key_env)

    def api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None

    def endpoint(self) -> str | None:
        return self.base_url or os.environ.get(self.base_url_env) or None


class StepSettings(_Section):
    provider: str
    model: str
    temperature: float = Field(default=0.2, ge=0, le=2)
    max_tokens: int = Field(default=800, ge=1, le=1_000_000)


class Price(_Section):
    """USD per million tokens."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


def _default_providers() -> dict[str, ProviderSettings]:
    """One section per registered provider (:mod:`ambiforge.llm.providers`)."""
    from ambiforge.config.providers import specs

    return {
        spec.name: ProviderSettings(
            api_key_env=spec.api_key_env, base_url_env=spec.base_url_env, default_model=spec.default_model
        )
        for spec in specs().values()
    }


def _default_steps() -> dict[str, StepSettings]:
    """As AmbiK was made: Mistral wrote the unambiguous tasks, ChatGPT the rest."""
    openai = {"provider": "openai", "model": "gpt-4o"}
    return {
        "unambiguous_task": StepSettings(provider="mistral", model="mistral-large-latest", temperature=0.9),
        "indirect": StepSettings(**openai, temperature=0.7),
        "plan_clear": StepSettings(**openai),
        "ambiguous_variant": StepSettings(**openai, temperature=0.8),
        "plan_ambiguous": StepSettings(**openai),
        "intent": StepSettings(**openai),
    }


def _default_prices() -> dict[str, Price]:
    """List prices per million tokens when this table was written; edit them in ambiforge.toml."""
    return {
        "gpt-4o": Price(input=2.5, output=10.0),
        "gpt-4o-mini": Price(input=0.15, output=0.6),
        "mistral-large-latest": Price(input=2.0, output=6.0),
        "mistral-small-latest": Price(input=0.1, output=0.3),
    }


class LLMConfig(_Section):
    concurrency: int = Field(default=8, ge=1, description="calls in flight at once, across all workers")
    rpm: int = Field(default=300, ge=0, description="requests per minute across all workers; 0: no limit")
    max_retries: int = Field(default=4, ge=0, description="retries of a call on 429, 5xx, timeouts")
    backoff_seconds: float = Field(default=1.0, ge=0, description="first retry wait; doubles each retry")
    max_backoff_seconds: float = Field(default=30.0, ge=0)
    timeout_seconds: float = Field(
        default=60.0, gt=0, description="the deadline of one request: connecting, waiting and the whole reply"
    )
    max_reply_bytes: int = Field(
        default=32 * 1024 * 1024, ge=1024, le=1 << 40, description="the most bytes one reply may have"
    )
    max_repairs: int = Field(default=2, ge=0, description="re-asks with the error when a reply is not valid")
    response_format: Literal["json_schema", "json_object"] = "json_schema"
    max_cost: float | None = Field(default=None, ge=0, description="USD; no new paid call once reached")
    cache_dir: str = ""  # empty: <paths.raw>/.llm-cache (shared by all runs)
    prompts_dir: str = ""  # empty: the repository's prompts/
    providers: dict[str, ProviderSettings] = Field(default_factory=_default_providers)
    steps: dict[str, StepSettings] = Field(default_factory=_default_steps)
    prices: dict[str, Price] = Field(default_factory=_default_prices)

    @field_validator("providers", "steps", mode="before")
    @classmethod
    def _over_defaults(cls, value: Any, info: ValidationInfo) -> Any:
        """A table names only what it changes: ``[llm.steps.plan_clear] model = "gpt-4o-mini"`` keeps the
        other steps and the step's provider and temperature; a provider section likewise keeps its key
        variable. A section with no default (a step of your own prompts, a provider of your own) must be
        complete."""
        if not isinstance(value, dict):
            return value
        defaults = _default_providers() if info.field_name == "providers" else _default_steps()
        merged: dict[Any, Any] = {name: d.model_dump() for name, d in defaults.items()}
        for name, section in value.items():
            if isinstance(section, dict) and name in merged:
                merged[name] = merged[name] | section
            else:
                merged[name] = section
        return merged

    @field_validator("prices", mode="before")
    @classmethod
    def _prices_over_defaults(cls, value: Any) -> Any:
        """``[llm.prices."my-model"]`` adds a price; the listed models keep theirs unless overridden."""
        if not isinstance(value, dict):
            return value
        return {name: p.model_dump() for name, p in _default_prices().items()} | value

    def providers_used(self) -> list[str]:
        return sorted({s.provider for s in self.steps.values()})

    def all_on(self, provider: str) -> LLMConfig:
        """Every step on one provider (``--provider openai``), each with that provider's default model."""
        if provider not in self.providers:
            raise ConfigError(f"provider {provider!r} is not configured in [llm.providers]")
        model = self.providers[provider].default_model
        steps = {
            name: s.model_copy(update={"provider": provider, "model": model if s.provider != provider else s.model})
            for name, s in self.steps.items()
        }
        return self.model_copy(update={"steps": steps})

    def missing_keys(self) -> dict[str, list[str]]:
        """Environment variable -> the steps that need it, for each key that is not set."""
        missing: dict[str, list[str]] = {}
        for step, settings in self.steps.items():
            provider = self.providers[settings.provider]
            if provider.api_key() is None:
                missing.setdefault(provider.api_key_env, []).append(step)
        return missing

    def require_keys(self) -> None:
        """Fail before any work when a configured provider has no key, or a key that cannot be one.

        A key goes into an HTTP header: with a non-ASCII character the SDK's HTTP client fails deep inside
        the request with an error that quotes the header, key included, into tracebacks and Prefect's
        database. So keys are checked here, and the message names the variable, never the value."""
        missing = self.missing_keys()
        if missing:
            parts = [f"{env} is not set (needed by {', '.join(steps)})" for env, steps in sorted(missing.items())]
            raise ConfigError("; ".join(parts) + ". Set it, or use --provider offline.")
        for env in sorted({self.providers[s.provider].api_key_env for s in self.steps.values()}):
            problem = key_problem(os.environ.get(env, ""))
            if problem:
                raise ConfigError(f"{env}: {problem} (the value is not shown)")

    def require_prices(self) -> None:
        """A budget cap needs a price for every model that may be called."""
        unpriced = sorted({s.model for s in self.steps.values() if s.model not in self.prices})
        if unpriced:
            raise ConfigError(
                f"--max-cost needs a price for every model; add [llm.prices] entries for {', '.join(unpriced)}"
            )


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be an API key (printable ASCII without spaces), or None."""
    if any(c.isspace() for c in key):
        return "the key contains white space (a stray newline or space when it was pasted?)"
    if not all(33 <= ord(c) < 127 for c in key):
        return "the key contains a character that is not printable ASCII"
    return None
