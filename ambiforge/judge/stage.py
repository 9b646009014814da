"""The judge stage: every pair that passed the item rules is judged (debates over both halves, the
simulated user on its question); the verdicts go onto the item, the transcripts into
``raw/<run-id>/judgements.jsonl``, and a flag configured as an error rejects the pair, with its message,
as an error rule of the validation gate does.

Items are judged in parallel, as many as the LLM client lets calls be in flight; every call goes through
that client (cache, limits, budget, the run's ``calls.jsonl``). The judge itself is a function of one item
to its :class:`~ambiforge.judge.pair.PairJudgement` (:func:`make_judge` builds it on
:func:`ambiforge.judge.pair.judge_pair`), so a test gives the stage a fake one through
``StageContext.judge``.

A rerun of the stage reuses every record of ``judgements.jsonl`` whose key (the pair's content and the
judge's configuration) is unchanged; the calls of a stage killed midway are in the LLM cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambiforge import progress
from ambiforge.atomic import jsonl_writer
from ambiforge.config.judge import JudgeConfig
from ambiforge.errors import ConfigError, LLMError
from ambiforge.judge.pair import Flag, PairJudgement
from ambiforge.judge.summary import judgement_of
from ambiforge.models import Item, Judgement
from ambiforge.models.outcome import Outcome
from ambiforge.run.layout import JUDGEMENTS_FILE

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions
    from ambiforge.config.llm import LLMConfig

Judge = Callable[[Item], PairJudgement]
STAGE = "judge"
#: fields that are the pipeline's verdicts on a pair, not the pair: a change there needs no new judgement
_NOT_CONTENT = ("validation", "review", "judgement", "provenance")


def record_key(record: dict[str, Any], config: JudgeConfig) -> str:
    """What a judgement depends on: the pair's content and the judge's settings (personas included when
    set: :class:`JudgeConfig` leaves them out of its dump when there are none, so older keys still match)."""
    content = {k: v for k, v in record.items() if k not in _NOT_CONTENT}
    text = json.dumps([content, config.model_dump(mode="json", exclude={"enabled", "severity"})], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def judge_llm(options: BuildOptions) -> LLMConfig:
    """The generator's LLM settings, else those the configuration gave the judge (an offline build), else
    the defaults (options made in code: providers find their endpoints in the environment)."""
    from ambiforge.config.llm import LLMConfig

    llm = options.llm or options.judge_llm or LLMConfig()
    if options.judge.provider not in llm.providers:
        raise ConfigError(f"judge.provider: unknown provider {options.judge.provider!r}")
    return llm


def make_judge(options: BuildOptions) -> Judge:
    """``judge_pair`` with one agent per configured model, all on one LLM client writing the run's
    ``calls.jsonl`` and sharing the build's cache and process-wide limiter."""
    from ambiforge.detectors.model import ClientModel
    from ambiforge.judge.pair import judge_pair
    from ambiforge.llm.budget import Budget, BudgetedLimiter
    from ambiforge.llm.calls import CALLS_FILE, CallCache, CallLog, llm_cache_dir
    from ambiforge.llm.client import LLMClient
    from ambiforge.llm.limiter import shared_limiter

    llm = judge_llm(options)
    config = options.judge
    log = CallLog(Path(options.out) / options.run_id / CALLS_FILE)
    budget = Budget(log.path, llm.max_cost)
    limiter = BudgetedLimiter(shared_limiter(llm.concurrency, llm.rpm), budget)  # as the LLM generator's calls
    client = LLMClient(llm, log, CallCache(llm_cache_dir(options)), limiter, budget)
    agents = [ClientModel(client, config.provider, model, options.run_id) for model in config.agents]
    return lambda item: judge_pair(item, agents, config, options.seed)


def _failed(message: str) -> PairJudgement:
    """A judge that raised for one item (a call that failed past its retries): a ``debate_error`` flag,
    so the item is reported, not lost, and the severity decides whether it stays."""
    return PairJudgement(debate={}, flags=(Flag("debate_error", message),))


