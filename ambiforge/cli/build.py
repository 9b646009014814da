"""``ambiforge build``: generate a dataset run into ``raw/<run-id>/``."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ambiforge.cli.common import config_from, console, not_empty, quiet_prefect
from ambiforge.errors import ConfigError
from ambiforge.run.layout import check_run_id, new_run_id

if TYPE_CHECKING:  # imported where used: `ambiforge --help` should not load pydantic models and SDKs
    from ambiforge.config.build import BuildOptions
    from ambiforge.config.file import Config
    from ambiforge.config.llm import LLMConfig


def providers() -> tuple[str, ...]:
    """``--provider`` values: the embedded generator, every registered LLM provider, ``llm`` (steps as
    configured) and ``auto`` (ambiforge.llm.providers is the one list of providers)."""
    from ambiforge.llm.providers import names

    return ("offline", "llm", *names(), "auto")


def parse_mix(text: str) -> dict[str, float]:
    """'preferences=0.5,common_sense_knowledge=0.4,safety=0.1' -> dict."""
    from ambiforge.ambiguity import check_mix

    mix: dict[str, float] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        try:
            if not sep:
                raise ValueError
            share = float(value)
        except ValueError:
            raise ConfigError(f"--type-mix: expected TYPE=SHARE,..., got {part!r}") from None
        if name.strip() in mix:
            raise ConfigError(f"--type-mix: type {name.strip()!r} is given twice; give each type once")
        mix[name.strip()] = share
    shares = check_mix(mix)
    total = sum(mix.values())
    if not math.isclose(total, 1.0, abs_tol=1e-9):
        from ambiforge.cli.common import console

        scaled = ", ".join(f"{t}={mix[t]:g} -> {shares[t]:.3f}" for t in mix)
        console.print(f"ambiforge: warning: --type-mix shares add up to {total:g}, not 1; rescaled: {scaled}")
    return shares


def parse_step_models(values: list[str] | None) -> dict[str, str]:
    """``['plan_clear=gpt-4o-mini', ...]`` -> {step: model}; steps are checked against the LLM settings."""
    models: dict[str, str] = {}
    for value in values or []:
        step, sep, model = value.partition("=")
        if not sep or not step.strip() or not model.strip():
            raise ConfigError(f"--step-model: expected STEP=MODEL, got {value!r}")
        models[step.strip()] = model.strip()
    return models


def with_models(llm: LLMConfig, model: str | None, step_models: dict[str, str]) -> LLMConfig:
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
    step_models: dict[str, str] | None = None,
) -> tuple[str, LLMConfig | None]:
    """The provider a build runs with and its LLM settings, checked before any work starts: every key the
    steps need is set, and a budget has a price for every model. ``auto`` says what it picked."""
    from ambiforge.engine.preflight import resolve_provider

    known = providers()
    if requested not in known and requested not in cfg.llm.providers:
        raise ConfigError(f"--provider must be one of {', '.join(known)}, got {requested!r}")
    llm = cfg.llm if max_cost is None else cfg.llm.model_copy(update={"max_cost": max_cost})
    if llm.prompts_dir and not Path(llm.prompts_dir).is_dir():  # before the prompt files are read for steps
        where = f"{cfg.source}: " if cfg.source else ""
        raise ConfigError(f"{where}llm.prompts_dir: {llm.prompts_dir} is not a folder")
    provider, resolved, note = resolve_provider(requested, llm)
    if note:
        console.print(f"[yellow]{note}[/]")
    if resolved is None:
        if model or step_models:
            raise ConfigError(f"--model/--step-model need an LLM provider; --provider is {provider}")
        return provider, None
    resolved = with_models(resolved, model, step_models or {})
    resolved.require_keys()
    if resolved.max_cost is not None:
        resolved.require_prices()
    return provider, resolved


def build(
    provider: Annotated[
        str | None, typer.Option(help="offline (no key) | llm ([llm.steps]) | openai | mistral | auto")
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="one model for every LLM step (overrides [llm.steps.*].model)")
    ] = None,
    step_model: Annotated[
        list[str] | None,
        typer.Option("--step-model", help="STEP=MODEL, the model of one LLM step; repeatable; wins over --model"),
    ] = None,
    candidates: Annotated[
        int | None, typer.Option(help="ambiguous variants per pair (LLM); the validators keep the best")
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option("--max-cost", help="USD; no new LLM call starts once the run spent it")
    ] = None,
    pairs: Annotated[int | None, typer.Option(help="number of pairs to generate")] = None,
    seed: Annotated[int | None, typer.Option(help="random seed; same seed and run id give the same items")] = None,
    out: Annotated[Path | None, typer.Option(help="folder that holds run folders (default: paths.raw)")] = None,
    run_id: Annotated[str | None, typer.Option("--run-id", help="run folder name (default: time-based)")] = None,
    type_mix: Annotated[
        str | None, typer.Option(help="e.g. preferences=0.5,common_sense_knowledge=0.4,safety=0.1")
    ] = None,
    catalog: Annotated[
        Path | None, typer.Option(help="object catalog YAML (default: packaged kitchen catalog)")
    ] = None,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
    task_runner: Annotated[str | None, typer.Option(help="thread (default) or dask")] = None,
    dask_address: Annotated[str | None, typer.Option(help="Dask scheduler, e.g. tcp://host:8786")] = None,
    verbose: Annotated[bool, typer.Option(help="show Prefect's own logs")] = False,
    reference: Annotated[
        Path | None, typer.Option(help="AmbiK-format CSV whose diversity figures the report shows next to ours")
    ] = None,
    prefect: Annotated[
        bool,
        typer.Option(
            "--prefect",
            help="run as Prefect flows, on a temporary API server unless PREFECT_API_URL is set (default: "
            "only when PREFECT_API_URL is set or the task runner is dask; else the same stages run in-process)",
        ),
    ] = False,
) -> int:
    """Generate PAIRS ambiguous/unambiguous pairs, check them against the item schema and the item rules,
    and write raw/<run-id>/items.jsonl, items.parquet, rejected.jsonl and summary.json. Exit 1 when no
    item was written; 130/143 when interrupted (rerun with the same --run-id to resume)."""
    from ambiforge import api

    # The orchestrator when it is asked for or has somewhere to record the run; then its temporary server
    # (when no API is configured) starts first and warms up while options are checked and the flows load.
    not_empty("--run-id", run_id)
    with contextlib.ExitStack() as stack:
        session = stack.enter_context(api.orchestration(prefect or task_runner == "dask"))
        cfg = config_from(config)
        options = command_options(
            cfg,
            provider=provider,
            model=model,
            step_models=parse_step_models(step_model),
            max_cost=max_cost,
            candidates=candidates,
            pairs=pairs,
            seed=seed,
            out=out,
            type_mix=type_mix,
            catalog=catalog,
            task_runner=task_runner,
            dask_address=dask_address,
            config_path=str(config) if config else cfg.source,
        )
        if session is None and options.task_runner != "thread":  # Dask from the configuration: Prefect's runner
            session = stack.enter_context(api.orchestration(True))
        rid = check_run_id(run_id) if run_id is not None else new_run_id(options.provider, options.seed)
        options = options.model_copy(update={"run_id": rid, "reference": str(reference) if reference else None})
        ref_items = check_reference(options)
        return run_build(options, cfg.paths.annotation, session, verbose, ref_items)


def check_reference(options: BuildOptions) -> list[Any] | None:
    """The reference dataset read before any work (a bad file is one line, exit 2), and a warning when the
    offline catalog cannot make as many distinct pairs as asked."""
    from ambiforge import diversity
    from ambiforge.catalog import cached_catalog
    from ambiforge.generation.offline.capacity import shortfall

    ref_items = diversity.read_reference(options.reference) if options.reference else None
    if options.provider == "offline" and (
        short := shortfall(options.pairs, options.type_mix, cached_catalog(options.catalog))
    ):
        console.print(f"[yellow]warning:[/] {short}")
    return ref_items


def run_build(
    options: BuildOptions,
    annotation_root: str,
    session: Any = None,
    verbose: bool = False,
    reference: list[Any] | None = None,
) -> int:
    """Run the build (:func:`ambiforge.api.build`: on the orchestrator ``session`` when there is one, else
    in-process) with SIGINT/SIGTERM turned into a clean stop: no new LLM call, ``state.json``
    "interrupted", one line, exit 130/143."""
    from ambiforge import api, interrupts
    from ambiforge.engine import state
    from ambiforge.run.layout import run_dir

    rid = options.run_id
    directory = run_dir(options.out, rid)
    check_writable(Path(options.out))
    finishing = threading.Lock()
    server = session.server if session is not None else None

    def finish_interrupted() -> None:
        """Mark the run, stop the server, one line, exit 130/143: from the main thread once Prefect let
        the interrupt through, or from the grace timer if it did not in time. ``os._exit``: Prefect's exit
        handlers would otherwise try to flush logs and events to the server just stopped. The run's files
        are written atomically (and calls.jsonl unbuffered), so nothing of the run is lost."""
        if not finishing.acquire(blocking=False):
            return
        try:
            state.mark_interrupted(directory)
        finally:
            if server is not None:
                server.stop(grace=1.0)
            print(f"ambiforge: interrupted; rerun with --run-id {rid} to resume", file=sys.stderr, flush=True)
            sys.stdout.flush()
            os._exit(interrupts.exit_code())

    def starting(finished: dict[str, Any] | None) -> Any:
        if finished is not None:
            console.print(f"[bold]ambiforge build[/] run [cyan]{rid}[/] is finished with these options")
            return None
        from ambiforge.progress import RichReporter

        console.print(
            f"[bold]ambiforge build[/] run [cyan]{rid}[/]: {options.pairs} pairs, "
            f"provider {options.provider}, seed {options.seed}"
        )
        if session is not None and not verbose:
            quiet_prefect()
        return RichReporter().shown()

    with interrupts.handled(finish_interrupted, grace=3.0):
        try:
            summary = api.build(
                options, annotation_root=annotation_root, reference=reference, orchestration=session, on_start=starting
            )
        except BaseException as exc:
            if not interrupts.stopping() and not isinstance(exc, KeyboardInterrupt | interrupts.Interrupted):
                raise
            interrupts.request_stop()  # a KeyboardInterrupt that did not come through our handler
            finish_interrupted()
            raise  # not reached: finish_interrupted exits (or another thread is exiting)
    print_summary(summary)
    return build_exit_code(summary)


def check_writable(out: Path) -> None:
    """The output folder: a file there, or a folder we cannot write, is one line before any work."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out: {out} is a file, not a folder")
    parent = out if out.exists() else next((p for p in out.parents if p.exists()), Path("."))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(f"--out: cannot write in {parent}")


