"""The public Python API: every command of the ``ambiforge`` CLI as a function that takes plain arguments or
the options models and returns records (a summary dict, a folder), the CLI being one caller among others.

Why one module: the CLI, notebooks, tests and benchmarks all run a build, a release or an eval the same way,
so the rules of *how* a command runs live here once: in this process (the engine, :mod:`ambiforge.engine`),
or as recorded runs on an orchestrator (Prefect, found through the ``ambiforge.orchestrators`` entry points,
:mod:`ambiforge.engine.orchestrator`) when ``prefect=True``, the task runner is Dask, or ``PREFECT_API_URL``
is set. Both ways write the same bytes. Nothing is printed here: callers print what the records say.

Heavy packages (Prefect, Great Expectations, the LLM SDKs) are imported by the function that needs them,
so ``import ambiforge`` stays cheap.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambiforge import arguments
from ambiforge.errors import ConfigError
from ambiforge.results import (
    BuildResult,
    EstimateResult,
    EvalResult,
    ReleaseResult,
    ReviewResult,
    ValidationResult,
    VerifyResult,
)

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.config.file import Config
    from ambiforge.engine.orchestrator import Orchestrator, Server
    from ambiforge.evaluation.command import EvalOptions
    from ambiforge.releases.writer import ReleaseOptions
    from ambiforge.review.push import ReviewPaths

__all__ = [
    "Orchestration",
    "build",
    "build_options",
    "eval_options",
    "check_deployment_name",
    "check_schedule",
    "diff",
    "estimate",
    "evaluate",
    "rescore_eval",
    "export_ambik",
    "import_ambik",
    "load_config",
    "orchestration",
    "release",
    "release_options",
    "review_push",
    "review_pull",
    "serve",
    "validate",
    "verify",
]


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """``ambiforge.toml`` (``path``, else ``$AMBIFORGE_CONFIG``, else the working folder's; the defaults when
    there is none), checked: a bad key is a ConfigError naming the file and the key, and what needs the
    registries (the rule ids ``[validation] severity`` names) is checked too. The one loader: every command
    of the CLI reads its configuration through it, so ``[ambiguity] folders`` registers the same types for
    all of them."""
    from ambiforge.config.file import load_config as load
    from ambiforge.engine.preflight import check_config

    return check_config(load(arguments.optional_path("path", path)))


def _config(config: Config | None) -> Config:
    """The caller's configuration (checked to be one), else :func:`load_config`'s."""
    from ambiforge.config.file import Config

    if config is None:
        return load_config()
    return arguments.instance("config", config, Config, "a Config (ambiforge.load_config())")


# -- AmbiK CSV in and out ------------------------------------------------------------------------------------


def import_ambik(
    csv_path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    config: Config | None = None,
    raw_cells: bool = False,
) -> int:
    """Read an AmbiK CSV into an items file (``.jsonl`` or ``.parquet``, by ``out``'s suffix) and return how
    many items. ``out`` is checked first (:func:`ambiforge.outputs.check_output`): not the input, not inside
    a release, a suffix naming the format. A formula cell escaped on export is read back as it was, unless
    ``raw_cells``."""
    from ambiforge.ambik import read_ambik_csv
    from ambiforge.outputs import check_output
    from ambiforge.storage import write_items_jsonl, write_items_parquet

    source = arguments.path("csv_path", csv_path)
    arguments.path("out", out)
    arguments.flag("raw_cells", raw_cells)
    cfg = _config(config)
    target = check_output(out, "--out", suffixes=(".jsonl", ".parquet"), inputs=[source], curated=cfg.paths.curated)
    items = read_ambik_csv(source, raw_cells=raw_cells)
    (write_items_parquet if target.suffix.lower() == ".parquet" else write_items_jsonl)(target, items)
    return len(items)


def export_ambik(
    items_path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    config: Config | None = None,
    raw_cells: bool = False,
) -> int:
    """Write an items file as an AmbiK CSV (``out`` ends in ``.csv``, is not the input nor inside a release)
    and return how many items. Cells a spreadsheet would run as formulas get a leading apostrophe unless
    ``raw_cells`` (docs/secrets-and-hardening.md)."""
    from ambiforge.ambik import write_ambik_csv
    from ambiforge.outputs import check_output
    from ambiforge.storage import read_items

    source = arguments.path("items_path", items_path)
    arguments.path("out", out)
    arguments.flag("raw_cells", raw_cells)
    cfg = _config(config)
    target = check_output(out, "--out", suffixes=(".csv",), inputs=[source], curated=cfg.paths.curated)
    items = read_items(source)
    write_ambik_csv(items, target, raw_cells=raw_cells)
    return len(items)


# -- orchestration ----------------------------------------------------------------------------------------


@dataclass
class Orchestration:
    """An orchestrator to run on, and the API server this process started for it (None: one is configured)."""

    orchestrator: Orchestrator
    server: Server | None


@contextlib.contextmanager
def orchestration(asked: bool = False, *, wait: bool = False) -> Iterator[Orchestration | None]:
    """The orchestrator for the block when asked for or an API is configured (else None: run in-process),
    with a temporary API server unless one is configured. The server starts at once and, unless ``wait``,
    is waited for only when the first run needs it: a caller enters this early and checks its options
    while the server starts."""
    from ambiforge.engine import orchestrator

    arguments.flag("asked", asked)
    arguments.flag("wait", wait)
    if not orchestrator.wanted(asked):
        yield None
        return
    chosen = orchestrator.load()
    with chosen.api_server() as server:
        if wait and server is not None:
            server.wait()
        yield Orchestration(chosen, server)


@contextlib.contextmanager
def _orchestrated(prefect: bool, given: Orchestration | None) -> Iterator[Orchestration | None]:
    """The caller's orchestration, or one for this call (commands that are one run wait for its server)."""
    if given is not None:
        if given.server is not None:
            given.server.wait()
        yield given
        return
    with orchestration(prefect, wait=True) as session:
        yield session


# -- build --------------------------------------------------------------------------------------------------


def build_options(
    config: Config | None = None,
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
    on_note: Callable[[str], None] | None = None,
) -> BuildOptions:
    """The options of a build from the configuration (``config``, else :func:`load_config`'s: ``[build]``,
    ``[paths]``, ``[llm]``, ``[sampler]``, ...) and the caller's values (None: the configuration's), checked
    before any work: the CLI's ``build`` and ``serve`` make their options here. ``on_note`` receives notes
    such as what ``provider="auto"`` picked."""
    from ambiforge.engine.build_checks import options_from

    cfg = _config(config)
    for name, value in (("provider", provider), ("model", model), ("task_runner", task_runner)):
        arguments.optional_text(name, value)
    if dask_address is not None:
        arguments.text("dask_address", dask_address, empty=True)
    for name, number in (("candidates", candidates), ("pairs", pairs), ("seed", seed)):
        arguments.optional_integer(name, number)
    arguments.optional_number("max_cost", max_cost)
    arguments.optional_path("out", out)
    arguments.optional_path("catalog", catalog)
    if step_models is not None:
        arguments.mapping("step_models", step_models, "a mapping of step to model")
    if type_mix is not None:
        arguments.mapping("type_mix", type_mix, "a mapping of type to share")
        for key, share in type_mix.items():
            arguments.number(f"type_mix[{key!r}]", share)
    note = arguments.optional_callable("on_note", on_note)
    return options_from(
        cfg,
        provider=provider,
        model=model,
        step_models=step_models,
        max_cost=max_cost,
        candidates=candidates,
        pairs=pairs,
        seed=seed,
        out=out,
        type_mix=type_mix,
        catalog=catalog,
        task_runner=task_runner,
        dask_address=dask_address,
        config_path=cfg.source,
        on_note=note or (lambda _: None),
    )


def build(
    options: BuildOptions | Mapping[str, Any],
    *,
    annotation_root: str = "annotation",
    prefect: bool = False,
    reference: list[Any] | None = None,
    orchestration: Orchestration | None = None,
    on_start: Callable[[dict[str, Any] | None], contextlib.AbstractContextManager[Any] | None] | None = None,
    on_note: Callable[[str], None] | None = None,
    config: Config | None = None,
) -> BuildResult:
    """Generate and validate a run into ``<options.out>/<run_id>/`` and return its result.

    The pre-flight checks run first, the same as the CLI's (:mod:`ambiforge.engine.build_checks`: bounds,
    task runner, provider and keys, catalog, prompts, output folder, ``options.reference``); options whose
    provider needs LLM settings and carry none get ``[llm]`` of ``config`` (else :func:`load_config`'s).
    Holds the run folder's lock; a rerun of a finished run with the same options returns its result and
    does nothing else; an interrupted one resumes from its checkpoints. Runs in-process unless ``prefect``,
    a Dask task runner or ``PREFECT_API_URL`` asks for the orchestrator (``orchestration``: one the caller
    started early). ``reference``: items read with :func:`ambiforge.diversity.read_reference` (default: read
    from ``options.reference``), whose diversity figures are added to the summary. ``on_start(finished)`` is
    called once the run is locked and checked (``finished``: the summary of a finished run, else None); a
    context manager it returns wraps the run (the CLI shows progress bars in it). ``on_note`` receives
    warnings (a catalog too small for the pairs asked). An interrupt (SIGINT, SIGTERM) marks the run
    interrupted and propagates.
    """
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine import state
    from ambiforge.engine.build_checks import preflight
    from ambiforge.engine.pipeline import resolve_options
    from ambiforge.run.layout import run_dir
    from ambiforge.run.lock import run_lock

    if not isinstance(options, BuildOptions | Mapping):
        raise arguments.wrong("options", "BuildOptions (or a mapping of its fields)", options)
    arguments.text("annotation_root", annotation_root)
    arguments.flag("prefect", prefect)
    if reference is not None and not isinstance(reference, list):
        raise arguments.wrong("reference", "a list of items (ambiforge.diversity.read_reference)", reference)
    if orchestration is not None:
        arguments.instance("orchestration", orchestration, Orchestration, "an Orchestration (ambiforge.orchestration)")
    arguments.optional_callable("on_start", on_start)
    note = arguments.optional_callable("on_note", on_note) or (lambda _: None)
    cfg = _config(config) if config is not None else None
    options = _build_options(options)
    options = resolve_options(options)
    if cfg is None:
        cfg = load_config(options.config_path) if options.config_path else load_config()
    options, read = preflight(options, cfg, note)
    reference = reference if reference is not None else read
    directory = run_dir(options.out, options.run_id)
    with contextlib.ExitStack() as stack:
        session = orchestration
        if session is None:
            session = stack.enter_context(_orchestration_for(prefect or options.task_runner != "thread"))
        with run_lock(directory, options.run_id):
            state.read_state(directory)  # a rerun's own files are checked in one line before any work
            state.check_options(directory, options)
            finished = state.finished_summary(options)
            if finished is not None:  # nothing to do: no flow, no server
                if session is not None and session.server is not None:
                    session.server.stop(wait=False)
                seconds = finished.setdefault("seconds", {})
                total = round(sum(v for v in seconds.values() if isinstance(v, int | float)), 3)
                seconds.setdefault("total", total)
                if on_start is not None:
                    on_start(finished)
                return BuildResult.from_summary(finished)
            shown = on_start(None) if on_start is not None else None
            try:
                with shown if shown is not None else contextlib.nullcontext():
                    if session is not None:
                        summary = session.orchestrator.build(options, annotation_root, session.server)
                    else:
                        from ambiforge.engine.local import build_locally

                        summary = build_locally(options, annotation_root)
            except BaseException as exc:
                from ambiforge import interrupts

                if interrupts.stopping() or isinstance(exc, KeyboardInterrupt | interrupts.Interrupted):
                    state.mark_interrupted(directory)
                raise
    if reference is not None:
        from ambiforge import diversity

        summary["diversity_vs_reference"] = diversity.attach_reference(
            Path(summary["files"]["items_jsonl"]).parent / "summary.json", reference, str(options.reference)
        )
    return BuildResult.from_summary(summary)


def _build_options(options: BuildOptions | Mapping[str, Any]) -> BuildOptions:
    """A mapping of BuildOptions' fields as the model, its first bad field named as ``options.<field>``."""
    from pydantic import ValidationError

    from ambiforge.config.build import BuildOptions

    if not isinstance(options, Mapping):
        return options
    try:
        return BuildOptions.model_validate(dict(options))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"options.{where}: {first['msg']}") from None


