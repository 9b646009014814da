"""One eval from options to files: the model on the LLM client, the dataset, the methods, ``eval/<name>/``,
and optionally a link beside a release. The CLI and the Prefect flow both call :func:`run_eval`."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ambiforge import progress
from ambiforge.atomic import write_json_atomic
from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.conformal import DEFAULT_EPSILON, DEFAULT_RULE, RULES
from ambiforge.detectors.methods import MethodSettings, names
from ambiforge.detectors.methods.settings import settings_class, settings_record
from ambiforge.detectors.model import ClientModel, EvalModel
from ambiforge.errors import AmbiforgeError, ConfigError
from ambiforge.evaluation.data import load_dataset
from ambiforge.evaluation.output import write_outputs
from ambiforge.evaluation.rescore import DEFAULT_MODE, MODES, method_tables
from ambiforge.evaluation.run import evaluate, results_document
from ambiforge.version import __version__

STAGE = "eval"


class NothingAnswered(AmbiforgeError):
    """A method whose every task failed (an unreachable endpoint, a model that never follows the format):
    its figures would rest on nothing, so the eval fails (exit 1) after writing what it has."""

    exit_code = 1


def check_answered(document: dict[str, Any]) -> None:
    failed = {m: r for m, r in document["methods"].items() if r["by_group"]["all"]["n"] == 0}
    if failed:
        first = next(iter(failed.values()))["first_error"] or "no task"
        raise NothingAnswered(
            f"no task answered by {', '.join(failed)} (first error: {first}); results in {document['folder']}"
        )


_FOLDER_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$")


@dataclass(frozen=True)
class EvalOptions:
    data: Path
    methods: tuple[str, ...]
    model: str
    provider: str = "openai"
    epsilon: float = DEFAULT_EPSILON
    calibration_rule: str = DEFAULT_RULE  # see ambiforge.detectors.conformal
    metrics: str = DEFAULT_MODE  # the tables' formulas: "paper" or "authors" (ambiforge.evaluation.rescore)
    with_plan: bool = True
    out: Path = Path("eval")
    name: str = ""
    calibration: Path | None = None
    calibration_size: int = 100
    limit: int | None = None  # evaluate only the first N pairs (calibration unchanged)
    seed: int = 0
    attach: Path | None = None
    cache_dir: Path | None = None
    llm: LLMConfig = field(default_factory=LLMConfig)
    #: each method's own settings, checked where they were read (``method_settings``: the command line and
    #: ``[eval.methods.<name>]``); a method without an entry runs on its defaults. ``with_plan`` and
    #: ``seed`` are the run's: these options set them in every method's settings.
    settings: Mapping[str, MethodSettings] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Every option checked before the first call: a bad one found after an hour of paid calls (or
        a ``--name`` that writes outside ``--out``) is worse than one line now."""
        if not 0 < self.epsilon < 1:
            raise ConfigError(f"--epsilon must be between 0 and 1, got {self.epsilon}")
        if self.calibration_rule not in RULES:
            raise ConfigError(f"--calibration-rule must be one of {', '.join(RULES)}, got {self.calibration_rule!r}")
        if self.metrics not in MODES:
            raise ConfigError(f"--metrics must be one of {', '.join(MODES)}, got {self.metrics!r}")
        if self.limit is not None and self.limit < 1:
            raise ConfigError(f"--limit must be at least 1, got {self.limit}")
        if self.calibration_size < 1:
            raise ConfigError(f"--calibration-size must be at least 1, got {self.calibration_size}")
        if self.name and not _FOLDER_NAME.match(self.name):
            raise ConfigError(f"--name {self.name!r} is not usable as a folder name (letters, digits, '.', '_', '-')")
        if self.out.exists() and not self.out.is_dir():
            raise ConfigError(f"--out: {self.out} is a file, not a folder")
        if self.attach is not None and not (self.attach / "manifest.json").is_file():
            raise ConfigError(f"--attach: {self.attach} is not a release folder (no manifest.json)")
        run = {"with_plan": self.with_plan, "seed": self.seed}
        every = {name: self.settings.get(name) or settings_class(name)() for name in names()}
        object.__setattr__(self, "settings", {name: s.model_copy(update=run) for name, s in every.items()})


def check_methods(methods: list[str]) -> tuple[str, ...]:
    known = names()
    unknown = [m for m in methods if m not in known]
    if not methods or unknown:
        raise ConfigError(
            f"--method: unknown method(s) {', '.join(unknown) or '(none given)'} (known: {', '.join(known)})"
        )
    return tuple(dict.fromkeys(methods))


