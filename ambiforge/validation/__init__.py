"""Validation: item rules (``rules/``), dataset expectations (``expectations.py``, Great Expectations) and
the report (``report.py``). ``validate_items`` judges a dataset; ``gate`` applies it inside a build."""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from ambiforge.models import Item, RuleFailure, Validation
from ambiforge.models.outcome import Outcome
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules import active_rules, check_item, severity
from ambiforge.validation.rules.duplicates import find_duplicates

#: From this many items on, item rules run in worker processes (one per core) while the parent looks for
#: duplicates; below it, starting the workers costs more than it saves.
PARALLEL_FROM = 20_000


def _check_chunk(items: Sequence[Item], ctx: RuleContext) -> list[list[RuleFailure]]:
    active = active_rules(ctx)
    return [check_item(item, ctx, active=active) for item in items]


def _item_failures(items: Sequence[Item], ctx: RuleContext) -> tuple[list[list[RuleFailure]], dict]:  # type: ignore[type-arg]
    workers = min(os.cpu_count() or 1, 8)
    if len(items) < PARALLEL_FROM or workers < 2:
        return _check_chunk(items, ctx), find_duplicates(items, ctx)
    size = -(-len(items) // workers)
    # "spawn": the caller may be a Prefect task thread, and forking a threaded process can deadlock.
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(_check_chunk, items[k : k + size], ctx) for k in range(0, len(items), size)]
        dataset = find_duplicates(items, ctx)
        per_item = [failures for future in futures for failures in future.result()]
    return per_item, dataset


def validate_items(items: Sequence[Item], ctx: RuleContext | None = None) -> list[Item]:
    """Copies of the items with ``validation`` set: passed when no error-severity rule failed."""
    ctx = ctx or RuleContext()
    per_item, dataset = _item_failures(items, ctx)
    judged = []
    for pos, item in enumerate(items):
        failures = list(per_item[pos])
        for rule_id, message in dataset.get(pos, []):
            level = severity(rule_id, ctx)
            if level != "off":
                failures.append(RuleFailure(rule=rule_id, severity=level, message=message))  # type: ignore[arg-type]
        passed = not any(f.severity == "error" for f in failures)
        judged.append(item.model_copy(update={"validation": Validation(passed=passed, failed=failures)}))
    return judged


def gate(outcomes: list[Outcome], ctx: RuleContext | None = None) -> list[Outcome]:
    """The build's quality gate: items failing an error rule are rejected with the rules' messages (and
    keep their item, for the report); the others move on with their warnings recorded."""
    alive = [o for o in outcomes if o.item is not None and o.stage is None]
    judged = iter(validate_items([o.item for o in alive], ctx))  # type: ignore[misc]
    return [
        outcome if outcome.item is None or outcome.stage is not None else gated(outcome, next(judged))
        for outcome in outcomes
    ]


def gated(outcome: Outcome, item: Item) -> Outcome:
    """``outcome`` with its item as judged (``item`` carries ``validation``): rejected by the ``validate``
    stage with the error rules' messages when one failed."""
    assert item.validation is not None
    if item.validation.passed:
        return Outcome(outcome.index, outcome.ambiguity_type, item, outcome.attempt, meta=outcome.meta)
    errors = [f for f in item.validation.failed if f.severity == "error"]
    reason = "; ".join(f"{f.rule}: {f.message}" for f in errors)
    return Outcome(outcome.index, outcome.ambiguity_type, item, outcome.attempt, "validate", reason, outcome.meta)


__all__ = ["RuleContext", "check_item", "gate", "gated", "validate_items"]
