"""``ambiforge eval``: benchmark ambiguity-detection methods on a release, an AmbiK CSV or items; ``ambiforge eval
rescore RESULTS``: the tables again from the per-item results, in either metric mode, without a model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer._click.core import ParameterSource
from typer._click.exceptions import MissingParameter

from ambiforge import inputs
from ambiforge.cli.common import PrefectOption, config_from, console, not_empty
from ambiforge.errors import ConfigError, InputError

eval_app = typer.Typer(
    rich_markup_mode=None, add_completion=False, pretty_exceptions_enable=False, invoke_without_command=True
)

METRICS_HELP = (
    "the tables' formulas: paper (the paper's, corrected where the published code is wrong) or authors "
    "(the published code's, quirks included); see docs/evaluate.md, Errata"
)


@eval_app.callback()
def eval_command(
    ctx: typer.Context,
    data: Annotated[
        Path | None, typer.Option(help="a release folder, an AmbiK .csv, or items .jsonl/.parquet (required)")
    ] = None,
    model: Annotated[str | None, typer.Option(help="model name on the provider's endpoint (required)")] = None,
    method: Annotated[
        str, typer.Option(help="comma-separated: knowno, lap, lofreecp, binary, nohelp, debate, dialogue, sgcot")
    ] = ("knowno,lap,lofreecp,binary,nohelp"),
    provider: Annotated[str, typer.Option(help="[llm.providers] entry serving the model")] = "openai",
    epsilon: Annotated[float, typer.Option(help="conformal error rate (target success 1 - epsilon)")] = 0.2,
    calibration_rule: Annotated[
        str,
        typer.Option(
            help="conformal calibration: knowno (tasks with a correct option), all (a missing one scores 1), "
            "authors (the AmbiK code's rule); see docs/evaluate.md"
        ),
    ] = "knowno",
    metrics: Annotated[str, typer.Option(help=METRICS_HELP)] = "paper",
    with_plan: Annotated[
        bool, typer.Option("--with-plan/--action-only", help="show the plan steps before the ambiguity, or not")
    ] = True,
    out: Annotated[Path, typer.Option(help="results go to OUT/<name>/")] = Path("eval"),
    name: Annotated[str, typer.Option(help="folder name (default: <data>-<model>-<plan|action-only>)")] = "",
    calibration: Annotated[
        Path | None, typer.Option(help="calibrate on this file instead of the data's calibration split")
    ] = None,
    calibration_size: Annotated[int, typer.Option(help="calibration pairs when the data has no split")] = 100,
    limit: Annotated[int | None, typer.Option(help="evaluate only the first N pairs")] = None,
    samples: Annotated[int, typer.Option(help="LofreeCP samples per task")] = 5,
    seed: Annotated[int, typer.Option(help="seed for every call")] = 0,
    attach: Annotated[Path | None, typer.Option(help="a release folder to link the results to")] = None,
    agents: Annotated[
        str, typer.Option(help="debate: comma-separated models of the agents (default: three times --model)")
    ] = "",
    rounds: Annotated[int, typer.Option(help="debate: round limit")] = 5,
    persona: Annotated[
        list[str] | None,
        typer.Option(
            help="debate: an agent's persona text, or @FILE to read it from a file; repeat once per agent, "
            "in the agents' order (three without --agents)"
        ),
    ] = None,
    max_questions: Annotated[int, typer.Option(help="dialogue: questions the policy may ask before acting")] = 1,
    user: Annotated[str, typer.Option(help="dialogue: simulated user, keyword or llm")] = "keyword",
    max_turns: Annotated[int, typer.Option(help="sgcot: retrieval turns before the planner must conclude")] = 5,
    ablation: Annotated[
        str, typer.Option(help="sgcot: none, whole_graph (no retrieval), one_retrieval or no_edges")
    ] = "none",
    tool_mode: Annotated[str, typer.Option(help="sgcot: auto, tools (function calling) or json")] = "auto",
    set_values: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="METHOD.FIELD=VALUE: one setting of one method's Settings (e.g. lofreecp.temperature=0.7); "
            "repeatable; wins over [eval.methods.METHOD] and the options above",
        ),
    ] = None,
    rpm: Annotated[
        int | None, typer.Option(help="requests per minute to the model, 0 for no limit (default: [llm] rpm)")
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option(help="calls in flight at once (default: [llm] concurrency)")
    ] = None,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
    prefect: PrefectOption = False,
) -> None:
    """Score each pair's ambiguous and clear task at end_of_ambiguity with each method; write per-item
    results (JSONL, Parquet), results.json and report.html (AmbDif, HR, CHR, ICR, SSC per type)."""
    from ambiforge import api
    from ambiforge.progress import RichReporter

    if ctx.invoked_subcommand is not None:
        return
    if data is None:
        raise MissingParameter(ctx=ctx, param_hint="'--data'", param_type="option")
    if model is None:
        raise MissingParameter(ctx=ctx, param_hint="'--model'", param_type="option")
    for path in (data, calibration, attach):
        if path is not None and not path.exists():
            raise InputError(str(path), "", "not found")
    given_name = name if ctx.get_parameter_source("name") is ParameterSource.COMMANDLINE else None
    for option, value in (("--model", model), ("--provider", provider), ("--name", given_name)):
        not_empty(option, value)
    cfg = config_from(config)
    # the methods' own settings: the options given on this command line win over [eval.methods.<name>]
    values = {
        "samples": samples,
        "agents": tuple(a.strip() for a in agents.split(",") if a.strip()),
        "rounds": rounds,
        "personas": persona_texts(persona or []),
        "max_questions": max_questions,
        "user": user,
        "max_turns": max_turns,
        "ablation": ablation,
        "tool_mode": tool_mode,
    }
    parameter = {"personas": "persona"}
    given = {
        key: value
        for key, value in values.items()
        if ctx.get_parameter_source(parameter.get(key, key)) is ParameterSource.COMMANDLINE
    }
    if "agents" in given and not given["agents"]:
        raise ConfigError(f"--agents: no model in {agents!r}; give comma-separated model names")
    opts = api.eval_options(
        cfg,
        data=data,
        methods=[m.strip() for m in method.split(",") if m.strip()],
        model=model,
        provider=provider,
        epsilon=epsilon,
        calibration_rule=calibration_rule,
        metrics=metrics,
        with_plan=with_plan,
        out=out,
        name=name,
        calibration=calibration,
        calibration_size=calibration_size,
        limit=limit,
        seed=seed,
        attach=attach,
        options=given,
        per_method=parse_set(set_values or []),
        rpm=rpm,
        concurrency=concurrency,
    )
    console.print(f"[bold]ambiforge eval[/] {', '.join(opts.methods)} on {data} with {provider} {model}")
    with RichReporter().shown():
        document = api.evaluate(opts, prefect=prefect).to_dict()
    print_table(document)


def parse_set(values: list[str]) -> dict[str, dict[str, str]]:
    """``['lofreecp.temperature=0.7', ...]`` -> {method: {field: text}}; the method's Settings model reads
    the text (a tuple field takes comma-separated values)."""
    settings: dict[str, dict[str, str]] = {}
    for value in values:
        key, sep, text = value.partition("=")
        method, dot, field = key.strip().partition(".")
        if not sep or not dot or not method or not field:
            raise ConfigError(f"--set: expected METHOD.FIELD=VALUE, got {value!r}")
        if field in settings.get(method, {}):
            raise ConfigError(f"--set {method}.{field}: given twice; give each setting once")
        settings.setdefault(method, {})[field] = text.strip()
    return settings


@eval_app.command("rescore")
def rescore_command(
    results: Annotated[Path, typer.Argument(help="an eval folder or its results.jsonl")],
    metrics: Annotated[str, typer.Option(help=METRICS_HELP)] = "paper",
) -> None:
    """The tables again from the per-item results (no model call), in the metric mode asked for; writes
    rescore-<mode>.json and the report page, rescore-<mode>.html, beside the results."""
    from ambiforge import api

    document = api.rescore_eval(results, metrics).to_dict()
    print_table(document)


def persona_texts(values: list[str]) -> tuple[str, ...]:
    """``--persona`` values as texts: ``@FILE`` is the file's content (stripped), anything else is the text."""
    texts = []
    for value in values:
        if not value.startswith("@"):
            texts.append(value)
            continue
        path = Path(value[1:])
        if not path.exists():
            raise InputError(str(path), "", "not found (--persona @FILE)")
        texts.append(inputs.read_text(path, inputs.PERSONA, "persona file (--persona @FILE)").strip())
    return tuple(texts)


