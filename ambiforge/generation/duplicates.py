"""Duplicate resolution: unambiguous tasks unique across a run, in index order, in one linear pass.

The rule is the serial one: going through the pairs by index, a pair whose task (by
:func:`ambiforge.textnorm.signature`) an earlier pair kept is asked again from its next attempt with every
task taken so far, or rejected as a duplicate when nothing can regenerate it. The earlier index keeps its
task, so the result never depends on batching, workers or the order in which pairs finished.

The work is not serial. Regenerations are made ahead, in parallel, against part of what will be taken
(views over hash maps, never copies), and marked; :func:`resolve_duplicates` then goes once through the
pairs in index order and keeps each one the serial pass would have made, continuing or redoing only the few
that met a task taken in the meantime.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from concurrent.futures import ThreadPoolExecutor

from ambiforge.errors import AmbiforgeError, GenerationError, LLMError
from ambiforge.generation.records import Generator, pair_workers
from ambiforge.llm.limiter import call_priority
from ambiforge.models.outcome import Outcome
from ambiforge.textnorm import signature

# Meta keys of a regeneration made before its pair's place in index order was settled (speculatively),
# which resolve_duplicates checks and removes: the attempt of the duplicate it replaces, and whether its
# failure holds whatever else is taken.
REGENERATED_FROM = "regenerated_from_attempt"
GAVE_UP = "regeneration_gave_up"


class Announcements:
    """Task signatures the pairs in flight have reached, each with the smallest index that reached it.

    A pair asks about its task as soon as it knows it (an LLM pair after its first call); when an earlier
    pair of the batch reached the same task, ``foresee`` is told which pair is likely a duplicate, so its
    regeneration can start then rather than after its whole chain of calls. The answer is always "not
    taken": the pair itself goes on exactly as if nothing were taken (it may yet be the one that keeps the
    task, if the earlier pair fails), so the outcome stays the serial pass's."""

    def __init__(self, foresee: Callable[[int], None]) -> None:
        self.first: dict[str, int] = {}
        self.lock = threading.Lock()
        self.foresee = foresee

    def view(self, index: int) -> Announced:
        return Announced(self, index)


class Announced(AbstractSet[str]):
    """Pair ``index``'s question "is this task taken?", answered "no" after announcing the task."""

    def __init__(self, board: Announcements, index: int) -> None:
        self.board, self.index = board, index

    def __contains__(self, sig: object) -> bool:
        if not isinstance(sig, str):
            return False
        with self.board.lock:
            first = self.board.first.get(sig)
            if first is None or first > self.index:
                self.board.first[sig] = self.index
        if first is not None and first != self.index:
            self.board.foresee(max(first, self.index))  # the later of the two is the likely duplicate
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class TakenTasks(AbstractSet[str]):
    """The task signatures kept so far, asked ``sig in taken``: a view over a map from each signature's
    64-bit hash (Python's own; the map lives in one process) to the id of the item that has it. A build
    carries one entry per kept task from batch to batch, and the hash costs a tenth of the signature; two
    signatures colliding (odds of about 1 in 10^7 at a million tasks) would only have a pair drawn again.
    Generators only ask ``in``; the signatures themselves are not kept, so the view cannot list them."""

    def __init__(self, holders: Mapping[int, str]) -> None:
        self.holders = holders

    def __contains__(self, sig: object) -> bool:
        return isinstance(sig, str) and hash(sig) in self.holders

    def __iter__(self) -> Iterator[str]:
        raise TypeError("taken tasks are kept as hashes: ask whether a signature is in them")

    def __len__(self) -> int:
        return len(self.holders)


class TakenBefore(AbstractSet[str]):
    """The task signatures an original pair with an index below ``index`` holds: a view over ``claims``
    (signature -> smallest index holding it) and ``earlier`` (the tasks kept by the batches already
    resolved), never a copy, so each question costs O(1).

    It is always a subset of what the serial index-order pass has taken by ``index`` (every original's task
    is taken by then, by it or by an earlier pair), and it only grows towards that while other pairs
    finish. :func:`resolve_duplicates` checks what was regenerated against it.
    """

    def __init__(self, claims: Mapping[str, int], index: int, earlier: Container[str] = ()) -> None:
        self.claims, self.index, self.earlier = claims, index, earlier

    def __contains__(self, sig: object) -> bool:
        if not isinstance(sig, str):
            return False
        if sig in self.earlier:
            return True
        holder = self.claims.get(sig)
        return holder is not None and holder < self.index

    def __iter__(self) -> Iterator[str]:
        raise TypeError("the earlier batches' tasks are kept as hashes: ask whether a signature is in them")

    def __len__(self) -> int:
        raise TypeError("the earlier batches' tasks are kept as hashes: ask whether a signature is in them")


