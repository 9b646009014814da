"""The ambiguity-type mix: exact per-type quotas for N pairs, in a seeded order.

Quotas use the largest-remainder method so the counts match the configured shares as closely as an
integer count can (AmbiK: 47.2 / 39.8 / 13 %), instead of drifting as independent draws would.
"""

from __future__ import annotations

import math
import random

from ambiforge.errors import ConfigError
from ambiforge.models import AMBIGUITY_TYPES

AMBIK_MIX: dict[str, float] = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}


def check_mix(mix: dict[str, float]) -> dict[str, float]:
    unknown = sorted(set(mix) - set(AMBIGUITY_TYPES))
    if unknown:
        raise ConfigError(f"type mix: unknown ambiguity type {unknown[0]!r} (known: {', '.join(AMBIGUITY_TYPES)})")
    if any(v < 0 for v in mix.values()):
        raise ConfigError("type mix: shares must not be negative")
    total = sum(mix.values())
    if total <= 0:
        raise ConfigError("type mix: shares must add up to more than 0")
    return {t: mix.get(t, 0.0) / total for t in AMBIGUITY_TYPES}


def type_quotas(n: int, mix: dict[str, float]) -> dict[str, int]:
    shares = check_mix(mix)
    exact = {t: shares[t] * n for t in AMBIGUITY_TYPES}
    counts = {t: math.floor(v) for t, v in exact.items()}
    left = n - sum(counts.values())
    for t in sorted(AMBIGUITY_TYPES, key=lambda t: (-(exact[t] - counts[t]), AMBIGUITY_TYPES.index(t)))[:left]:
        counts[t] += 1
    return counts


def type_sequence(n: int, mix: dict[str, float], seed: int) -> list[str]:
    """The ambiguity type of each of the N pairs, shuffled with the run's seed."""
    counts = type_quotas(n, mix)
    sequence = [t for t in AMBIGUITY_TYPES for _ in range(counts[t])]
    random.Random(f"{seed}:types").shuffle(sequence)
    return sequence