def estimate(options: BuildOptions | Mapping[str, Any], *, config: Config | None = None) -> EstimateResult:
    """What ``build(options)`` would cost, from its prompts and ``[llm.prices]``, without calling a model or
    writing anything (:mod:`ambiforge.generation.llm.estimate` says how and its limits). Options whose
    provider needs LLM settings and carry none get ``[llm]`` of ``config`` (else :func:`load_config`'s);
    no API key is needed. An offline build's estimate has no calls and costs nothing."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine.build_checks import check_bounds
    from ambiforge.engine.preflight import resolve_provider
    from ambiforge.generation.llm import estimate as model
    from ambiforge.generation.run import plan_pairs

    if not isinstance(options, BuildOptions | Mapping):
        raise arguments.wrong("options", "BuildOptions (or a mapping of its fields)", options)
    options = _build_options(options)
    check_bounds(pairs=options.pairs, candidates=options.candidates, seed=options.seed)
    llm = options.llm
    if options.provider != "offline" and llm is None:  # as the build resolves it, but no key is needed
        provider, llm, _ = resolve_provider(options.provider, _config(config).llm)
        options = options.model_copy(update={"provider": provider, "llm": llm})
    steps: list[model.StepEstimate] = []
    repaired: list[model.StepEstimate] = []
    if options.provider != "offline" and llm is not None:
        plan = [(spec.index, spec.ambiguity_type) for spec in plan_pairs(options)]
        catalog = cached_catalog(options.catalog)
        steps = model.estimate_steps(llm, catalog, options.sampler, options.seed, plan, options.candidates)
        repaired = model.estimate_steps(
            llm, catalog, options.sampler, options.seed, plan, options.candidates, model.REPAIR_RATE
        )
    record = {
        "provider": options.provider,
        "pairs": options.pairs,
        "candidates": options.candidates,
        **model.record_of(steps, repaired),
    }
    totals = record["totals"]
    return EstimateResult(
        provider=options.provider,
        pairs=options.pairs,
        candidates=options.candidates,
        calls=totals["calls"],
        input_tokens=totals["input_tokens"],
        output_tokens=totals["output_tokens"],
        cost_usd=totals["cost_usd"],
        models_without_price=tuple(record["models_without_price"]),
        assumptions=tuple(record["assumptions"]),
        record=record,
    )


def _orchestration_for(asked: bool) -> contextlib.AbstractContextManager[Orchestration | None]:
    """:func:`orchestration`, which :func:`build`'s parameter of the same name hides there."""
    return orchestration(asked)


