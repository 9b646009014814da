"""Calibration/test splits, stratified by ambiguity type and seeded (AmbiK ships calibration 100 / test 900).

One item is one pair, so a pair can never be split across files. The calibration quota is shared among
types by largest remainder, like the build's type mix, so each type keeps its share in both splits.

A calibration size that would leave no test items (the default 100 on a release of 60) is capped at
AmbiK's ratio, a tenth of the items, and the cap is recorded in the manifest and the card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ambiforge import ambiguity
from ambiforge.models import Item

AMBIK_CALIBRATION_RATIO = 0.1
#: The named configuration the items of environment-induced types (``level: environment``) ship in, beside
#: the default one: ``environment/data.parquet`` and ``.jsonl``, in no split and not in the AmbiK CSV (an
#: AmbiK row has one kitchen; these items have two).
ENVIRONMENT = "environment"


@dataclass(frozen=True)
class SplitSize:
    requested: int
    calibration: int
    note: str | None = None  # why the size differs from the requested one


def fit_calibration_size(requested: int, total: int) -> SplitSize:
    """The calibration size used for ``total`` items."""
    requested = max(requested, 0)
    if requested < total or total == 0:
        return SplitSize(requested, requested if total else 0)
    capped = max(1, round(total * AMBIK_CALIBRATION_RATIO)) if total > 1 else 0
    return SplitSize(
        requested,
        capped,
        f"calibration size {requested} would leave no test items among {total}; "
        f"capped to {capped} (a tenth, AmbiK's ratio; set --calibration-size to choose)",
    )


def _quotas(size: int, counts: dict[str, int]) -> dict[str, int]:
    """Largest remainder, ties in registry order (as the build's type mix)."""
    total = sum(counts.values())
    exact = {t: size * n / total for t, n in counts.items()}
    quotas = {t: int(v) for t, v in exact.items()}
    order = {t: k for k, t in enumerate(ambiguity.names())}
    for t in sorted(exact, key=lambda t: (-(exact[t] - quotas[t]), order.get(t, len(order)), t))[
        : size - sum(quotas.values())
    ]:
        quotas[t] += 1
    return quotas


def stratified_splits(items: Sequence[Item], calibration_size: int, seed: int) -> dict[str, list[str]]:
    """``{"calibration": [ids], "test": [ids]}`` in item order within each split."""
    size = min(max(calibration_size, 0), len(items))
    types = list(dict.fromkeys(i.ambiguity_type for i in items))
    by_type = {t: [i.id for i in items if i.ambiguity_type == t] for t in types}
    shares = {t: len(ids) for t, ids in by_type.items()}
    quotas = _quotas(size, shares) if size else {t: 0 for t in types}
    calibration: set[str] = set()
    for t, ids in by_type.items():
        chosen = random.Random(f"{seed}:{t}").sample(sorted(ids), min(quotas.get(t, 0), len(ids)))
        calibration.update(chosen)
    return {
        "calibration": [i.id for i in items if i.id in calibration],
        "test": [i.id for i in items if i.id not in calibration],
    }