def _keeps_task(outcome: Outcome) -> bool:
    return outcome.item is not None and outcome.stage is None


def _is_original(outcome: Outcome) -> bool:
    """Made with nothing taken: its task is taken by the time of its index, by it or by an earlier pair."""
    return REGENERATED_FROM not in outcome.meta


class Regenerator:
    """Asks the generator for a pair again from the attempt after ``outcome.attempt``, avoiding ``taken``.

    A failure that only says every attempt was used up (a :class:`GenerationError` that is not an LLM
    failure) is marked :data:`GAVE_UP`: it would fail the same way with more taken, so it can be kept."""

    def __init__(self, generator: Generator) -> None:
        self.generator = generator
        self.parallelism = pair_workers(generator)
        self.max_attempts: int | None = getattr(generator, "max_attempts", None)

    def __call__(self, outcome: Outcome, taken: AbstractSet[str]) -> Outcome:
        try:
            with call_priority(outcome.index):
                item, attempt, meta = self.generator.generate_outcome(
                    outcome.index,
                    outcome.ambiguity_type,
                    taken,  # type: ignore[arg-type]  # generators only ask ``in``
                    first_attempt=outcome.attempt + 1,
                )
            return Outcome(outcome.index, outcome.ambiguity_type, item, attempt, meta=dict(meta))
        except AmbiforgeError as exc:
            stage = getattr(exc, "stage", "duplicates")
            gave_up = isinstance(exc, GenerationError) and not isinstance(exc, LLMError)
            return Outcome(outcome.index, outcome.ambiguity_type, stage=stage, reason=str(exc), meta={GAVE_UP: gave_up})


def regenerator(generator: Generator) -> Regenerator:
    return Regenerator(generator)


def speculate(
    regenerate: Callable[[Outcome, AbstractSet[str]], Outcome],
    outcome: Outcome,
    claims: Mapping[str, int],
    earlier: Container[str] = (),
) -> Outcome:
    """Regenerate a duplicate against the originals known to precede it (and the tasks ``earlier``
    batches kept); marked for checking."""
    new = regenerate(outcome, TakenBefore(claims, outcome.index, earlier))
    new.meta[REGENERATED_FROM] = outcome.attempt
    return new


class Claims:
    """Which original holds each task signature, by smallest index, as pairs finish in any order; says
    which pair a newly finished one makes a duplicate (it, or a later original that held the task)."""

    def __init__(self) -> None:
        self.holder: dict[str, int] = {}
        self.outcomes: dict[int, Outcome] = {}

    def add(self, outcome: Outcome) -> Outcome | None:
        self.outcomes[outcome.index] = outcome
        if not (_keeps_task(outcome) and _is_original(outcome)):
            return None
        assert outcome.item is not None
        sig = signature(outcome.item.unambiguous_direct)
        held = self.holder.get(sig)
        if held is None:
            self.holder[sig] = outcome.index
            return None
        if held < outcome.index:
            return outcome
        self.holder[sig] = outcome.index
        return self.outcomes[held]


def resolve_duplicates(
    outcomes: Sequence[Outcome], regenerate: Callable[[Outcome, AbstractSet[str]], Outcome] | None
) -> list[Outcome]:
    """Make unambiguous tasks unique, in index order (so the result never depends on batching).

    Tasks are compared by content words (:func:`ambiforge.textnorm.signature`), so "Please bring me the mug"
    repeats "Bring me the mug". A later pair that repeats an earlier task is regenerated from its next
    attempt when the generator can; otherwise it is rejected as a duplicate with the id it repeats.

    The result is that of regenerating each duplicate in turn with every task taken before it, but the work
    is linear: signatures live in a hash map, never copied per pair. Duplicates are regenerated in parallel
    (``regenerate.parallelism`` threads) against the originals before them, a subset of what will be taken;
    one pass in index order then keeps each regeneration whose task is still free (the serial pass would
    have made the same one: every attempt it skipped was taken in the subset, so taken in the whole) and
    continues the others from their next attempt with the whole taken set.
    """
    return DuplicateResolver(regenerate).resolve(outcomes)