def command_options(
    cfg: Config,
    *,
    provider: str | None = None,
    model: str | None = None,
    step_models: dict[str, str] | None = None,
    max_cost: float | None = None,
    candidates: int | None = None,
    pairs: int | None = None,
    seed: int | None = None,
    out: Path | None = None,
    type_mix: str | None = None,
    catalog: Path | None = None,
    task_runner: str | None = None,
    dask_address: str | None = None,
    config_path: str | None = None,
) -> BuildOptions:
    """The options of ``build`` and ``serve`` from the configuration and the command line, checked before
    any work starts (catalog, provider keys, prompts): one place, so both commands read every section."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.config.build import build_options
    from ambiforge.engine.preflight import check_options
    from ambiforge.engine.runners import RUNNERS

    check_bounds(pairs=pairs, candidates=candidates, max_cost=max_cost, seed=seed)
    for option, value in (
        ("--provider", provider),
        ("--model", model),
        ("--type-mix", type_mix),
        ("--task-runner", task_runner),
    ):
        not_empty(option, value)
    runner = task_runner if task_runner is not None else cfg.build.task_runner
    if runner not in RUNNERS:
        raise ConfigError(f"--task-runner must be one of {', '.join(RUNNERS)}, got {runner!r}")
    if dask_address and runner != "dask":
        raise ConfigError(f"--dask-address needs --task-runner dask (the runner is {runner})")
    check_dask_address(dask_address)
    requested = provider if provider is not None else cfg.build.provider
    chosen, llm = llm_settings(requested, cfg, max_cost, model, step_models)
    catalog_path = str(catalog) if catalog else cfg.paths.catalog
    try:
        cached_catalog(catalog_path)  # a bad catalog fails here, with the file and entry
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{catalog_path}: catalog is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{catalog_path}: cannot read the catalog: {exc.strerror or exc}") from None
    options = build_options(
        cfg,
        provider=chosen,
        llm=llm,
        candidates=candidates,
        pairs=pairs,
        seed=seed,
        out=str(out) if out else None,
        type_mix=parse_mix(type_mix) if type_mix else None,
        catalog=catalog_path,
        task_runner=runner,
        dask_address=dask_address,
        config_path=config_path,
    )
    return check_options(options, cfg.source)


def check_bounds(
    pairs: int | None = None, candidates: int | None = None, max_cost: float | None = None, seed: int | None = None
) -> None:
    """Numbers from the command line, with the limit in the message (before pydantic sees them)."""
    import math

    from ambiforge.config.file import MAX_CANDIDATES, MAX_PAIRS, MAX_SEED

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


def build_exit_code(summary: dict[str, Any]) -> int:
    """1 when the build wrote no item (every pair rejected, by generation or a gate), else 0."""
    if summary["items_written"] == 0:
        console.print(f"[red]no item written: all {summary['pairs_requested']} pairs were rejected[/]")
        return 1
    return 0


def print_summary(summary: dict[str, Any]) -> None:
    per_type, share = summary["per_type"], summary["type_share"]
    folder = Path(summary["files"]["items_jsonl"]).parent
    console.print(f"[green]wrote {summary['items_written']} items[/] to {folder}")
    for t, c in per_type.items():
        console.print(f"  {t:<24} {c:>6}  ({share[t] * 100:.1f}%)")
    console.print(
        f"  distinct unambiguous tasks {summary['distinct_unambiguous_tasks']}, "
        f"type-token ratio {summary['type_token_ratio']}, rejected {summary['rejected_count']}, "
        f"{summary['seconds']['total']} s"
    )
    if d := summary.get("diversity"):
        console.print(
            f"  diversity: {d['words_per_task']} words/task, vocabulary {d['vocabulary']}, distinct 3-grams "
            f"{d['distinct_3']}, plan steps {d['plan_steps_mean']}, "
            f"end_of_ambiguity >= 3: {d['end_of_ambiguity']['3+']:.0%}"
        )
        if r := d.get("repeats"):
            console.print(
                f"  repeats (first {r['items']} tasks): {r['opener_types']} openers, most common opener "
                f"{r['opener_top_share']:.1%}, closing {r['closing_top_share']:.1%}, 5-gram {r['ngram5_top_share']:.1%}"
            )
    if summary["rejected_count"]:
        console.print(f"  rejected by stage: {json.dumps(summary['rejected_by_stage'])} (see rejected.jsonl)")
    llm = summary.get("llm")
    if llm:
        print_llm(llm)
    validation = summary.get("validation") or {}
    if validation.get("judge_flagged") is not None:
        console.print(f"  judge: {validation['judge_flagged']} pairs flagged (the validation report's Judge section)")
    if validation.get("report_path"):
        # soft_wrap: a path broken over two lines cannot be copied
        console.print(
            f"  validation report: {validation['report_path']} (issues: {validation.get('issues_csv')})",
            soft_wrap=True,
        )


def print_llm(llm: dict[str, Any]) -> None:
    """Calls, cache hits, tokens and cost per step and model, then faults: what a maintainer checks first."""
    from rich.table import Table

    table = Table(title="LLM calls", title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("step / model", no_wrap=True)
    for column in ("calls", "cached", "in tok", "out tok", "USD", "failed"):
        table.add_column(column, justify="right", no_wrap=True)
    sections = [llm["per_step"], llm["per_model"], {"total": llm["totals"]}]
    for number, section in enumerate(sections):
        for name, v in section.items():
            table.add_row(
                name,
                str(v["calls"]),
                str(v["cache_hits"]),
                str(v["input_tokens"]),
                str(v["output_tokens"]),
                f"{v['cost_usd']:.4f}",
                str(v["failed"]),
                end_section=number < len(sections) - 1 and name == list(section)[-1],
            )
    console.print(table)
    faults = llm.get("faults") or {}
    if faults:
        console.print(
            f"  faults met: {json.dumps(faults)}; retried {llm['totals']['retries']} times, "
            f"{llm['totals']['repairs']} repair request(s); see calls.jsonl"
        )
