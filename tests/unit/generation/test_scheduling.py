"""Call-level scheduling of a batch: enough pairs in flight to keep ``concurrency`` calls busy, duplicates
re-asked in the same pool while the batch runs, and the same outcomes as one pair after another."""

from __future__ import annotations

import threading

from ambiforge.generation.run import (
    Outcome,
    PairSpec,
    generate_batch,
    generate_one,
    regenerator,
    resolve_duplicates,
)
from ambiforge.llm.limiter import LocalLimiter
from tests.unit.generation.fake_generator import FakeGenerator
from tests.unit.generation.test_run_duplicates import view


def specs(n: int) -> list[PairSpec]:
    return [PairSpec(i, "t") for i in range(n)]


def test_calls_in_flight_reach_the_concurrency_with_more_pairs_than_calls() -> None:
    limiter = LocalLimiter(4, 0)
    generator = FakeGenerator(10_000, parallelism=4, calls_per_pair=6, limiter=limiter, delay=0.01)
    outcomes = generate_batch(generator, specs(30))
    assert [o.index for o in outcomes] == list(range(30)) and all(o.item for o in outcomes)
    assert limiter.peak == 4  # the limit is reached and never passed
    assert generator.peak_pairs > 4  # pairs waiting for a call slot stand by, so no slot waits for a pair


def test_a_duplicate_is_re_asked_while_the_other_pairs_of_the_batch_still_run() -> None:
    """Pairs 2-5 wait for a regeneration to start: if re-asks waited for the batch to end, none would."""
    started = threading.Event()
    saw_regeneration: list[bool] = []

    def on_call(index: int, first_attempt: int) -> None:
        if first_attempt > 0:
            started.set()
        elif index >= 2:
            saw_regeneration.append(started.wait(timeout=20))

    generator = FakeGenerator(1, parallelism=2, calls_per_pair=3, on_call=on_call)  # one task: all repeat
    outcomes = generate_batch(generator, specs(6))
    assert saw_regeneration == [True] * 4
    assert outcomes[0].item is not None and all(o.stage == "duplicates" for o in outcomes[1:])


def test_duplicates_are_regenerated_in_parallel() -> None:
    """Two regenerations meet at a barrier: regenerated one after another, the barrier would break."""
    generator = FakeGenerator(1, parallelism=2)
    made = [generate_one(generator, spec) for spec in specs(3)]
    barrier = threading.Barrier(2, timeout=20)
    generator.on_call = lambda index, first_attempt: barrier.wait() if first_attempt > 0 else None
    resolved = resolve_duplicates(made, regenerator(generator))
    assert generator.peak_regenerations == 2
    assert [o.stage for o in resolved] == [None, "duplicates", "duplicates"]


def test_scheduled_batch_gives_the_outcomes_of_the_serial_order() -> None:
    def build(parallelism: int) -> list[Outcome]:
        limiter = LocalLimiter(3, 0)
        generator = FakeGenerator(120, parallelism=parallelism, calls_per_pair=2, limiter=limiter, delay=0.002)
        return resolve_duplicates(generate_batch(generator, specs(150)), regenerator(generator))

    assert view(build(3)) == view(build(1))
