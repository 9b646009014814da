"""Checks before any work starts that need more than the configuration's own models: the registries
(rule ids in ``[validation] severity``, ambiguity types in the mix, provider kinds), the prompt files (the
LLM steps), the judge's LLM settings and keys. The configuration (:mod:`ambiforge.config`) is plain data
below all of these, so what it cannot know is checked here, with the same one-line messages naming the
file and the key.

Every command calls :func:`check_config` on the configuration it loaded; ``build`` and ``serve`` call
:func:`check_options` on the options they made, and :func:`resolve_provider` for ``--provider``.
"""

from __future__ import annotations

from pathlib import Path

from ambiforge.ambiguity import get as get_type
from ambiforge.ambiguity import types
from ambiforge.config.build import BuildOptions
from ambiforge.config.file import Config
from ambiforge.config.llm import LLMConfig, key_problem
from ambiforge.errors import ConfigError
from ambiforge.llm.prompts import known_steps, load_prompt
from ambiforge.llm.providers import names as provider_names
from ambiforge.validation.rules import all_rules


def check_config(cfg: Config) -> Config:
    """What loading the file could not check: every rule id ``[validation] severity`` names is a rule."""
    unknown = sorted(set(cfg.validation.severity) - set(all_rules()))
    if unknown:
        raise ConfigError(
            f"{cfg.where('validation.severity')}: unknown rule id(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(all_rules()))}"
        )
    return cfg


def required_prompts(options: BuildOptions) -> dict[str, str]:
    """Prompt id -> the configuration key that needs it, for an LLM build: one per step, and the
    ambiguous-variant prompt of every type the mix asks for."""
    needed: dict[str, str] = {}
    for step in known_steps(options.llm.prompts_dir if options.llm else ""):
        if step == "ambiguous_variant":
            for name, share in options.type_mix.items():
                if share > 0:
                    needed[get_type(name).variant_prompt_id] = f"build.type_mix.{name}"
        else:
            needed[step] = f"llm.steps.{step}"
    return needed


def check_options(options: BuildOptions, source: str | None = None) -> BuildOptions:
    """Stop before any work on what would otherwise fail every pair: a registered type's templates file
    that does not parse (an LLM build draws its scenes from the templates too), a prompts folder that does
    not exist, a prompt file missing for a step or a type. One line naming the file and the key."""
    from ambiforge.generation.offline.library import check_templates

    where = f"{source}: " if source else ""
    for name in options.type_mix:
        try:
            get_type(name)
        except ConfigError as exc:
            raise ConfigError(f"{where}build.type_mix.{name}: {exc}") from None
    check_templates()
    check_judge_key(options)
    if options.llm is None:
        return options
    prompts_dir = options.llm.prompts_dir
    if prompts_dir and not Path(prompts_dir).is_dir():
        raise ConfigError(f"{where}llm.prompts_dir: {prompts_dir} is not a folder")
    own = {t.variant_prompt_id: t.prompts_dir for t in types().values()}  # a type folder's own prompts
    for prompt_id, key in required_prompts(options).items():
        try:
            load_prompt(prompt_id, prompts_dir)
        except ConfigError as exc:
            folder = own.get(prompt_id)
            if folder is not None and (folder / f"{prompt_id}.yaml").is_file():
                load_prompt(prompt_id, str(folder))  # a bad file there is an error of its own
                continue
            raise ConfigError(f"{exc} (needed by {key})") from None
    return options


def check_judge_key(options: BuildOptions) -> None:
    """An enabled judge needs its provider's key (also in an offline build): one line before any work."""
    if not options.judge.enabled:
        return
    from ambiforge.judge.stage import judge_llm

    provider = judge_llm(options).providers[options.judge.provider]
    key = provider.api_key()
    if key is None:
        raise ConfigError(
            f"{provider.api_key_env} is not set (needed by [judge], provider {options.judge.provider}). "
            "Set it, or set [judge] enabled = false."
        )
    problem = key_problem(key)
    if problem:
        raise ConfigError(f"{provider.api_key_env}: {problem} (the value is not shown)")


def check_llm(llm: LLMConfig) -> LLMConfig:
    """Every step configured (the steps are those of the prompt files), with a known provider kind."""
    steps = known_steps(llm.prompts_dir)
    missing = [s for s in steps if s not in llm.steps]
    if missing:
        raise ConfigError(f"[llm.steps]: no settings for step(s) {', '.join(missing)}")
    unknown = sorted(set(llm.steps) - set(steps))
    if unknown:
        raise ConfigError(f"[llm.steps]: unknown step(s) {', '.join(unknown)} (known: {', '.join(steps)})")
    for name, provider in llm.providers.items():
        kind = provider.kind or name
        if kind not in provider_names():
            raise ConfigError(
                f"[llm.providers.{name}]: unknown provider kind {kind!r} (known: {', '.join(provider_names())})"
            )
    for step, settings in llm.steps.items():
        if settings.provider not in llm.providers:
            raise ConfigError(
                f"[llm.steps.{step}]: provider {settings.provider!r} is not configured "
                f"(known: {', '.join(sorted(llm.providers))})"
            )
    return llm


def resolve_provider(requested: str, llm: LLMConfig) -> tuple[str, LLMConfig | None, str]:
    """``(provider, llm settings or None, note)`` for a build's ``--provider``.

    ``llm`` follows ``[llm.steps]``; ``openai``/``mistral`` put every step on that provider; ``auto``
    takes ``llm`` when every key it needs is set, else one provider whose key is set, else ``offline``,
    and the note says which and why.
    """
    if requested == "offline":  # the offline generator needs no [llm] step settings
        return "offline", None, ""
    llm = check_llm(llm)
    if requested == "llm":
        return "llm", llm, ""
    if requested in llm.providers:
        return requested, llm.all_on(requested), ""
    if requested != "auto":
        known = ", ".join(("offline", "llm", *llm.providers, "auto"))
        raise ConfigError(f"--provider must be one of {known}; got {requested!r}")
    if not llm.missing_keys():
        return "llm", llm, "--provider auto: every key is set; steps follow [llm.steps]"
    for name in llm.providers_used():
        if llm.providers[name].api_key():
            missing = ", ".join(sorted(llm.missing_keys()))
            return name, llm.all_on(name), f"--provider auto: {missing} not set; every step runs on {name}"
    keys = ", ".join(sorted({p.api_key_env for p in llm.providers.values()}))
    return "offline", None, f"--provider auto: no API key set ({keys}); using the offline generator"
