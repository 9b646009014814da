"""A type mix as configured (``[build] type_mix``, ``--type-mix``) checked against the registered types.

Beside the registry, not in generation, because configuration checks a mix when it is loaded and the
configuration layer sits below generation; the quotas a mix gives are :mod:`ambiforge.generation.mix`'s.
"""

from __future__ import annotations

import math

from ambiforge.ambiguity.registry import names
from ambiforge.errors import ConfigError


def check_mix(mix: dict[str, float]) -> dict[str, float]:
    """Normalised shares for every registered type (0 for those the mix leaves out)."""
    known = names()
    unknown = sorted(set(mix) - set(known))
    if unknown:
        raise ConfigError(f"type mix: unknown ambiguity type {unknown[0]!r} (known: {', '.join(known)})")
    bad = next((t for t, v in mix.items() if not math.isfinite(v)), None)
    if bad is not None:
        raise ConfigError(f"type mix: share of {bad!r} must be a finite number, got {mix[bad]}")
    negative = next((t for t, v in mix.items() if v < 0), None)
    if negative is not None:
        raise ConfigError(f"type mix: share of {negative!r} must not be negative, got {mix[negative]}")
    total = sum(mix.values())
    if total <= 0:
        raise ConfigError("type mix: shares must add up to more than 0")
    return {t: mix.get(t, 0.0) / total for t in known}
