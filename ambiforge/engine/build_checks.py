"""A build's options from the configuration and a caller's values, and every check a build runs before any
work: the same for the CLI (``build``, ``serve``) and for a Python caller of :func:`ambiforge.build`, so the
same bad option is the same one-line error either way.

Messages name the command-line option (``--pairs``, ``--provider``): it is the name users meet first, and
the Python API's keyword of the same name is spelled the same without the dashes. Nothing is printed
here: notes (what ``--provider auto`` picked, a catalog too small for the pairs asked) go to ``on_note``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ambiforge.config.build import BuildOptions, build_options
from ambiforge.config.file import MAX_CANDIDATES, MAX_PAIRS, MAX_SEED, Config
from ambiforge.config.llm import LLMConfig
from ambiforge.engine.preflight import check_options, resolve_provider
from ambiforge.errors import ConfigError, GenerationError

Note = Callable[[str], None]


def _ignore(_: str) -> None:
    """No caller to tell."""


def providers() -> tuple[str, ...]:
    """``--provider`` values: the embedded generator, every registered LLM provider, ``llm`` (steps as
    configured) and ``auto`` (ambiforge.llm.providers is the one list of providers)."""
    from ambiforge.llm.providers import names

    return ("offline", "llm", *names(), "auto")


def not_empty(option: str, value: str | None) -> None:
    """An option given as '' (or spaces) is a mistake, not "use the default"."""
    if value is not None and not value.strip():
        raise ConfigError(f"{option}: empty; give a value, or leave the option out for the default")


def check_bounds(
    pairs: int | None = None, candidates: int | None = None, max_cost: float | None = None, seed: int | None = None
) -> None:
    """Numbers with the limit in the message (before pydantic sees them)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"--seed must be between 0 and {MAX_SEED:,} (a 64-bit integer), got {seed}")
    for option, value, limit in (("--pairs", pairs, MAX_PAIRS), ("--candidates", candidates, MAX_CANDIDATES)):
        if value is not None and value < 1:
            raise ConfigError(f"{option} must be at least 1, got {value}")
        if value is not None and value > limit:
            raise ConfigError(f"{option} must be at most {limit:,}, got {value}")
    if max_cost is not None and not (math.isfinite(max_cost) and max_cost >= 0):
        raise ConfigError(f"--max-cost must be a finite number of USD >= 0, got {max_cost}")


def check_dask_address(address: str | None, timeout: float = 5.0) -> None:
    """An existing Dask scheduler must answer now, not after 45 s of connection retries in a task."""
    if not address:
        return
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "tls") or not parts.hostname:
        raise ConfigError(f"--dask-address: expected tcp://HOST:PORT, got {address!r}")
    try:
        port = parts.port or 8786
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            pass
    except ValueError:
        raise ConfigError(f"--dask-address: bad port in {address!r}") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"--dask-address: no Dask scheduler answers at {address} ({reason})") from None