def _figure(value: float | None) -> str:
    """Three decimals on the console (results.json keeps four); "—" for a figure over no task."""
    return "—" if value is None else f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))


def print_table(document: dict[str, Any]) -> None:
    from rich.table import Table

    mode = document.get("metrics", "paper")
    title = f"eval {document['name']} ({document['evaluated_on']}; {mode} metrics)"
    table = Table(title=title, title_justify="left")
    # n/err: the answered tasks every figure of the row rests on, and the failed ones (in no mean); AmbDif
    # and SSC say their own counts (pairs; tasks of the types with a shortlist)
    for column in ("method", "n/err", "AmbDif (pairs)", "HR", "CHR", "ICR", "SSC (n)", "set size"):
        table.add_column(column, justify="left" if column == "method" else "right", overflow="fold")
    for method, r in document["methods"].items():
        a = r["by_group"]["all"]
        cells = [
            f"{a['n']}/{a['errors']}",
            f"{_figure(r['ambdif']['all'])} ({r['ambdif']['pairs']})",
            *(_figure(a[m]) for m in ("HR", "CHR", "ICR")),
            f"{_figure(a['SSC'])} ({a['n_SSC']})",
            _figure(a["set_size"]),
        ]
        table.add_row(method, *cells)
    console.print(table)
    for method, r in document["methods"].items():
        if cal := r.get("calibration"):
            coverage = (r.get("test_coverage") or {}).get("all")
            console.print(
                f"{method}: calibration ({cal['rule']}) on {cal['tasks']} tasks, {cal['no_correct_option']} without a "
                f"correct option, {cal['errors']} failed; qhat {cal['qhat']:.4g}, test coverage {coverage}"
            )
            for warning in cal["warnings"]:
                console.print(f"[yellow]warning[/] {method}: {warning}")
        figures = {
            k: v.get("all") if isinstance(v, dict) else v
            for k, v in (r.get("method_figures") or {}).items()
            if not isinstance(v, dict) or "all" in v
        }
        if figures:  # a method's own figures (debate: consensus, rounds; dialogue: query discrepancy, ...)
            console.print(f"{method}: " + ", ".join(f"{k} {'—' if v is None else v}" for k, v in figures.items()))
    from rich.markup import escape

    from ambiforge.evaluation.output import pace_line

    if line := pace_line(document.get("pace")):
        console.print(f"[yellow]{escape(line)}[/]")  # "[llm]" is text, not markup
    if document.get("written"):  # a rescore
        console.print(f"[green]wrote[/] {document['written']} and {document.get('report', 'no report')}")
        return
    console.print(f"[green]wrote[/] {document['folder']} (report.html, results.json, results.jsonl/.parquet)")
    if document.get("attached_to"):
        console.print(f"linked to the release: {document['attached_to']}")
