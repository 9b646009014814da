"""The built-in stages: thin adapters over the functions of generation, validation, judge, review and release.

Each imports its package when it runs, so registering the stages costs nothing and creates no import
cycle. Bump a stage's version when what it writes changes for the same options.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ambiforge.stages.contract import FunctionStage, StageContext


def _generate(specs: Sequence[Any], context: StageContext) -> list[Any]:
    """PairSpecs -> Outcomes with the options' generator (``extras['generator']`` when the caller made one,
    e.g. with a cluster-wide limiter)."""
    from ambiforge.generation.run import generate_batch, make_generator

    generator = context.extras.get("generator") or make_generator(context.options)
    return generate_batch(generator, specs)


def _validate(outcomes: Sequence[Any], context: StageContext) -> list[Any]:
    """Outcomes -> Outcomes: items failing an error rule are rejected, with the ``[validation]``
    thresholds of the options."""
    from ambiforge.catalog import cached_catalog
    from ambiforge.validation import gate
    from ambiforge.validation.context import RuleContext

    options = context.options
    ctx = RuleContext(catalog=cached_catalog(options.catalog), config=options.validation)
    return gate(list(outcomes), ctx)


def _judge(outcomes: Sequence[Any], context: StageContext) -> list[Any]:
    """Outcomes -> Outcomes with ``item.judgement`` (``[judge]``); writes the run's ``judgements.jsonl``.
    ``extras['judge']`` replaces the LLM judge (tests), ``extras['directory']`` the run folder."""
    from pathlib import Path

    from ambiforge.judge.stage import run_judge_stage

    options = context.options
    directory = context.extras.get("directory") or Path(options.out) / options.run_id
    return run_judge_stage(list(outcomes), options, Path(directory), context.extras.get("judge"))


def _review(run_ids: Sequence[str], context: StageContext) -> list[Any]:
    """Run ids -> one push report per run (tasks created in Label Studio); ``extras['paths']`` is a
    :class:`~ambiforge.review.push.ReviewPaths`, ``extras['project']`` an optional project title."""
    from ambiforge.review.push import push

    return [push(run_id, context.extras["paths"], context.extras.get("project")) for run_id in run_ids]


def _release(options: Sequence[Any], context: StageContext) -> list[Any]:
    """ReleaseOptions -> the release folders written."""
    from ambiforge.release.writer import release

    return [release(opts) for opts in options]


GENERATION = FunctionStage("generation", "1", ("pair_specs",), ("outcomes",), _generate, "generate pairs")
VALIDATION = FunctionStage("validation", "1", ("outcomes",), ("outcomes",), _validate, "item rules as a gate")
JUDGE = FunctionStage(
    "judge", "1", ("outcomes",), ("outcomes",), _judge, "debates and a simulated user judge each pair"
)
REVIEW = FunctionStage("review", "1", ("run_ids",), ("push_reports",), _review, "push items to Label Studio")
RELEASE = FunctionStage("release", "1", ("release_options",), ("release_folders",), _release, "write a release")

BUILTIN_STAGES: tuple[FunctionStage, ...] = (GENERATION, VALIDATION, JUDGE, REVIEW, RELEASE)