def read_previous(path: Path) -> dict[str, dict[str, Any]]:
    """key -> record of an earlier pass of the stage; an unreadable file is simply not reused."""
    if not path.is_file():
        return {}
    found = {}
    try:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    record = json.loads(line)
                    found[record["key"]] = record
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return found


def judge_outcomes(
    outcomes: Sequence[Outcome],
    judge: Judge,
    config: JudgeConfig,
    concurrency: int = 8,
    previous: dict[str, dict[str, Any]] | None = None,
) -> tuple[list[Outcome], list[dict[str, Any]]]:
    """Outcomes -> (outcomes with ``item.judgement`` set and error-flagged pairs rejected, the records of
    ``judgements.jsonl``). Pairs rejected earlier pass through unjudged."""
    previous = previous or {}
    alive = [n for n, o in enumerate(outcomes) if o.item is not None and o.stage is None]

    def run(n: int) -> dict[str, Any]:
        item = outcomes[n].item
        assert item is not None
        record = item.to_record()
        key = record_key(record, config)
        if key in previous:
            progress.advance(STAGE, 1)
            return previous[key]
        try:
            result = judge(item)
        except LLMError as exc:  # a call that failed past its retries, or the budget: this pair only
            result = _failed(str(exc))
        judgement = judgement_of(result, config)
        progress.advance(STAGE, 1)
        return {
            "id": item.id,
            "index": outcomes[n].index,
            "ambiguity_type": item.ambiguity_type,
            "key": key,
            "judgement": judgement.model_dump(mode="json"),
            **result.to_record(),
        }

    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="judge") as pool:
        records = list(pool.map(run, alive))
    judged = list(outcomes)
    for n, record in zip(alive, records, strict=True):
        # severities as configured now (a reused record may have been judged under other ones)
        judgement = Judgement.model_validate(record["judgement"])
        judgement = judgement.model_copy(
            update={"flags": [f.model_copy(update={"severity": config.severity_of(f.check)}) for f in judgement.flags]}
        )
        record["judgement"] = judgement.model_dump(mode="json")
        outcome = judged[n]
        record["index"] = outcome.index
        item = outcome.item.model_copy(update={"judgement": judgement})  # type: ignore[union-attr]
        errors = [f for f in judgement.flags if f.severity == "error"]
        if errors:
            reason = "; ".join(f"judge {f.check}: {f.message}" for f in errors)
            judged[n] = replace(outcome, item=item, stage=STAGE, reason=reason)
        else:
            judged[n] = replace(outcome, item=item)
    return judged, records


def run_judge_stage(
    outcomes: Sequence[Outcome], options: BuildOptions, directory: Path, judge: Judge | None = None
) -> list[Outcome]:
    """The stage on a run folder: judge, write ``judgements.jsonl`` atomically, return the outcomes."""
    alive = sum(1 for o in outcomes if o.item is not None and o.stage is None)
    with JudgeRun(options, directory, alive, judge) as run:
        return run(outcomes)


class JudgeRun:
    """The stage over a run's pairs given batch by batch (a build streams them): each call judges a batch;
    ``judgements.jsonl`` grows beside the run folder's and replaces it when the block ends without error.
    The earlier pass's records (read once) are reused by key. ``alive``: the pairs to judge, for progress."""

    def __init__(self, options: BuildOptions, directory: Path, alive: int, judge: Judge | None = None) -> None:
        self.options, self.alive = options, alive
        self.path = directory / JUDGEMENTS_FILE
        self.judge = judge
        self.stack = contextlib.ExitStack()

    def __enter__(self) -> JudgeRun:
        self.previous = read_previous(self.path)
        self.judge = self.judge or make_judge(self.options)
        self.concurrency = judge_llm(self.options).concurrency
        progress.start(STAGE, self.alive)
        self.stack.callback(progress.finish, STAGE)
        self.write = self.stack.enter_context(jsonl_writer(self.path))
        return self

    def __call__(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        assert self.judge is not None
        judged, records = judge_outcomes(outcomes, self.judge, self.options.judge, self.concurrency, self.previous)
        for record in records:
            self.write(record)
        return judged

    def __exit__(self, *exc: object) -> None:
        self.stack.__exit__(*exc)  # type: ignore[arg-type]