def check_key(opts: EvalOptions) -> None:
    """The provider's key set and usable before any work (the value is never shown)."""
    from ambiforge.config.llm import key_problem

    settings = opts.llm.providers.get(opts.provider)
    if settings is None:
        known = ", ".join(opts.llm.providers)
        raise ConfigError(f"--provider: {opts.provider!r} is not configured (known: {known})")
    key = settings.api_key()
    if key is None:
        raise ConfigError(f"{settings.api_key_env} is not set (needed by --provider {opts.provider})")
    if problem := key_problem(key):
        raise ConfigError(f"{settings.api_key_env}: {problem} (the value is not shown)")


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "eval"


def make_model(opts: EvalOptions, folder: Path) -> EvalModel:
    from ambiforge.llm.budget import Budget
    from ambiforge.llm.calls import CallCache, CallLog
    from ambiforge.llm.client import LLMClient
    from ambiforge.llm.limiter import LocalLimiter

    if opts.provider not in opts.llm.providers:
        raise ConfigError(f"--provider: {opts.provider!r} is not configured (known: {', '.join(opts.llm.providers)})")
    log = CallLog(folder / "calls.jsonl")
    cache = CallCache(opts.cache_dir or Path(opts.llm.cache_dir or "raw/.llm-cache"))
    client = LLMClient(
        opts.llm, log, cache, LocalLimiter(opts.llm.concurrency, opts.llm.rpm), Budget(log.path, opts.llm.max_cost)
    )
    return ClientModel(client, opts.provider, opts.model, run_id=f"eval-{folder.name}")


def model_pace(model: EvalModel) -> dict[str, Any] | None:
    """The client limiter's account of where the calls' time went (``LocalLimiter.pace``), when the model
    goes through one (an in-process scripted model does not)."""
    limiter = getattr(getattr(model, "client", None), "limiter", None)
    pace = getattr(limiter, "pace", None)
    return pace() if callable(pace) else None


def run_eval(opts: EvalOptions, model: EvalModel | None = None) -> dict[str, Any]:
    """Run it and return ``results.json``'s content (plus ``folder``)."""
    methods = check_methods(list(opts.methods))
    dataset = load_dataset(opts.data, opts.calibration, opts.calibration_size)
    if opts.limit is not None:
        dataset.items = dataset.items[: opts.limit]
    mode = "plan" if opts.with_plan else "action-only"
    name = opts.name or slug(f"{dataset.name}-{opts.model}-{mode}")
    folder = opts.out / name
    model = model or make_model(opts, folder)
    jobs = len(methods) * 2 * len(dataset.items) + len(dataset.calibration) * len(methods)
    progress.start(STAGE, jobs)
    try:
        results = evaluate(
            dataset,
            methods,
            model,
            opts.settings,
            opts.epsilon,
            opts.llm.concurrency,
            lambda n: progress.advance(STAGE, n),
            opts.calibration_rule,
        )
    finally:
        progress.finish(STAGE)
    if opts.metrics != "paper":  # the per-item ``metrics`` stay the paper's; the tables follow the mode
        for result in results:
            figures = method_tables(result.rows, opts.metrics)
            result.summary, result.ambdif = figures["by_group"], figures["ambdif"]
    meta = {
        "name": name,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "ambiforge_version": __version__,
        "model": opts.model,
        "provider": opts.provider,
        "epsilon": opts.epsilon,
        "calibration_rule": opts.calibration_rule,
        "metrics": opts.metrics,
        "with_plan": opts.with_plan,
        "seed": opts.seed,
        "settings": settings_record(opts.settings),
    }
    document = results_document(dataset, results, meta)
    if (pace := model_pace(model)) is not None:
        document["pace"] = pace
    write_outputs(folder, document, results)
    check_answered({**document, "folder": str(folder)})
    if opts.attach is not None:
        document["attached_to"] = str(attach(opts.attach, folder, document))
    return {**document, "folder": str(folder)}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def attach(release: Path, folder: Path, document: dict[str, Any]) -> Path:
    """``curated/<version>.evals/<name>.json`` beside the (immutable) release: which eval, on which release
    files, with the headline numbers. The release's manifest is never rewritten."""
    manifest = release / "manifest.json"
    if not manifest.exists():
        raise ConfigError(f"--attach: {release} is not a release folder (no manifest.json)")
    link = {
        "release": release.name,
        "release_manifest_sha256": _sha256(manifest),
        "eval": document["name"],
        "eval_folder": str(folder.resolve()),
        "results_sha256": _sha256(folder / "results.json"),
        "model": document["model"],
        "provider": document["provider"],
        "epsilon": document["epsilon"],
        "with_plan": document["with_plan"],
        "evaluated_on": document["evaluated_on"],
        "created_at": document["created_at"],
        "ambdif": {m: r["ambdif"]["all"] for m, r in document["methods"].items()},
        "help_rate": {m: r["by_group"]["all"]["HR"] for m, r in document["methods"].items()},
    }
    return write_json_atomic(release.parent / f"{release.name}.evals" / f"{document['name']}.json", link)
