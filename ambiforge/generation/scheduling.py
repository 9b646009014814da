"""Call-level scheduling of a batch of pairs: enough pairs in flight to keep the LLM calls at the limit, and
duplicates re-asked in the same pool while the batch runs.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from ambiforge import ambiguity
from ambiforge.generation.duplicates import Announcements, Claims, Regenerator, speculate
from ambiforge.generation.records import Generator, generate_one, pair_workers
from ambiforge.models.outcome import Outcome, PairSpec


def generate_batch(generator: Generator, specs: Sequence[PairSpec]) -> list[Outcome]:
    """Generate each pair on its own: one pair's failure is recorded, never fatal to the batch.

    Pairs run on :func:`pair_workers` threads (an LLM generator's limiter keeps the calls within the
    configured concurrency and rate). A pair whose task an earlier pair of the batch already has is
    regenerated in the same pool, from the moment it announces the task (an LLM pair: after its first
    call), so re-asks overlap the rest of the batch instead of following it; the pair itself still runs as
    the serial pass would run it. :func:`resolve_duplicates` later checks each regeneration against the
    whole run, which keeps the result that of the serial index-order pass. Results keep the specs' order.
    """
    return _generate_batch(generator, specs)


def _generate_batch(generator: Generator, specs: Sequence[PairSpec]) -> list[Outcome]:
    regenerate = Regenerator(generator)
    claims = Claims()
    results: dict[int, Outcome] = {}
    workers = min(pair_workers(generator), max(1, len(specs)))
    if workers == 1:
        for spec in specs:
            outcome = generate_one(generator, spec)
            results[spec.index] = outcome
            duplicate = claims.add(outcome)
            if duplicate is not None:
                results[duplicate.index] = speculate(regenerate, duplicate, claims.holder)
        return [results[spec.index] for spec in specs]
    ambiguity.types()  # the registry's first load is not safe for threads racing to it (a fresh worker)
    types = {spec.index: spec.ambiguity_type for spec in specs}
    early: dict[int, Future[Outcome]] = {}  # regenerations started when a pair announced a repeated task
    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pair") as pool:

        def foresee(index: int) -> None:
            """Pair ``index`` (first attempt, as every LLM pair's) likely repeats an earlier pair's task."""
            with lock:
                if index not in early:
                    first = Outcome(index, types[index], attempt=0)
                    early[index] = pool.submit(speculate, regenerate, first, claims.holder)

        board = Announcements(foresee)
        pending: dict[Future[Outcome], bool] = {
            pool.submit(generate_one, generator, s, board.view(s.index)): True for s in specs
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                is_pair = pending.pop(future)
                outcome = future.result()
                results[outcome.index] = outcome
                if not is_pair:
                    continue
                duplicate = claims.add(outcome)  # only this thread writes the claims; workers read them
                if duplicate is not None:
                    with lock:
                        ahead = early.pop(duplicate.index, None) if duplicate.attempt == 0 else None
                    pending[ahead or pool.submit(speculate, regenerate, duplicate, claims.holder)] = False
        with lock:
            for future in early.values():  # foreseen, but the pair kept its task (the earlier one failed)
                future.cancel()
    return [results[spec.index] for spec in specs]