# -- validate -----------------------------------------------------------------------------------------------


def validate(
    path: str | os.PathLike[str],
    *,
    config: Config | None = None,
    out: str | os.PathLike[str] | None = None,
    released: str | os.PathLike[str] | None = None,
    mix: bool = True,
    on_count: Callable[[int], None] | None = None,
) -> ValidationResult:
    """Check every item rule and the dataset expectations on an items file (``.jsonl``, ``.parquet``) or an
    AmbiK ``.csv``, read a batch at a time; write the report folder (``out``, default ``<path's
    folder>/validation``). ``released``: an earlier release (folder or items file) whose tasks count as
    known. ``mix``: expect the configured type mix. The result's counts say whether an error-severity rule
    failed (``with_errors``) and how many dataset expectations did; ``formula_cells``: how many cells of an
    input CSV a spreadsheet would run as formulas (``to_dict()["formula_cells"]``: where the first are)."""
    from ambiforge.ambik.csv_io import formula_cells
    from ambiforge.catalog import cached_catalog
    from ambiforge.validation import RuleContext
    from ambiforge.validation.report import write_report
    from ambiforge.validation.stream import item_batches, validate_stream

    path = arguments.path("path", path)
    cfg = _config(config)
    out = arguments.optional_path("out", out)
    released = arguments.optional_path("released", released)
    arguments.flag("mix", mix)
    arguments.optional_callable("on_count", on_count)
    batches = item_batches(path)  # read twice, a batch at a time: any size of file fits in memory
    formulas = formula_cells(path) if path.suffix.lower() == ".csv" else (0, [])
    ctx = RuleContext(
        catalog=cached_catalog(cfg.paths.catalog),
        config=cfg.validation,
        known_tasks=_released_tasks(Path(released) if released is not None else None),
    )
    recorded, source = _recorded_mix([path.parent])
    target_mix = (recorded or cfg.build.type_mix) if mix else None
    done = validate_stream(
        batches,
        ctx,
        str(path),
        target_mix=target_mix,
        tolerance=cfg.validation.type_mix_tolerance,
        max_plan_steps=cfg.validation.max_plan_steps,
        on_count=on_count,
    )
    folder = Path(out) if out is not None else path.parent / "validation"
    done.expectations.save(folder)
    json_path, html_path = write_report(
        done.report,
        done.flagged,  # type: ignore[arg-type]
        folder,
        target_mix=target_mix,
        diversity=done.diversity,
        plots=done.plots,
    )
    summary = done.report["summary"]
    expectations = done.expectations.to_dict()
    return ValidationResult(
        report_json=Path(json_path),
        report_html=Path(html_path),
        items=int(summary["items"]),
        passed=int(summary["passed"]),
        with_errors=int(summary["with_errors"]),
        with_warnings=int(summary["with_warnings"]),
        expectations_failed=int(expectations["failed"]),
        formula_cells=formulas[0],
        record={
            "report": done.report,
            "expectations": expectations,
            "report_json": json_path,
            "report_html": html_path,
            "formula_cells": {"count": formulas[0], "examples": formulas[1]},
            "mix_source": (source if recorded else "the configuration's [build] type_mix") if mix else None,
        },
    )


