"""Call-level scheduling of a batch: enough pairs in flight to keep ``concurrency`` calls busy, duplicates
re-asked in the same pool while the batch runs, and the same outcomes as one pair after another."""

from __future__ import annotations

import threading
import time

from ambiforge.generation.run import (
    Outcome,
    PairSpec,
    generate_batch,
    generate_one,
    regenerator,
    resolve_duplicates,
)
from ambiforge.llm.limiter import LocalLimiter, call_priority
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


def test_a_repeated_task_is_re_asked_as_soon_as_it_is_announced() -> None:
    """Pairs 2-5 wait for a re-ask to start: if re-asks waited for the batch to end (or for the repeating
    pair to finish its chain), none would. The repeating pair itself runs on as the serial pass runs it."""
    reasked = threading.Event()
    saw_reask: list[bool] = []

    def on_call(index: int, first_attempt: int) -> None:
        if first_attempt > 0:
            reasked.set()
        elif index >= 2:
            saw_reask.append(reasked.wait(timeout=20))

    generator = FakeGenerator(1, parallelism=2, calls_per_pair=3, on_call=on_call)  # one task: all repeat
    outcomes = generate_batch(generator, specs(6))
    assert saw_reask == [True] * 4
    resolved = resolve_duplicates(outcomes, regenerator(generator))
    assert resolved[0].item is not None and all(o.stage == "duplicates" for o in resolved[1:])


def test_a_later_pair_that_announced_first_is_re_asked_in_the_same_pool() -> None:
    """Pair 1 reaches the only task first and finishes; pair 0 then takes it (the earlier index keeps its
    task), so pair 1 is re-asked while pairs 2-5, which wait for that re-ask, are still in the pool."""
    reasked = threading.Event()
    saw_reask: list[bool] = []
    generator = FakeGenerator(1, parallelism=2, calls_per_pair=3)

    def on_call(index: int, first_attempt: int) -> None:
        if first_attempt > 0:
            reasked.set()
        elif index == 0:
            deadline = time.monotonic() + 20
            while 1 not in generator.finished and time.monotonic() < deadline:
                time.sleep(0.005)
        elif index >= 2:
            saw_reask.append(reasked.wait(timeout=20))

    generator.on_call = on_call
    outcomes = generate_batch(generator, specs(6))
    assert saw_reask == [True] * 4
    resolved = resolve_duplicates(outcomes, regenerator(generator))
    assert resolved[0].item is not None and all(o.stage == "duplicates" for o in resolved[1:])


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


def test_a_free_slot_goes_to_the_chain_with_the_fewest_calls_made_then_the_smallest_pair() -> None:
    """Longest remaining chain first: pairs started late catch up, so all chains end together instead of
    the last ones running alone with the slots idle."""
    limiter = LocalLimiter(1, 0)
    served: list[int] = []

    def call(pair: int, made: int) -> None:
        with call_priority(pair) as chain:
            chain.calls = made
            with limiter.slot():
                served.append(pair)

    with limiter.slot():
        threads = [threading.Thread(target=call, args=args) for args in ((5, 0), (1, 2), (3, 0), (0, 1))]
        for thread in threads:
            thread.start()
            deadline = time.monotonic() + 20
            while len(limiter._waiting) < threads.index(thread) + 1 and time.monotonic() < deadline:
                time.sleep(0.001)
    for thread in threads:
        thread.join(timeout=20)
    assert served == [3, 5, 0, 1]
