"""Checks before any work starts that need more than the configuration's own models: the registries
(rule ids in ``[validation] severity``, ambiguity types in the mix), the prompt files, the judge's LLM
settings and keys. The configuration (:mod:`ambiforge.config`) is plain data below all of these, so what
it cannot know is checked here, with the same one-line messages naming the file and the key.

Every command calls :func:`check_config` on the configuration it loaded; ``build`` and ``serve`` call
:func:`check_options` on the options they made.
"""

from __future__ import annotations

from pathlib import Path

from ambiforge.ambiguity import get as get_type
from ambiforge.ambiguity import types
from ambiforge.config.build import BuildOptions
from ambiforge.config.file import Config
from ambiforge.config.llm import key_problem
from ambiforge.errors import ConfigError
from ambiforge.llm.prompts import known_steps, load_prompt
from ambiforge.validation.rules import ALL_RULES


def check_config(cfg: Config) -> Config:
    """What loading the file could not check: every rule id ``[validation] severity`` names is a rule."""
    unknown = sorted(set(cfg.validation.severity) - set(ALL_RULES))
    if unknown:
        raise ConfigError(
            f"{cfg.where('validation.severity')}: unknown rule id(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(ALL_RULES))}"
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
    """Stop before any work on what would otherwise fail every pair: a prompts folder that does not
    exist, a prompt file missing for a step or a type. One line naming the file and the key."""
    where = f"{source}: " if source else ""
    for name in options.type_mix:
        try:
            get_type(name)
        except ConfigError as exc:
            raise ConfigError(f"{where}build.type_mix.{name}: {exc}") from None
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