def _recorded_mix(folders: list[Path]) -> tuple[dict[str, float] | None, str]:
    """The type mix the runs in ``folders`` recorded (``summary.json``: the pairs planned per type, summed over
    the runs, as shares), and where it came from; ``(None, "")`` when a folder records none (an items file
    that is not a run's: the configuration's mix applies)."""
    planned: dict[str, float] = {}
    for folder in folders:
        summary = folder / "summary.json"
        try:
            data = json.loads(summary.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None, ""
        per_type = data.get("planned_per_type") or data.get("target_type_mix") if isinstance(data, dict) else None
        if not isinstance(per_type, dict):
            return None, ""
        for name, n in per_type.items():
            if isinstance(n, int | float):
                planned[name] = planned.get(name, 0.0) + float(n)
    total = sum(planned.values())
    if not total:
        return None, ""
    names = ", ".join(str(f / "summary.json") for f in folders)
    return {k: v / total for k, v in planned.items()}, f"the type mix the run recorded ({names})"


def _released_tasks(path: Path | None) -> dict[str, str]:
    """Normalised unambiguous task -> id, from an earlier release folder or items file."""
    if path is None:
        return {}
    from ambiforge.textnorm import normalise
    from ambiforge.validation.stream import item_batches

    source = path / "data.parquet" if path.is_dir() else path  # a release's JSON lines have no scene graphs
    return {normalise(i.unambiguous_direct): i.id for batch in item_batches(source)() for i in batch}


# -- release ------------------------------------------------------------------------------------------------


def release_options(
    config: Config,
    version: str,
    run_ids: list[str],
    *,
    allow_unreviewed: bool = False,
    calibration_size: int | None = None,
    mix_tolerance: float | None = None,
    raw: str | os.PathLike[str] | None = None,
    curated: str | os.PathLike[str] | None = None,
) -> ReleaseOptions:
    """The options of a release from the configuration and the caller's values, checked before any work
    (a version that is not new is refused here, not after the gates)."""
    from ambiforge.config.file import Config
    from ambiforge.releases import versions
    from ambiforge.releases.writer import ReleaseOptions

    config = arguments.instance("config", config, Config, "a Config (ambiforge.load_config())")
    version = arguments.text("version", version)
    run_ids = arguments.texts("run_ids", run_ids)
    arguments.flag("allow_unreviewed", allow_unreviewed)
    arguments.optional_integer("calibration_size", calibration_size)
    arguments.optional_number("mix_tolerance", mix_tolerance)
    arguments.optional_path("raw", raw)
    arguments.optional_path("curated", curated)
    if not run_ids:
        raise ConfigError("--from: give at least one run id")
    if mix_tolerance is not None and not 0 <= mix_tolerance <= 1:
        raise ConfigError(f"--mix-tolerance: {mix_tolerance} is not a share between 0 and 1 (e.g. 0.05 for 5 points)")
    if calibration_size is not None and calibration_size < 0:
        raise ConfigError(f"--calibration-size: {calibration_size} is negative")
    curated_path = Path(curated) if curated is not None else Path(config.paths.curated)
    versions.check_new(curated_path, version)
    raw_path = Path(raw) if raw is not None else Path(config.paths.raw)
    recorded, source = _recorded_mix([raw_path / r for r in run_ids])
    return ReleaseOptions(
        version=version,
        run_ids=list(run_ids),
        raw=raw_path,
        curated=curated_path,
        annotation=Path(config.paths.annotation),
        allow_unreviewed=allow_unreviewed,
        calibration_size=config.release.calibration_size if calibration_size is None else calibration_size,
        seed=config.release.seed,
        license=config.release.license,
        target_mix=recorded or dict(config.build.type_mix),
        mix_source=source if recorded else "the configuration's [build] type_mix",
        mix_tolerance=config.release.mix_tolerance if mix_tolerance is None else mix_tolerance,
        repository_url=config.release.repository_url,
        title=config.release.title,
        authors=tuple(config.release.authors),
    )


def release(
    opts: ReleaseOptions, *, prefect: bool = False, orchestration: Orchestration | None = None
) -> ReleaseResult:
    """Write ``curated/<version>/`` and return its folder, item count and the manifest's sha256; a refused
    release (a gate, a bad option) is the :class:`~ambiforge.errors.AmbiforgeError` saying why."""
    from ambiforge.releases.checksums import sha256_of
    from ambiforge.releases.writer import ReleaseOptions

    arguments.instance("opts", opts, ReleaseOptions, "ReleaseOptions (ambiforge.release_options(...))")
    _check_orchestrated(prefect, orchestration)
    with _orchestrated(prefect, orchestration) as session:
        if session is not None:
            folder = Path(session.orchestrator.release(opts))
        else:
            from ambiforge.stages import StageContext, get

            folder = Path(get("release").run([opts], StageContext(opts))[0])
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return ReleaseResult(
        folder=folder,
        version=opts.version,
        items=int(manifest["counts"]["total"]),
        manifest_sha256=sha256_of(folder / "manifest.json"),
        record=manifest,
    )


def _check_orchestrated(prefect: object, orchestration: object) -> None:
    arguments.flag("prefect", prefect)
    if orchestration is not None:
        arguments.instance("orchestration", orchestration, Orchestration, "an Orchestration (ambiforge.orchestration)")


def verify(folder: str | os.PathLike[str], manifest_sha256: str | None = None) -> VerifyResult:
    """Check a release folder (the manifest's own hash against ``manifest_sha256`` first, when given, then
    every checksum, counts, review status and splits); a disagreement is a VerifyError naming the first one.
    Returns the counts checked and the manifest's sha256."""
    from ambiforge.releases.checksums import sha256_of
    from ambiforge.releases.verify import verify_release

    folder = arguments.path("folder", folder)
    arguments.optional_text("manifest_sha256", manifest_sha256)
    checked: dict[str, Any] = dict(verify_release(folder, manifest_sha256))
    checked["manifest_sha256"] = sha256_of(folder / "manifest.json")
    return VerifyResult(
        folder=folder,
        files=int(checked["files"]),
        rows=int(checked["rows"]),
        manifest_sha256=checked["manifest_sha256"],
        record=checked,
    )


def diff(
    old: str | os.PathLike[str], new: str | os.PathLike[str], *, curated: str | os.PathLike[str] = "curated"
) -> str:
    """The changelog between two releases, each a release folder or a version under ``curated``, in Markdown."""
    from ambiforge.releases.changelog import compare_releases, render_changelog

    old = os.fspath(arguments.path("old", old))
    new = os.fspath(arguments.path("new", new))
    curated = arguments.path("curated", curated)

    def folder(ref: str) -> Path:
        path = Path(ref)
        path = path if path.exists() else Path(curated) / ref
        if not (path / "data.jsonl.gz").exists() and not (path / "data.jsonl").exists():
            raise ConfigError(f"{ref}: not a release folder or a released version")
        return path

    return render_changelog(compare_releases(folder(old), folder(new)))


# -- eval ---------------------------------------------------------------------------------------------------


#: the methods an eval runs when none are named (AmbiK's five)
DEFAULT_METHODS = ("knowno", "lap", "lofreecp", "binary", "nohelp")


def eval_options(
    config: Config | None = None,
    *,
    data: str | os.PathLike[str],
    model: str,
    methods: Sequence[str] = DEFAULT_METHODS,
    provider: str = "openai",
    epsilon: float | None = None,
    calibration_rule: str | None = None,
    metrics: str | None = None,
    with_plan: bool = True,
    out: str | os.PathLike[str] = "eval",
    name: str = "",
    calibration: str | os.PathLike[str] | None = None,
    calibration_size: int = 100,
    limit: int | None = None,
    seed: int = 0,
    attach: str | os.PathLike[str] | None = None,
    options: Mapping[str, Any] | None = None,
    per_method: Mapping[str, Mapping[str, Any]] | None = None,
    rpm: int | None = None,
    concurrency: int | None = None,
) -> EvalOptions:
    """The options of an eval from the configuration (``config``, else :func:`load_config`'s): its ``[llm]``
    (providers, limits, cache) and each method's ``[eval.methods.<name>]``, with the caller's values on top.
    ``options``: method settings by field name (``{"samples": 10}``), applied to every method whose
    settings have that field; ``per_method``: one method's settings (``{"lofreecp": {"temperature": 0.7}}``),
    which win over both; ``rpm`` and ``concurrency`` replace ``[llm]``'s limits for this eval."""
    from ambiforge.detectors.conformal import DEFAULT_EPSILON, DEFAULT_RULE
    from ambiforge.detectors.methods.settings import method_settings
    from ambiforge.evaluation.command import EvalOptions, check_methods
    from ambiforge.evaluation.rescore import DEFAULT_MODE

    cfg = _config(config)
    data_path = arguments.path("data", data)
    arguments.text("model", model)
    chosen = check_methods(arguments.texts("methods", methods))
    arguments.text("provider", provider)
    for label, value in (("calibration_rule", calibration_rule), ("metrics", metrics)):
        arguments.optional_text(label, value)
    arguments.optional_number("epsilon", epsilon)
    arguments.flag("with_plan", with_plan)
    arguments.text("name", name, empty=True)
    for label, count in (("calibration_size", calibration_size), ("seed", seed)):
        arguments.integer(label, count)
    for label, maybe in (("limit", limit), ("rpm", rpm), ("concurrency", concurrency)):
        arguments.optional_integer(label, maybe)
    if options is not None:
        arguments.mapping("options", options, "a mapping of setting name to value")
    if per_method is not None:
        arguments.mapping("per_method", per_method, "a mapping of method to its settings")
        for method, values in per_method.items():
            arguments.mapping(f"per_method[{method!r}]", values, "a mapping of setting name to value")
    if rpm is not None and rpm < 0:
        raise ConfigError(f"--rpm must be 0 (no limit) or more, got {rpm}")
    if concurrency is not None and concurrency < 1:
        raise ConfigError(f"--concurrency must be at least 1, got {concurrency}")
    limits = {k: v for k, v in (("rpm", rpm), ("concurrency", concurrency)) if v is not None}
    llm = cfg.llm.model_copy(update=limits)
    cache = Path(llm.cache_dir) if llm.cache_dir else Path(cfg.paths.raw) / ".llm-cache"
    return EvalOptions(
        data=data_path,
        methods=chosen,
        model=model,
        provider=provider,
        epsilon=DEFAULT_EPSILON if epsilon is None else epsilon,
        calibration_rule=calibration_rule or DEFAULT_RULE,
        metrics=metrics or DEFAULT_MODE,
        with_plan=with_plan,
        out=arguments.path("out", out),
        name=name,
        calibration=arguments.optional_path("calibration", calibration),
        calibration_size=calibration_size,
        limit=limit,
        seed=seed,
        attach=arguments.optional_path("attach", attach),
        cache_dir=cache,
        llm=llm,
        settings=method_settings(cfg.eval.methods, options or {}, source=cfg.source, per_method=per_method),
    )


def evaluate(opts: EvalOptions, *, prefect: bool = False, orchestration: Orchestration | None = None) -> EvalResult:
    """Benchmark the chosen detection methods (``opts``: from :func:`eval_options`, which applies the
    configuration's ``[llm]`` and ``[eval.methods]``) and return the result (also written to
    ``<opts.out>/<name>/``). The provider's key is checked first, in one line."""
    from ambiforge.evaluation.command import EvalOptions, check_key

    arguments.instance("opts", opts, EvalOptions, "EvalOptions (ambiforge.eval_options(...))")
    _check_orchestrated(prefect, orchestration)
    check_key(opts)
    with _orchestrated(prefect, orchestration) as session:
        if session is not None:
            return EvalResult.from_document(session.orchestrator.evaluate(opts))
        from ambiforge.evaluation.command import run_eval

        return EvalResult.from_document(run_eval(opts))


def rescore_eval(results: str | os.PathLike[str], metrics: str = "paper") -> EvalResult:
    """The tables of an eval again, from its per-item results (an eval folder or its ``results.jsonl``), in
    ``metrics`` mode (``paper`` or ``authors``, docs/evaluate.md), without calling a model; also written as
    ``rescore-<mode>.json`` beside the results (``to_dict()["written"]``)."""
    from ambiforge.evaluation.rescore import MODES, rescore

    path = arguments.path("results", results)
    arguments.text("metrics", metrics)
    if metrics not in MODES:
        raise ConfigError(f"--metrics must be one of {', '.join(MODES)}, got {metrics!r}")
    return EvalResult.from_document(rescore(path, metrics))


# -- review -------------------------------------------------------------------------------------------------


def review_push(
    run_id: str,
    paths: ReviewPaths,
    project: str | None = None,
    *,
    prefect: bool = False,
    orchestration: Orchestration | None = None,
) -> ReviewResult:
    """Import a run's validated items into its Label Studio project (created or reused: ``project`` names
    it) and return the counts. The Label Studio settings and the run's items are checked first, in one line."""
    from ambiforge.errors import InputError
    from ambiforge.review.client import settings
    from ambiforge.run.layout import check_run_id

    _review_arguments(run_id, paths, prefect, orchestration)
    arguments.optional_text("project", project)
    check_run_id(run_id)
    settings()  # before an orchestrator starts: a bad URL or key is one line, at once
    if not paths.items(run_id).is_file():
        raise InputError(
            str(paths.items(run_id)), "", f"no items of run {run_id!r} (build it first, or check --config)"
        )
    with _orchestrated(prefect, orchestration) as session:
        if session is not None:
            return ReviewResult(run_id, session.orchestrator.review_push(run_id, paths, project))
        from ambiforge.engine import pipeline
        from ambiforge.engine.local import with_retries

        pushed = with_retries(pipeline.review_push, run_id, paths, project, policy=pipeline.REVIEW_RETRY)
        return ReviewResult(run_id, pushed)


def _review_arguments(run_id: object, paths: object, prefect: object, orchestration: object) -> None:
    from ambiforge.review.push import ReviewPaths

    arguments.text("run_id", run_id)
    arguments.instance("paths", paths, ReviewPaths, "ReviewPaths(raw=..., annotation=...)")
    _check_orchestrated(prefect, orchestration)


def review_pull(
    run_id: str, paths: ReviewPaths, *, prefect: bool = False, orchestration: Orchestration | None = None
) -> ReviewResult:
    """Export a pushed run's annotations, compute agreement, adjudicate, write the review into the run's
    items, and return the agreement record."""
    from ambiforge.review.client import settings
    from ambiforge.review.pull import read_mapping
    from ambiforge.run.layout import check_run_id

    _review_arguments(run_id, paths, prefect, orchestration)
    check_run_id(run_id)
    read_mapping(run_id, paths)  # pushed before, and readable
    settings()  # before an orchestrator starts: a bad URL or key is one line, at once
    with _orchestrated(prefect, orchestration) as session:
        if session is not None:
            return ReviewResult(run_id, session.orchestrator.review_pull(run_id, paths))
        from ambiforge.engine import pipeline
        from ambiforge.engine.local import with_retries
        from ambiforge.review.pull import pull

        return ReviewResult(run_id, with_retries(pull, run_id, paths, policy=pipeline.REVIEW_RETRY))


# -- scheduled builds ---------------------------------------------------------------------------------------


def check_schedule(cron: str) -> str:
    """``cron`` if the orchestrator can schedule it; else a ConfigError naming ``--cron``. Only ASCII is
    a cron field: croniter reads other digits (Arabic-Indic ``٣``) as numbers, so they were served."""
    from ambiforge.engine.orchestrator import load

    arguments.text("cron", cron, empty=True)
    if not cron.strip():
        raise ConfigError("--cron: empty; give a schedule such as '0 3 * * *'")
    if not (cron.isascii() and cron.isprintable()):
        bad = next(c for c in cron if not (c.isascii() and c.isprintable()))
        raise ConfigError(f"--cron: {bad!r} in {cron!r}: a cron field is ASCII (digits 0-9, *, ',', '-', '/', names)")
    return load().check_schedule(cron)


#: A deployment name: Prefect refuses '/', '%', '&', '<', '>' with a traceback, and an empty one.
_DEPLOYMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ -]{0,99}")


def check_deployment_name(name: str) -> str:
    """``name`` if it can name the deployment; else a ConfigError naming ``--name``."""
    arguments.text("name", name, empty=True)
    if not _DEPLOYMENT_NAME.fullmatch(name):
        raise ConfigError(
            f"--name: {name!r} is not a deployment name (a letter or digit, then letters, digits, '.', '_', "
            "'-' or spaces; up to 100)"
        )
    return name


def serve(cron: str, options: BuildOptions, name: str = "scheduled-build") -> None:
    """Serve the scheduled build deployment ``name`` from this process until interrupted (each run gets a
    new run id); needs the orchestrator."""
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine.orchestrator import load

    arguments.instance("options", options, BuildOptions, "BuildOptions (ambiforge.build_options(...))")
    check_deployment_name(name)
    check_schedule(cron)
    load().serve(cron, options, name)
