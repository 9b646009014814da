"""Split conformal prediction over option scores, as KnowNo calibrates it.

On the calibration tasks the non-conformity score is ``s_i = 1 - p(true option)``, with the best-scoring
correct option as the true one (0 when the model offered none). ``q`` is the
``ceil((n + 1)(1 - epsilon)) / n`` empirical quantile of the scores (taken with numpy's ``higher``
method, so it is one of the observed scores, as in KnowNo's code); the prediction set of a test task is
every option with ``p(y) >= 1 - q``. With exchangeable tasks the set holds a correct option with
probability at least ``1 - epsilon``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_EPSILON = 0.2


@dataclass(frozen=True)
class Calibration:
    epsilon: float
    n: int
    qhat: float
    level: float  # the quantile level that was taken (capped at 1)

    @property
    def threshold(self) -> float:
        """An option is in the set when its score is at least this."""
        return 1.0 - self.qhat

    def to_record(self) -> dict[str, float | int]:
        return {
            "epsilon": self.epsilon,
            "n": self.n,
            "qhat": self.qhat,
            "level": self.level,
            "threshold": self.threshold,
        }


def nonconformity(scores: Sequence[float], correct: Sequence[bool]) -> float:
    """``1 - max p over the correct options`` (1 when no option is correct)."""
    best = max((s for s, ok in zip(scores, correct, strict=True) if ok), default=0.0)
    return 1.0 - best


def calibrate(nonconformity_scores: Sequence[float], epsilon: float = DEFAULT_EPSILON) -> Calibration:
    n = len(nonconformity_scores)
    if n == 0:
        raise ValueError("conformal calibration needs at least one calibration task")
    if not 0 < epsilon < 1:
        raise ValueError(f"epsilon must be in (0, 1), got {epsilon}")
    level = min(1.0, math.ceil((n + 1) * (1 - epsilon)) / n)
    qhat = float(np.quantile(np.asarray(nonconformity_scores, dtype=float), level, method="higher"))
    return Calibration(epsilon=epsilon, n=n, qhat=qhat, level=level)


def prediction_set(scores: Sequence[float], calibration: Calibration) -> list[int]:
    """Indexes of the options whose score reaches the threshold (a tiny tolerance absorbs float noise)."""
    return [i for i, s in enumerate(scores) if s >= calibration.threshold - 1e-12]
