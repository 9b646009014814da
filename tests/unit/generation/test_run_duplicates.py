"""Duplicate resolution in one linear pass gives what the old serial pass gave: each duplicate regenerated
in index order against every task taken before it, whatever the batching, the workers and the order in
which pairs finished."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import pytest

from ambiforge.errors import AmbiforgeError
from ambiforge.generation.run import (
    REGENERATED_FROM,
    DuplicateResolver,
    Outcome,
    PairSpec,
    batches,
    generate_batch,
    generate_one,
    regenerator,
    resolve_duplicates,
)
from ambiforge.textnorm import signature
from tests.unit.generation.fake_generator import FakeGenerator


def serial_reference(generator: FakeGenerator, outcomes: Sequence[Outcome]) -> list[Outcome]:
    """The algorithm before it was made linear, kept as the oracle (a copy of the taken set per pair)."""

    def regenerate(outcome: Outcome, taken: set[str]) -> Outcome:
        try:
            item, attempt, meta = generator.generate_outcome(
                outcome.index, outcome.ambiguity_type, taken, first_attempt=outcome.attempt + 1
            )
            return Outcome(outcome.index, outcome.ambiguity_type, item, attempt, meta=meta)
        except AmbiforgeError as exc:
            return Outcome(
                outcome.index, outcome.ambiguity_type, stage=getattr(exc, "stage", "duplicates"), reason=str(exc)
            )

    taken: dict[str, str] = {}
    resolved = []
    for outcome in sorted(outcomes, key=lambda o: o.index):
        item = outcome.item
        if item is not None and signature(item.unambiguous_direct) in taken:
            outcome = regenerate(outcome, set(taken))
        if outcome.item is not None and outcome.stage is None:
            taken[signature(outcome.item.unambiguous_direct)] = outcome.item.id
        resolved.append(outcome)
    return resolved


def view(outcomes: Sequence[Outcome]) -> list[tuple]:  # type: ignore[type-arg]
    return [
        (o.index, o.item.id if o.item else None, o.attempt if o.item else None, o.stage, o.reason, o.meta)
        for o in outcomes
    ]


def specs(n: int) -> list[PairSpec]:
    return [PairSpec(i, "t") for i in range(n)]


def originals(generator: FakeGenerator, n: int) -> list[Outcome]:
    return [generate_one(generator, spec) for spec in specs(n)]


@pytest.mark.parametrize(("space", "llm_failures"), [(100, 0.0), (250, 0.0), (500, 0.0), (300, 0.05)])
def test_linear_pass_equals_the_serial_pass_on_a_set_with_many_duplicates(space: int, llm_failures: float) -> None:
    generator = FakeGenerator(space, max_attempts=4, llm_failures=llm_failures)
    made = originals(generator, 300)
    expected = serial_reference(generator, made)
    assert sum(o.attempt > 0 for o in expected if o.item) > 40  # many pairs were regenerated
    assert any(o.stage == "duplicates" for o in expected)  # and some ran out of attempts
    assert view(resolve_duplicates(originals(generator, 300), regenerator(generator))) == view(expected)


@pytest.mark.parametrize(("batch", "workers"), [(300, 1), (37, 1), (64, 4), (1, 3)])
def test_regenerating_inside_batches_does_not_change_the_result(batch: int, workers: int) -> None:
    generator = FakeGenerator(250, max_attempts=5, llm_failures=0.03)
    expected = view(serial_reference(generator, originals(generator, 300)))
    generator.parallelism = workers
    made = [o for part in batches(specs(300), batch) for o in generate_batch(generator, part)]
    if batch > 1:
        assert any(REGENERATED_FROM in o.meta for o in made)  # duplicates were re-asked inside the batch
    resolved = resolve_duplicates(made, regenerator(generator))
    assert view(resolved) == expected
    assert all(REGENERATED_FROM not in o.meta for o in resolved)


@pytest.mark.parametrize(("batch", "workers"), [(37, 1), (64, 4), (1, 1)])
def test_resolving_batch_after_batch_gives_the_whole_runs_result(batch: int, workers: int) -> None:
    """A build resolves each batch as it arrives, carrying only the kept tasks: same result as the whole run."""
    generator = FakeGenerator(250, max_attempts=5, llm_failures=0.03)
    expected = view(serial_reference(generator, originals(generator, 300)))
    generator.parallelism = workers
    resolver = DuplicateResolver(regenerator(generator))
    resolved = [o for part in batches(specs(300), batch) for o in resolver.resolve(generate_batch(generator, part))]
    assert view(resolved) == expected
    kept = [o for o in resolved if o.item is not None and o.stage is None]
    assert len(resolver.taken) == len(kept)  # what is carried: one signature per kept task


def test_batch_after_batch_without_a_regenerator_rejects_repeats_of_earlier_batches() -> None:
    generator = FakeGenerator(5)
    made = originals(generator, 30)
    resolver = DuplicateResolver(None)
    resolved = resolver.resolve(made[:10]) + resolver.resolve(made[10:])
    assert view(resolved) == view(resolve_duplicates(originals(generator, 30), None))


def test_without_a_regenerator_later_duplicates_are_rejected_with_the_id_they_repeat() -> None:
    generator = FakeGenerator(5)
    resolved = resolve_duplicates(originals(generator, 30), None)
    kept = {signature(o.item.unambiguous_direct): o.item.id for o in resolved if o.stage is None and o.item}
    dups = [o for o in resolved if o.stage == "duplicates"]
    assert dups and len(kept) <= 5
    for o in dups:
        assert o.reason == f"same unambiguous task as {kept[signature(o.item.unambiguous_direct)]}"


def test_the_pass_asks_the_generator_about_as_often_as_the_serial_one() -> None:
    """Linear: speculation does not redo work; a regeneration that hit a taken task continues from its
    next attempt rather than starting over."""
    counts: list[int] = []

    def counting(space: int) -> tuple[FakeGenerator, Callable[[], int]]:
        calls = [0]
        gen = FakeGenerator(space, max_attempts=6, on_call=lambda i, a: calls.__setitem__(0, calls[0] + a > 0))
        return gen, lambda: calls[0]

    gen, serial_calls = counting(80)
    serial_reference(gen, originals(gen, 400))
    counts.append(serial_calls())
    gen, linear_calls = counting(80)
    resolve_duplicates(originals(gen, 400), regenerator(gen))
    counts.append(linear_calls())
    assert counts[1] <= 2 * counts[0]


@pytest.mark.parametrize("seed", range(4))
def test_any_interleaving_gives_the_serial_result(seed: int) -> None:
    """Pairs finishing in random order (calls of random length) with failing steps after the task is known:
    a pair that repeats an earlier task but whose own chain fails stays failed, as in the serial pass."""
    rng = random.Random(seed)
    generator = FakeGenerator(rng.choice([60, 150, 300]), max_attempts=rng.choice([2, 4]), llm_failures=0.1)
    expected = view(serial_reference(generator, originals(generator, 200)))
    generator.parallelism, generator.calls_per_pair = rng.choice([2, 4, 8]), 2
    jitter = random.Random(seed + 100)
    generator.calls = lambda: time.sleep(jitter.random() * 0.001)  # type: ignore[method-assign]
    made = [o for part in batches(specs(200), rng.choice([17, 64, 200])) for o in generate_batch(generator, part)]
    assert view(resolve_duplicates(made, regenerator(generator))) == expected