class DuplicateResolver:
    """:func:`resolve_duplicates` over a run given batch after batch, in index order: only the kept tasks'
    signatures (and the ids holding them) are carried from one batch to the next, so a build never holds
    its items to find duplicates. The result is the whole run's, whatever the batches."""

    def __init__(self, regenerate: Callable[[Outcome, AbstractSet[str]], Outcome] | None) -> None:
        self.regenerate = regenerate
        self.holders: dict[int, str] = {}  # hash of a kept task's signature -> id of the item that has it
        self.taken = TakenTasks(self.holders)

    def resolve(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        """The next pairs in index order (every one after those of earlier calls), resolved."""
        regenerate, taken, holders = self.regenerate, self.taken, self.holders
        ordered = sorted(outcomes, key=lambda o: o.index)
        sigs = {o.index: signature(o.item.unambiguous_direct) for o in ordered if o.item is not None}  # once each
        claims: dict[str, int] = {}
        for outcome in ordered:
            if _is_original(outcome) and _keeps_task(outcome):
                claims.setdefault(sigs[outcome.index], outcome.index)
        speculated: dict[int, Outcome] = {}
        if regenerate is not None:
            duplicates = [
                o
                for o in ordered
                if _is_original(o)
                and o.item is not None
                and (sigs[o.index] in taken or claims.get(sigs[o.index], o.index) < o.index)
            ]
            workers = min(max(1, getattr(regenerate, "parallelism", 1)), max(1, len(duplicates)))
            if workers == 1:
                regenerated = [speculate(regenerate, o, claims, taken) for o in duplicates]
            else:
                with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="regenerate") as pool:
                    regenerated = list(pool.map(lambda o: speculate(regenerate, o, claims, taken), duplicates))
            speculated = {o.index: o for o in regenerated}
        resolved: list[Outcome] = []
        for outcome in ordered:
            first = outcome
            guess = outcome if REGENERATED_FROM in outcome.meta else speculated.get(outcome.index)
            item = outcome.item
            if guess is not None and regenerate is not None:
                outcome = _settle(regenerate, guess, taken)
            elif item is not None and sigs[outcome.index] in taken:
                if regenerate is not None:
                    outcome = regenerate(outcome, taken)
                else:
                    outcome = Outcome(
                        outcome.index,
                        outcome.ambiguity_type,
                        item,
                        outcome.attempt,
                        stage="duplicates",
                        reason=f"same unambiguous task as {holders[hash(sigs[outcome.index])]}",
                    )
            outcome.meta.pop(GAVE_UP, None)
            outcome.meta.pop(REGENERATED_FROM, None)
            if _keeps_task(outcome):
                assert outcome.item is not None
                sig = sigs[outcome.index] if outcome is first else signature(outcome.item.unambiguous_direct)
                holders[hash(sig)] = outcome.item.id
            resolved.append(outcome)
        return resolved


def _settle(regenerate: Callable[[Outcome, AbstractSet[str]], Outcome], guess: Outcome, taken: TakenTasks) -> Outcome:
    """The regeneration the serial pass would have made, given a speculative one and the whole ``taken``."""
    first = int(guess.meta.pop(REGENERATED_FROM))
    base = Outcome(guess.index, guess.ambiguity_type, attempt=first)

    def serial() -> Outcome:
        return regenerate(base, taken)

    if guess.item is None:  # failed: kept only when every attempt was used up (more taken changes nothing)
        return guess if guess.meta.get(GAVE_UP) else serial()
    if signature(guess.item.unambiguous_direct) not in taken:
        return guess
    limit = getattr(regenerate, "max_attempts", None)
    if limit is None:
        return serial()
    # The attempts up to the guess were all taken in the subset, hence in ``taken``: go on from there.
    nxt = regenerate(Outcome(guess.index, guess.ambiguity_type, attempt=guess.attempt), taken)
    if nxt.item is not None and nxt.attempt <= first + limit:
        return nxt
    if nxt.item is None and nxt.meta.get(GAVE_UP):
        return nxt  # the serial window ends before this one does, and it failed the same way
    return serial()
