"""The ambiguity-type mix: exact per-type quotas for N pairs, in a seeded order.

Quotas use the largest-remainder method so the counts match the configured shares as closely as an
integer count can (AmbiK: 47.2 / 39.8 / 13 %, the built-in types' ``default_share``), instead of drifting
as independent draws would. The types are the registry's (:mod:`ambiforge.ambiguity`), in its order; the
mix itself is checked there (:func:`ambiforge.ambiguity.check_mix`).
"""

from __future__ import annotations

import math
import random

from ambiforge.ambiguity import check_mix

__all__ = ["type_quotas", "type_sequence"]


def type_quotas(n: int, mix: dict[str, float]) -> dict[str, int]:
    shares = check_mix(mix)
    order = list(shares)
    exact = {t: shares[t] * n for t in order}
    counts = {t: math.floor(v) for t, v in exact.items()}
    left = n - sum(counts.values())
    for t in sorted(order, key=lambda t: (-(exact[t] - counts[t]), order.index(t)))[:left]:
        counts[t] += 1
    return counts


def type_sequence(n: int, mix: dict[str, float], seed: int) -> list[str]:
    """The ambiguity type of each of the N pairs, shuffled with the run's seed."""
    counts = type_quotas(n, mix)
    sequence = [t for t in counts for _ in range(counts[t])]
    random.Random(f"{seed}:types").shuffle(sequence)
    return sequence
