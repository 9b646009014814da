"""A generator of fake pairs from a small task space, for scheduling and duplicate-resolution tests.

Pair ``index`` at ``attempt`` has a task drawn from ``random.Random(f"{index}:{attempt}")`` out of
``space`` tasks, so with many pairs most tasks repeat; some attempts draw nothing (skipped, like an
offline scene without a fitting template) and, when ``llm_failures`` is set, some fail the way an LLM step
does (after the task is known). Each ``generate_outcome`` takes ``calls`` slots of ``limiter``, ``delay``
seconds each, like a chain of LLM calls; ``on_call`` is told of each call (index, first attempt) and
``on_skip`` of each task skipped as taken.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from ambiforge.errors import GenerationError, LLMError
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.textnorm import signature


@dataclass
class FakeItem:
    id: str
    unambiguous_direct: str


class FakeGenerator:
    name = "fake"

    def __init__(
        self,
        space: int,
        max_attempts: int = 4,
        parallelism: int = 1,
        calls_per_pair: int = 1,
        llm_failures: float = 0.0,
        limiter: LocalLimiter | None = None,
        delay: float = 0.0,
        on_call: Callable[[int, int], None] | None = None,
        on_skip: Callable[[int], None] | None = None,
    ) -> None:
        self.space, self.max_attempts = space, max_attempts
        self.parallelism, self.calls_per_pair = parallelism, calls_per_pair
        self.llm_failures, self.limiter, self.delay = llm_failures, limiter, delay
        self.on_call, self.on_skip = on_call, on_skip
        self.finished: set[int] = set()
        self.lock = threading.Lock()
        self.regenerations_in_flight = self.pairs_in_flight = 0
        self.peak_regenerations = self.peak_pairs = 0

    def task(self, index: int, attempt: int) -> tuple[str | None, bool]:
        """The attempt's task (None: nothing drawn) and whether a later step of the attempt fails."""
        rng = random.Random(f"{index}:{attempt}")
        if rng.random() < 0.1:
            return None, False
        fails = rng.random() < self.llm_failures
        return f"fetch thing{rng.randrange(self.space)}", fails

    def calls(self) -> None:
        for _ in range(self.calls_per_pair):
            with self.limiter.slot() if self.limiter else nullcontext():
                time.sleep(self.delay)

    def generate_outcome(
        self, index: int, ambiguity_type: str, taken: AbstractSet[str] | None = None, first_attempt: int = 0
    ) -> tuple[Any, int, dict[str, Any]]:
        regenerating = first_attempt > 0
        with self.lock:
            self.regenerations_in_flight += regenerating
            self.pairs_in_flight += 1
            self.peak_regenerations = max(self.peak_regenerations, self.regenerations_in_flight)
            self.peak_pairs = max(self.peak_pairs, self.pairs_in_flight)
        try:
            if self.on_call is not None:
                self.on_call(index, first_attempt)
            self.calls()
            for attempt in range(first_attempt, first_attempt + self.max_attempts):
                task, fails = self.task(index, attempt)
                if task is None:
                    continue
                if taken is not None and signature(task) in taken:
                    if self.on_skip is not None:
                        self.on_skip(index)
                    continue
                if fails:  # like an LLM step after the task: the pair stops, no new scene
                    raise LLMError(f"pair {index}: attempt {attempt} failed")
                return FakeItem(f"item-{index}-{attempt}", task), attempt, {"made_by": "fake"}
            raise GenerationError(f"pair {index}: no free task in {self.max_attempts} attempts")
        finally:
            with self.lock:
                self.regenerations_in_flight -= regenerating
                self.pairs_in_flight -= 1
                self.finished.add(index)

    def generate(self, index: int, ambiguity_type: str, taken: AbstractSet[str] | None = None, first_attempt: int = 0):  # type: ignore[no-untyped-def]
        item, attempt, _ = self.generate_outcome(index, ambiguity_type, taken, first_attempt)
        return item, attempt
