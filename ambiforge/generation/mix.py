"""The ambiguity-type mix: exact per-type quotas for N pairs, in a seeded order.

Quotas use the largest-remainder method so the counts match the configured shares as closely as an
integer count can (AmbiK: 47.2 / 39.8 / 13 %, the built-in types' ``default_share``), instead of drifting
as independent draws would. The types are the registry's (:mod:`ambiforge.ambiguity`), in its order.
"""

from __future__ import annotations

import math
import random

from ambiforge.ambiguity import default_mix, names
from ambiforge.errors import ConfigError

__all__ = ["check_mix", "default_mix", "type_quotas", "type_sequence"]


def check_mix(mix: dict[str, float]) -> dict[str, float]:
    """Normalised shares for every registered type (0 for those the mix leaves out)."""
    known = names()
    unknown = sorted(set(mix) - set(known))
    if unknown:
        raise ConfigError(f"type mix: unknown ambiguity type {unknown[0]!r} (known: {', '.join(known)})")
    bad = next((t for t, v in mix.items() if not math.isfinite(v)), None)
    if bad is not None:
        raise ConfigError(f"type mix: share of {bad!r} must be a finite number, got {mix[bad]}")
    if any(v < 0 for v in mix.values()):
        raise ConfigError("type mix: shares must not be negative")
    total = sum(mix.values())
    if total <= 0:
        raise ConfigError("type mix: shares must add up to more than 0")
    return {t: mix.get(t, 0.0) / total for t in known}


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
