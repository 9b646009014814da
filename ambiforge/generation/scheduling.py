"""Call-level scheduling of a batch of pairs: enough pairs in flight to keep the LLM calls at the limit, and
duplicates re-asked in the same pool while the batch runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from ambiforge.generation.duplicates import SKIPPED, Announcements, Claims, Regenerator, speculate
from ambiforge.generation.records import Generator, Outcome, PairSpec, generate_one, pair_workers


def announced_pair(generator: Generator, spec: PairSpec, board: Announcements) -> Outcome:
    """One pair that skips a task an earlier pair of the batch announced: the generator asks as soon as it
    knows the task (after the LLM's first call), so a duplicate moves to its next attempt at once instead
    of finishing its chain of calls and being re-asked at the end. The skipped tasks are kept for
    :func:`ambiforge.generation.duplicates.resolve_duplicates` to check."""
    view = board.view(spec.index)
    outcome = generate_one(generator, spec, view)
    if view.skipped:
        outcome.meta[SKIPPED] = view.skipped
    return outcome


def generate_batch(generator: Generator, specs: Sequence[PairSpec]) -> list[Outcome]:
    """Generate each pair on its own: one pair's failure is recorded, never fatal to the batch.

    Pairs run on :func:`pair_workers` threads (an LLM generator's limiter keeps the calls within the
    configured concurrency and rate). A pair whose task an earlier pair of the batch already has is
    regenerated at once in the same pool, so re-asks overlap the rest of the batch instead of following
    it; :func:`resolve_duplicates` later checks each against the whole run, which keeps the result that
    of the serial index-order pass. Results keep the specs' order.
    """
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
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pair") as pool:
        board = Announcements()
        pending: dict[Future[Outcome], bool] = {pool.submit(announced_pair, generator, s, board): True for s in specs}
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
                    pending[pool.submit(speculate, regenerate, duplicate, claims.holder)] = False
    return [results[spec.index] for spec in specs]