def check_writable(out: Path) -> None:
    """The output folder: a file there, or a folder we cannot write, is one line before any work."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: {out} is a file, not a folder")
    parent = out if out.exists() else next((p for p in out.parents if p.exists()), Path("."))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"--out: cannot write in {parent}")


def check_runner(runner: str, dask_address: str | None) -> None:
    from ambiforge.engine.runners import RUNNERS

    if runner not in RUNNERS:
        raise ConfigError(f"--task-runner must be one of {', '.join(RUNNERS)}, got {runner!r}")
    if dask_address and runner != "dask":
        raise ConfigError(f"--dask-address needs --task-runner dask (the runner is {runner})")
    check_dask_address(dask_address)


def check_catalog(path: str) -> None:
    """A bad catalog fails here, with the file and entry."""
    from ambiforge.catalog import cached_catalog

    try:
        cached_catalog(path)
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: catalog is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the catalog: {exc.strerror or exc}") from None


def with_models(llm: LLMConfig, model: str | None, step_models: Mapping[str, str]) -> LLMConfig:
    """``--model`` puts one model on every step; ``--step-model STEP=MODEL`` then overrides single steps
    (both override ``[llm.steps.*].model``)."""
    unknown = sorted(set(step_models) - set(llm.steps))
    if unknown:
        raise ConfigError(f"--step-model: unknown step {unknown[0]!r} (known: {', '.join(llm.steps)})")
    steps = {}
    for name, settings in llm.steps.items():
        chosen = step_models.get(name) or model
        steps[name] = settings.model_copy(update={"model": chosen}) if chosen else settings
    return llm.model_copy(update={"steps": steps})


def llm_settings(
    requested: str,
    cfg: Config,
    max_cost: float | None = None,
    model: str | None = None,
    step_models: Mapping[str, str] | None = None,
    on_note: Note = _ignore,
    llm: LLMConfig | None = None,
) -> tuple[str, LLMConfig | None]:
    """The provider a build runs with and its LLM settings (``llm``, else the configuration's ``[llm]``):
    every key the steps need is set, and a budget has a price for every model. ``auto`` says what it
    picked through ``on_note``."""
    known = providers()
    base = llm if llm is not None else cfg.llm
    if requested not in known and requested not in base.providers:
        raise ConfigError(f"--provider must be one of {', '.join(known)}, got {requested!r}")
    if max_cost is not None:
        base = base.model_copy(update={"max_cost": max_cost})
    if base.prompts_dir and not Path(base.prompts_dir).is_dir():  # before the prompt files are read for steps
        where = f"{cfg.source}: " if cfg.source else ""
        raise ConfigError(f"{where}llm.prompts_dir: {base.prompts_dir} is not a folder")
    provider, resolved, note = resolve_provider(requested, base)
    if note:
        on_note(note)
    if resolved is None:
        if model or step_models:
            raise ConfigError(f"--model/--step-model need an LLM provider; --provider is {provider}")
        return provider, None
    if llm is None:  # the caller's own settings keep their models
        resolved = with_models(resolved, model, step_models or {})
    resolved.require_keys()
    if resolved.max_cost is not None:
        resolved.require_prices()
    return provider, resolved


def options_from(
    cfg: Config,
    *,
    provider: str | None = None,
    model: str | None = None,
    step_models: Mapping[str, str] | None = None,
    max_cost: float | None = None,
    candidates: int | None = None,
    pairs: int | None = None,
    seed: int | None = None,
    out: str | os.PathLike[str] | None = None,
    type_mix: Mapping[str, float] | None = None,
    catalog: str | os.PathLike[str] | None = None,
    task_runner: str | None = None,
    dask_address: str | None = None,
    config_path: str | None = None,
    on_note: Note = _ignore,
) -> BuildOptions:
    """The options of a build from the configuration and the caller's values, checked before any work
    starts (catalog, provider keys, prompts): one place, so ``build`` and ``serve`` read every section."""
    from ambiforge.ambiguity import check_mix

    check_bounds(pairs=pairs, candidates=candidates, max_cost=max_cost, seed=seed)
    for option, value in (("--provider", provider), ("--model", model), ("--task-runner", task_runner)):
        not_empty(option, value)
    runner = task_runner if task_runner is not None else cfg.build.task_runner
    check_runner(runner, dask_address)
    requested = provider if provider is not None else cfg.build.provider
    chosen, llm = llm_settings(requested, cfg, max_cost, model, step_models, on_note)
    catalog_path = str(catalog) if catalog else cfg.paths.catalog
    check_catalog(catalog_path)
    options = build_options(
        cfg,
        provider=chosen,
        llm=llm,
        candidates=candidates,
        pairs=pairs,
        seed=seed,
        out=str(out) if out else None,
        type_mix=check_mix(dict(type_mix)) if type_mix is not None else None,
        catalog=catalog_path,
        task_runner=runner,
        dask_address=dask_address,
        config_path=config_path,
    )
    return check_options(options, cfg.source)


def preflight(options: BuildOptions, cfg: Config, on_note: Note = _ignore) -> tuple[BuildOptions, list[Any] | None]:
    """What :func:`options_from` checks, on options however they were made (a caller's ``BuildOptions``,
    a deployment's dict), plus the output folder and the reference dataset. Options whose provider needs
    LLM settings and carry none get the configuration's ``[llm]``. Returns the options to run and the
    reference items (None without ``reference``)."""
    check_bounds(pairs=options.pairs, candidates=options.candidates, seed=options.seed)
    not_empty("--provider", options.provider)
    check_runner(options.task_runner, options.dask_address)
    if options.provider != "offline":
        max_cost = options.llm.max_cost if options.llm is not None else None
        chosen, llm = llm_settings(options.provider, cfg, max_cost, on_note=on_note, llm=options.llm)
        options = options.model_copy(update={"provider": chosen, "llm": llm})
    check_catalog(options.catalog)
    check_options(options, cfg.source)
    check_writable(Path(options.out))
    reference = None
    if options.reference:
        from ambiforge import diversity

        reference = diversity.read_reference(options.reference)
    if options.provider == "offline":  # the offline generator's modules: an LLM build never loads them
        from ambiforge.catalog import cached_catalog
        from ambiforge.generation.offline.capacity import estimates, impossible, shortfall

        catalog = cached_catalog(options.catalog)
        found = estimates(options.pairs, options.type_mix, catalog)
        if cannot := impossible(options.pairs, options.type_mix, catalog, found):
            raise GenerationError(cannot)
        if short := shortfall(options.pairs, options.type_mix, catalog, found):
            on_note(f"warning: {short}")
    return options, reference
