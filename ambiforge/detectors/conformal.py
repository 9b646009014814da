"""Split conformal prediction over option scores, and the three ways an eval may calibrate it.

Each calibration task gives its options' scores (probabilities) and which options are correct. The rule
(``--calibration-rule``) decides what is calibrated:

- ``knowno`` (the default, KnowNo's convention, Ren et al. 2023): only the tasks whose options include a
  correct one calibrate; the non-conformity score is ``s_i = 1 - p(best correct option)``; ``qhat`` is the
  ``ceil((n + 1)(1 - epsilon)) / n`` empirical quantile (numpy's ``higher`` method, so an observed score, as
  in KnowNo's code); a test set is every option with ``p >= 1 - qhat``. The guarantee is conditional: a task
  whose options include a correct one gets a set holding one with probability at least ``1 - epsilon``. The
  tasks left out (no correct option) are counted in the results.
- ``all``: every task calibrates and one without a correct option scores 1. The guarantee is over every
  task, but once more than ``epsilon`` of the tasks lack a correct option ``qhat`` is 1, the threshold 0 and
  every option is in every set (the method then says nothing): defensible, rarely useful.
- ``authors``: the AmbiK authors' published code (``knowno/calibrate.py``): the probabilities of *every*
  correct option of every task are pooled, the threshold (their "CP") is their ``ceil((n + 1)(1 -
  epsilon)) / n`` quantile with numpy's default linear interpolation, and a set is the options with ``p``
  strictly above it. Kept to reproduce the published tables; it is not a conformal guarantee (it takes the
  upper quantile of the correct options' probabilities, so most sets are empty or single). The set rule is
  each method's in their code (``comparison``): KnowNo ``p > CP`` (``above``); LAP ``score >= CP``
  (``at_least``); LofreeCP pools the correct options' *non-conformity* ``1 - score`` and keeps the options
  whose non-conformity is ``>= CP`` (``nonconformity_at_least``: the direction is reversed there, so the
  least conforming options are kept).

``warnings`` say when the figures cannot mean what epsilon asks: a calibration set too small for epsilon
(the quantile level is capped at 1, so ``qhat`` is the largest score), or fewer than ``1 - epsilon`` of the
calibration tasks with a correct option (no rule can then cover ``1 - epsilon`` of all tasks).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

DEFAULT_EPSILON = 0.2
RULES = ("knowno", "all", "authors")
DEFAULT_RULE = "knowno"
#: the ``authors`` rule's set comparisons (see the module's note)
COMPARISONS = ("above", "at_least", "nonconformity_at_least")


@dataclass(frozen=True)
class Calibration:
    epsilon: float
    n: int  # the scores the quantile was taken over (tasks; ``authors``: correct options)
    qhat: float  # ``authors``: the probability threshold itself (their CP value)
    level: float  # the quantile level that was taken (capped at 1)
    rule: str = DEFAULT_RULE
    tasks: int = 0  # calibration tasks answered (a failed one is in ``errors``)
    no_correct_option: int = 0  # answered calibration tasks whose options include no correct one
    errors: int = 0  # calibration tasks whose method failed: left out
    warnings: tuple[str, ...] = field(default=())
    comparison: str = "above"  # ``authors`` only: the method's set rule in the published code

    @property
    def rule_label(self) -> str:
        return f"{self.rule} ({self.comparison})" if self.rule == "authors" else self.rule

    @property
    def threshold(self) -> float:
        """An option is in the set when its score is at least this (``authors``: above it)."""
        return self.qhat if self.rule == "authors" else 1.0 - self.qhat

    def to_record(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "epsilon": self.epsilon,
            "n": self.n,
            "qhat": self.qhat,
            "level": self.level,
            "threshold": self.threshold,
            "tasks": self.tasks,
            "no_correct_option": self.no_correct_option,
            "left_out": self.no_correct_option if self.rule == "knowno" else 0,
            "errors": self.errors,
            "comparison": self.comparison if self.rule == "authors" else None,
            "warnings": list(self.warnings),
        }


def nonconformity(scores: Sequence[float], correct: Sequence[bool]) -> float:
    """``1 - max p over the correct options`` (1 when no option is correct)."""
    best = max((s for s, ok in zip(scores, correct, strict=True) if ok), default=0.0)
    return 1.0 - best


def _level(n: int, epsilon: float) -> float:
    return min(1.0, math.ceil((n + 1) * (1 - epsilon)) / n)


def calibrate(nonconformity_scores: Sequence[float], epsilon: float = DEFAULT_EPSILON) -> Calibration:
    n = len(nonconformity_scores)
    if n == 0:
        raise ValueError("conformal calibration needs at least one calibration task")
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must be in (0, 1), got {epsilon}")
    level = _level(n, epsilon)
    qhat = float(np.quantile(np.asarray(nonconformity_scores, dtype=float), level, method="higher"))
    return Calibration(epsilon=epsilon, n=n, qhat=qhat, level=level)


def too_small(n: int, epsilon: float) -> bool:
    """Whether ``ceil((n + 1)(1 - epsilon)) > n``: the level is capped and qhat is the largest score."""
    return math.ceil((n + 1) * (1 - epsilon)) > n


def calibrate_tasks(
    tasks: Sequence[tuple[Sequence[float], Sequence[bool]]],
    epsilon: float = DEFAULT_EPSILON,
    rule: str = DEFAULT_RULE,
    errors: int = 0,
    comparison: str = "above",
) -> Calibration:
    """A calibration from the answered calibration tasks' ``(scores, correct)`` under ``rule``; ``errors``
    (failed tasks, already left out) is recorded. With nothing to calibrate on, every option enters every
    set (qhat 1; ``authors``: threshold 0) and a warning says so."""
    if rule not in RULES:
        raise ValueError(f"unknown calibration rule {rule!r} (known: {', '.join(RULES)})")
    with_correct = [(s, c) for s, c in tasks if any(c)]
    missing = len(tasks) - len(with_correct)
    warnings = []
    if tasks and len(with_correct) / len(tasks) < 1 - epsilon:
        warnings.append(
            f"only {len(with_correct)} of {len(tasks)} calibration tasks have a correct option among the "
            f"model's, fewer than 1 - epsilon = {1 - epsilon:g}: no set rule can cover 1 - epsilon of all tasks"
        )
    if comparison not in COMPARISONS:
        raise ValueError(f"unknown set comparison {comparison!r} (known: {', '.join(COMPARISONS)})")
    if rule == "authors":
        values = [p for s, c in tasks for p, ok in zip(s, c, strict=True) if ok]
        if comparison == "nonconformity_at_least":
            values = [1.0 - p for p in values]
    elif rule == "knowno":
        values = [nonconformity(s, c) for s, c in with_correct]
    else:
        values = [nonconformity(s, c) for s, c in tasks]
    common = {
        "rule": rule,
        "tasks": len(tasks),
        "no_correct_option": missing,
        "errors": errors,
        "comparison": comparison,
    }
    if not values:
        warnings.append(
            "nothing to calibrate on (no calibration task has a correct option): every option is in every set"
        )
        qhat = 0.0 if rule == "authors" else 1.0
        return Calibration(epsilon, 0, qhat, 1.0, warnings=tuple(warnings), **common)  # type: ignore[arg-type]
    if too_small(len(values), epsilon):
        needed = math.ceil((1 - epsilon) / epsilon)
        warnings.append(
            f"{len(values)} calibration scores are too few for epsilon {epsilon:g} (at least {needed} needed): "
            "the quantile level is capped at 1, so qhat is the most extreme score"
        )
    level = _level(len(values), epsilon)
    method = "linear" if rule == "authors" else "higher"
    qhat = float(np.quantile(np.asarray(values, dtype=float), level, method=method))
    return Calibration(epsilon, len(values), qhat, level, warnings=tuple(warnings), **common)  # type: ignore[arg-type]


def prediction_set(scores: Sequence[float], calibration: Calibration) -> list[int]:
    """Indexes of the options whose score reaches the threshold (a tiny tolerance absorbs float noise;
    ``authors``: strictly above it, as their code compares)."""
    if calibration.rule == "authors":
        t = calibration.threshold
        if calibration.comparison == "at_least":
            return [i for i, s in enumerate(scores) if s >= t]
        if calibration.comparison == "nonconformity_at_least":
            return [i for i, s in enumerate(scores) if 1.0 - s >= t]
        return [i for i, s in enumerate(scores) if s > t]
    return [i for i, s in enumerate(scores) if s >= calibration.threshold - 1e-12]
