"""Calibration/test splits, stratified by ambiguity type and seeded (AmbiK ships calibration 100 / test 900).

One item is one pair, so a pair can never be split across files. The calibration quota is shared among
types by largest remainder, like the build's type mix, so each type keeps its share in both splits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ambiforge.ambiguity import names
from ambiforge.generation.mix import type_quotas
from ambiforge.models import Item


def stratified_splits(items: Sequence[Item], calibration_size: int, seed: int) -> dict[str, list[str]]:
    """``{"calibration": [ids], "test": [ids]}`` in item order within each split."""
    size = min(max(calibration_size, 0), len(items))
    by_type = {t: [i.id for i in items if i.ambiguity_type == t] for t in names()}
    shares = {t: len(ids) for t, ids in by_type.items()}
    quotas = type_quotas(size, shares) if size and sum(shares.values()) else {t: 0 for t in names()}
    calibration: set[str] = set()
    for t, ids in by_type.items():
        chosen = random.Random(f"{seed}:{t}").sample(sorted(ids), min(quotas[t], len(ids)))
        calibration.update(chosen)
    return {
        "calibration": [i.id for i in items if i.id in calibration],
        "test": [i.id for i in items if i.id not in calibration],
    }
