"""One LLM limiter across every worker of a build: Prefect global concurrency limits.

Threads in one process share :func:`ambiforge.llm.limiter.shared_limiter`. Dask workers are separate
processes (possibly machines), so a per-process limiter would let each of them run ``concurrency`` calls;
instead the flow creates two global concurrency limits on the Prefect API every worker already talks to:
``<name>`` holds ``concurrency`` slots (one per call in flight) and ``<name>-rpm`` decays at ``rpm / 60``
slots a second (Prefect's rate limiting). Each call attempt takes a slot of both.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from prefect.client.orchestration import get_client
from prefect.concurrency.sync import concurrency, rate_limit

from ambiforge.llm.config import LLMConfig

LIMIT_NAME = "ambiforge-llm"


def limit_names(run_id: str) -> tuple[str, str]:
    """Per run, so two builds with different settings do not resize each other's limits."""
    return f"{LIMIT_NAME}-{run_id}", f"{LIMIT_NAME}-{run_id}-rpm"


def ensure_limits(run_id: str, llm: LLMConfig) -> None:
    """Create or resize the run's limits (from the flow, before any worker asks for a slot)."""
    slots, rpm = limit_names(run_id)
    with get_client(sync_client=True) as client:
        client.upsert_global_concurrency_limit_by_name(slots, llm.concurrency)
        if llm.rpm:
            burst = max(1, min(llm.concurrency, math.ceil(llm.rpm / 60)))
            client.upsert_global_concurrency_limit_by_name(rpm, burst, slot_decay_per_second=llm.rpm / 60)


class PrefectLimiter:
    def __init__(self, run_id: str, llm: LLMConfig) -> None:
        self.slots, self.rpm = limit_names(run_id)
        self.rate_limited = bool(llm.rpm)

    @contextmanager
    def slot(self) -> Iterator[None]:
        with concurrency(self.slots, occupy=1, strict=True):
            if self.rate_limited:
                rate_limit(self.rpm, occupy=1, strict=True)
            yield
