"""``ambiforge build``: generate a dataset run into ``raw/<run-id>/``."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ambiforge.cli.common import config_from, console, not_empty, quiet_prefect
from ambiforge.errors import ConfigError
from ambiforge.run.layout import check_run_id, new_run_id

if TYPE_CHECKING:  # imported where used: `ambiforge --help` should not load pydantic models and SDKs
    from ambiforge.config.build import BuildOptions
    from ambiforge.config.file import Config


def providers() -> tuple[str, ...]:
    """``--provider`` values (:func:`ambiforge.engine.build_checks.providers`)."""
    from ambiforge.engine.build_checks import providers as known

    return known()


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


def _note(text: str) -> None:
    """A note from the API's checks (what ``--provider auto`` picked; a warning) on the console."""
    if text.startswith("warning: "):
        console.print(f"[yellow]warning:[/] {text.removeprefix('warning: ')}")
    else:
        console.print(f"[yellow]{text}[/]")


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
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="print the calls, tokens and cost per step and model this build would spend, and exit"
        ),
    ] = False,
) -> int:
    """Generate PAIRS ambiguous/unambiguous pairs, check them against the item schema and the item rules,
    and write raw/<run-id>/items.jsonl, items.parquet, rejected.jsonl and summary.json. Exit 1 when no
    item was written, or (offline) when generation lost a type more than 5 points of its mix; 130/143 when
    interrupted (rerun with the same --run-id to resume)."""
    from ambiforge import api

    # The orchestrator when it is asked for or has somewhere to record the run; then its temporary server
    # (when no API is configured) starts first and warms up while options are checked and the flows load.
    not_empty("--run-id", run_id)
    with contextlib.ExitStack() as stack:
        session = stack.enter_context(api.orchestration((prefect or task_runner == "dask") and not dry_run))
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
        if dry_run:
            print_estimate(api.estimate(options, config=cfg).to_dict())
            return 0
        if session is None and options.task_runner != "thread":  # Dask from the configuration: Prefect's runner
            session = stack.enter_context(api.orchestration(True))
        rid = check_run_id(run_id) if run_id is not None else new_run_id(options.provider, options.seed)
        options = options.model_copy(update={"run_id": rid, "reference": str(reference) if reference else None})
        return run_build(options, cfg.paths.annotation, session, verbose, cfg)


def run_build(
    options: BuildOptions,
    annotation_root: str,
    session: Any = None,
    verbose: bool = False,
    config: Config | None = None,
) -> int:
    """Run the build (:func:`ambiforge.api.build`: on the orchestrator ``session`` when there is one, else
    in-process) with SIGINT/SIGTERM turned into a clean stop: no new LLM call, ``state.json``
    "interrupted", one line, exit 130/143."""
    from ambiforge import api, interrupts
    from ambiforge.engine import state
    from ambiforge.run.layout import run_dir

    rid = options.run_id
    directory = run_dir(options.out, rid)
    server = session.server if session is not None else None

    def finish_interrupted() -> None:
        """Mark the run, stop the server, one line, exit 130/143: from the main thread once Prefect let
        the interrupt through, or from the grace timer if it did not in time. ``os._exit``: Prefect's exit
        handlers would otherwise try to flush logs and events to the server just stopped. The run's files
        are written atomically (and calls.jsonl unbuffered), so nothing of the run is lost."""
        try:
            state.mark_interrupted(directory)
        finally:
            if server is not None:
                server.stop(grace=1.0)
            print(f"ambiforge: interrupted; rerun with --run-id {rid} to resume", file=sys.stderr, flush=True)
            sys.stdout.flush()
            os._exit(interrupts.exit_code())

    finish = interrupts.once(finish_interrupted)

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

    with interrupts.handled(finish, grace=2.0):
        try:
            result = api.build(
                options,
                annotation_root=annotation_root,
                orchestration=session,
                on_start=starting,
                on_note=_note,
                config=config,
            )
        except BaseException as exc:
            if not interrupts.stopping() and not isinstance(exc, KeyboardInterrupt | interrupts.Interrupted):
                raise
            interrupts.request_stop()  # a KeyboardInterrupt that did not come through our handler
            finish()
            raise  # not reached: finish_interrupted exits (or another thread is exiting)
    summary = result.to_dict()
    print_summary(summary)
    return build_exit_code(summary)


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
    """The options of ``build`` and ``serve`` from the command line: parsed here, merged with the
    configuration and checked by :func:`ambiforge.api.build_options`."""
    from ambiforge import api
    from ambiforge.engine.build_checks import check_bounds

    check_bounds(pairs=pairs, candidates=candidates, max_cost=max_cost, seed=seed)
    for option, value in (
        ("--provider", provider),
        ("--model", model),
        ("--type-mix", type_mix),
        ("--task-runner", task_runner),
    ):
        not_empty(option, value)
    options = api.build_options(
        cfg,
        provider=provider,
        model=model,
        step_models=step_models,
        max_cost=max_cost,
        candidates=candidates,
        pairs=pairs,
        seed=seed,
        out=out,
        type_mix=parse_mix(type_mix) if type_mix else None,
        catalog=catalog,
        task_runner=task_runner,
        dask_address=dask_address,
        on_note=_note,
    )
    return options.model_copy(update={"config_path": config_path}) if config_path else options


def build_exit_code(summary: dict[str, Any]) -> int:
    """1 when the build wrote no item (every pair rejected, by generation or a gate), or when a type's share of
    the items written falls more than 5 points below the mix asked for (naming the type and why its pairs were
    rejected), else 0."""
    from ambiforge.engine.summary import mix_missed

    if summary["items_written"] == 0:
        console.print(f"[red]no item written: all {summary['pairs_requested']} pairs were rejected[/]")
        return 1
    if missed := mix_missed(summary):
        console.print(f"[red]{missed}[/]")
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


def print_estimate(estimate: dict[str, Any]) -> None:
    """The dry run's table: what each step and model would cost, the total, and what the figures assume."""
    from rich.table import Table

    if not estimate["steps"]:
        console.print(f"provider {estimate['provider']}: no LLM calls, no cost (nothing was generated)")
        return
    table = Table(
        title=f"Estimate for {estimate['pairs']} pairs, {estimate['candidates']} candidate(s) (nothing was called)",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("step / model", no_wrap=True)
    for column in ("calls", "in tok", "out tok", "USD"):
        table.add_column(column, justify="right", no_wrap=True)
    steps = {f"{name} ({v['model']})": v for name, v in estimate["steps"].items()}
    sections = [steps, estimate["per_model"], {"total": estimate["totals"]}]
    for number, section in enumerate(sections):
        for name, v in section.items():
            cost = "no price" if v["cost_usd"] is None else f"{v['cost_usd']:.4f}"
            table.add_row(
                name,
                str(v["calls"]),
                str(v["input_tokens"]),
                str(v["output_tokens"]),
                cost,
                end_section=number < len(sections) - 1 and name == list(section)[-1],
            )
    console.print(table)
    for model in estimate["models_without_price"]:
        console.print(f"  model {model} has no price in \\[llm.prices]: its calls are not in the total (USD 0)")
    if repairs := estimate.get("with_repairs"):
        console.print(
            f"  if {repairs['repair_rate']:.0%} of calls are asked again (repairs, duplicate tasks): "
            f"{repairs['calls']} calls, USD {repairs['cost_usd']:.4f}"
        )
    console.print("  assumes: " + "; ".join(estimate["assumptions"]), soft_wrap=True)


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
