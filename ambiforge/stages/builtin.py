"""The built-in stages: thin adapters over the functions of generation, validation, judge, review and release.

Each imports its package when it runs, so registering the stages costs nothing and creates no import
cycle; the registry finds them through their entry points and never imports this module by name. Bump a
stage's version when what it writes changes for the same options.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ambiforge.stages.contract import FunctionStage, StageContext


def _generate(specs: Sequence[Any], context: StageContext) -> list[Any]:
    """PairSpecs -> Outcomes with the options' generator (``context.generator`` when the caller made one,
    e.g. with a cluster-wide limiter)."""
    from ambiforge.generation.run import generate_batch, make_generator

    generator = context.generator or make_generator(context.options)
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
    ``context.judge`` replaces the LLM judge (tests), ``context.directory`` the run folder."""
    from pathlib import Path

    from ambiforge.judge.stage import run_judge_stage

    options = context.options
    directory = context.directory or Path(options.out) / options.run_id
    return run_judge_stage(list(outcomes), options, Path(directory), context.judge)


def _review(run_ids: Sequence[str], context: StageContext) -> list[Any]:
    """Run ids -> one push report per run (tasks created in Label Studio in ``context.project``, or the
    run's project) with the folders of ``context.paths``."""
    from ambiforge.review.push import push

    if context.paths is None:
        raise ValueError("the review stage needs StageContext.paths")
    return [push(run_id, context.paths, context.project) for run_id in run_ids]


def _release(options: Sequence[Any], context: StageContext) -> list[Any]:
    """ReleaseOptions -> the release folders written."""
    from ambiforge.releases.writer import release

    return [release(opts) for opts in options]


# Each is declared as an entry point in ``ambiforge.stages`` (pyproject.toml); ``order`` is its place there.
GENERATION = FunctionStage("generation", "1", ("pair_specs",), ("outcomes",), _generate, "generate pairs", 1)
VALIDATION = FunctionStage("validation", "1", ("outcomes",), ("outcomes",), _validate, "item rules as a gate", 2)
JUDGE = FunctionStage(
    "judge", "1", ("outcomes",), ("outcomes",), _judge, "debates and a simulated user judge each pair", 3
)
REVIEW = FunctionStage("review", "1", ("run_ids",), ("push_reports",), _review, "push items to Label Studio", 4)
RELEASE = FunctionStage("release", "1", ("release_options",), ("release_folders",), _release, "write a release", 5)
