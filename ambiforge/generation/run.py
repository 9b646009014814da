"""The generation stage as functions over records: plan the pairs, generate a batch, resolve duplicates,
gate on the schema. Flows call these; they never touch Prefect.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ambiforge.catalog import cached_catalog
from ambiforge.errors import AmbiforgeError, ConfigError, GenerationError, LLMError
from ambiforge.generation.mix import type_sequence
from ambiforge.llm.limiter import Limiter, call_priority
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.textnorm import signature

if TYPE_CHECKING:  # options import the configuration, which imports validation, which imports Outcome from here
    from ambiforge.options import BuildOptions


def __getattr__(name: str) -> Any:
    """``BuildOptions`` used to live here; it is :class:`ambiforge.options.BuildOptions` now."""
    if name == "BuildOptions":
        from ambiforge.options import BuildOptions

        return BuildOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class PairSpec:
    index: int
    ambiguity_type: str


@dataclass
class Outcome:
    """What became of one planned pair: an item, or the stage and reason that stopped it."""

    index: int
    ambiguity_type: str
    item: Item | None = None
    attempt: int = 0
    stage: str | None = None
    reason: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def rejection(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "id": self.item.id if self.item else None,
            "ambiguity_type": self.ambiguity_type,
            "stage": self.stage,
            "reason": self.reason,
        }


class Generator(Protocol):
    """``generate`` gives the pair at ``index`` and the attempt that made it; ``generate_outcome`` also
    gives what the pipeline keeps beside the item in raw/ (the LLM generator's scored candidates)."""

    name: str
    parallelism: int

    def generate(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int]: ...

    def generate_outcome(
        self, index: int, ambiguity_type: str, taken: set[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int, dict[str, Any]]: ...


def llm_cache_dir(options: BuildOptions) -> Path:
    """Shared by every run under ``options.out``, so a request paid for in one run is free in the next."""
    if options.llm is not None and options.llm.cache_dir:
        return Path(options.llm.cache_dir)
    return Path(options.out) / ".llm-cache"


def make_generator(options: BuildOptions, limiter: Limiter | None = None) -> Generator:
    """The generator for ``options.provider``: the embedded offline one, or the LLM one (``openai``,
    ``mistral`` or ``llm`` differ only in ``options.llm.steps``). ``limiter`` replaces the process-wide
    LLM limiter (the flow passes one shared across Dask workers)."""
    options.prepare()
    catalog = cached_catalog(options.catalog)
    limits = options.sampler.limits()
    if options.provider == "offline":
        from ambiforge.generation.offline import OfflineGenerator

        return OfflineGenerator(catalog, options.seed, options.run_id, limits)
    if options.provider in ("llm", "openai", "mistral"):
        if options.llm is None:
            raise ConfigError(f"provider {options.provider!r} needs LLM settings ([llm] in ambiforge.toml)")
        from ambiforge.generation.llm import LLMGenerator

        return LLMGenerator(
            catalog,
            options.seed,
            options.run_id,
            options.llm,
            Path(options.out) / options.run_id,
            llm_cache_dir(options),
            limits,
            candidates=options.candidates,
            limiter=limiter,
        )
    raise ConfigError(f"unknown provider {options.provider!r} (known: offline, llm, openai, mistral)")


def plan_pairs(options: BuildOptions) -> list[PairSpec]:
    types = type_sequence(options.pairs, options.type_mix, options.seed)
    return [PairSpec(i, t) for i, t in enumerate(types)]


def batches(specs: Sequence[PairSpec], size: int) -> list[list[PairSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


# Meta keys of an outcome made before its pair's place in index order was settled (speculatively), which
# resolve_duplicates checks and removes: the attempt of the duplicate a regeneration replaces, whether a
# regeneration's failure holds whatever else is taken, and the tasks a pair skipped as announced by earlier
# pairs still in flight.
REGENERATED_FROM = "regenerated_from_attempt"
GAVE_UP = "regeneration_gave_up"
SKIPPED = "skipped_as_announced"


def generate_one(generator: Generator, spec: PairSpec, board: Announcements | None = None) -> Outcome:
    """One pair; its failure is an outcome with the stage that failed (``llm_call``, ``budget``...).

    With a ``board``, the pair skips a task that an earlier pair of the batch announced (the generator asks
    as soon as it knows the task: after the LLM's first call), so a duplicate moves to its next attempt at
    once instead of finishing its chain of calls and being re-asked at the end."""
    announced = board.view(spec.index) if board is not None else None
    try:
        with call_priority(spec.index):  # earlier pairs' calls first: pairs finish in order, not in lockstep
            item, attempt, meta = generator.generate_outcome(spec.index, spec.ambiguity_type, announced)  # type: ignore[arg-type]
        outcome = Outcome(spec.index, spec.ambiguity_type, item, attempt, meta=dict(meta))
    except AmbiforgeError as exc:
        stage = getattr(exc, "stage", "generate")
        outcome = Outcome(spec.index, spec.ambiguity_type, stage=stage, reason=str(exc))
    if announced is not None and announced.skipped:
        outcome.meta[SKIPPED] = announced.skipped
    return outcome


class Announcements:
    """Task signatures pairs in flight have reached, each with the smallest index that reached it."""

    def __init__(self) -> None:
        self.first: dict[str, int] = {}
        self.lock = threading.Lock()

    def view(self, index: int) -> Announced:
        return Announced(self, index)


class Announced(AbstractSet[str]):
    """Pair ``index``'s question "is this task taken?": yes when an earlier pair reached it first (the
    answer is recorded in ``skipped``, to be checked against the serial pass), else the pair announces it."""

    def __init__(self, board: Announcements, index: int) -> None:
        self.board, self.index = board, index
        self.skipped: list[str] = []

    def __contains__(self, sig: object) -> bool:
        if not isinstance(sig, str):
            return False
        with self.board.lock:
            first = self.board.first.get(sig)
            if first is None or first > self.index:
                self.board.first[sig] = self.index
                return False
        if first == self.index:
            return False
        self.skipped.append(sig)
        return True

    def __iter__(self) -> Iterator[str]:
        with self.board.lock:
            return iter([sig for sig, first in self.board.first.items() if first < self.index])

    def __len__(self) -> int:
        return sum(1 for _ in self)


def pair_workers(generator: Generator) -> int:
    """Pairs in flight: an LLM pair is a chain of calls with client work between them, so keeping
    ``concurrency`` calls busy takes more pairs than calls; the limiter holds the calls to the limit."""
    return max(1, getattr(generator, "parallelism", 1)) * max(1, getattr(generator, "calls_per_pair", 1))


class TakenBefore(AbstractSet[str]):
    """The task signatures an original pair with an index below ``index`` holds: a view over ``claims``
    (signature -> smallest index holding it), never a copy, so each question costs O(1).

    It is always a subset of what the serial index-order pass has taken by ``index`` (every original's task
    is taken by then, by it or by an earlier pair), and it only grows towards that while other pairs
    finish. :func:`resolve_duplicates` checks what was regenerated against it.
    """

    def __init__(self, claims: Mapping[str, int], index: int) -> None:
        self.claims, self.index = claims, index

    def __contains__(self, sig: object) -> bool:
        holder = self.claims.get(sig) if isinstance(sig, str) else None
        return holder is not None and holder < self.index

    def __iter__(self) -> Iterator[str]:
        return (sig for sig, holder in list(self.claims.items()) if holder < self.index)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _keeps_task(outcome: Outcome) -> bool:
    return outcome.item is not None and outcome.stage is None


def _is_original(outcome: Outcome) -> bool:
    """Made with nothing taken: its task is taken by the time of its index, by it or by an earlier pair."""
    return REGENERATED_FROM not in outcome.meta and SKIPPED not in outcome.meta


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

    def again(self, outcome: Outcome, taken: AbstractSet[str]) -> Outcome:
        """The serial pass's outcome for the pair from scratch: as first made, and regenerated if taken."""
        first = generate_one(self.generator, PairSpec(outcome.index, outcome.ambiguity_type))
        if first.item is not None and signature(first.item.unambiguous_direct) in taken:
            return self(first, taken)
        return first


def regenerator(generator: Generator) -> Regenerator:
    return Regenerator(generator)


def _speculate(
    regenerate: Callable[[Outcome, AbstractSet[str]], Outcome], outcome: Outcome, claims: Mapping[str, int]
) -> Outcome:
    """Regenerate a duplicate against the originals known to precede it; marked for checking."""
    new = regenerate(outcome, TakenBefore(claims, outcome.index))
    new.meta[REGENERATED_FROM] = outcome.attempt
    return new


class _Claims:
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


def generate_batch(generator: Generator, specs: Sequence[PairSpec]) -> list[Outcome]:
    """Generate each pair on its own: one pair's failure is recorded, never fatal to the batch.

    Pairs run on :func:`pair_workers` threads (an LLM generator's limiter keeps the calls within the
    configured concurrency and rate). A pair whose task an earlier pair of the batch already has is
    regenerated at once in the same pool, so re-asks overlap the rest of the batch instead of following
    it; :func:`resolve_duplicates` later checks each against the whole run, which keeps the result that
    of the serial index-order pass. Results keep the specs' order.
    """
    regenerate = Regenerator(generator)
    claims = _Claims()
    results: dict[int, Outcome] = {}
    workers = min(pair_workers(generator), max(1, len(specs)))
    if workers == 1:
        for spec in specs:
            outcome = generate_one(generator, spec)
            results[spec.index] = outcome
            duplicate = claims.add(outcome)
            if duplicate is not None:
                results[duplicate.index] = _speculate(regenerate, duplicate, claims.holder)
        return [results[spec.index] for spec in specs]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pair") as pool:
        board = Announcements()
        pending: dict[Future[Outcome], bool] = {pool.submit(generate_one, generator, s, board): True for s in specs}
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
                    pending[pool.submit(_speculate, regenerate, duplicate, claims.holder)] = False
    return [results[spec.index] for spec in specs]


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
    ordered = sorted(outcomes, key=lambda o: o.index)
    claims: dict[str, int] = {}
    for outcome in ordered:
        if _is_original(outcome) and _keeps_task(outcome):
            assert outcome.item is not None
            claims.setdefault(signature(outcome.item.unambiguous_direct), outcome.index)
    speculated: dict[int, Outcome] = {}
    if regenerate is not None:
        duplicates = [
            o
            for o in ordered
            if _is_original(o)
            and o.item is not None
            and claims.get(signature(o.item.unambiguous_direct), o.index) < o.index
        ]
        workers = min(max(1, getattr(regenerate, "parallelism", 1)), max(1, len(duplicates)))
        if workers == 1:
            regenerated = [_speculate(regenerate, o, claims) for o in duplicates]
        else:
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="regenerate") as pool:
                regenerated = list(pool.map(lambda o: _speculate(regenerate, o, claims), duplicates))
        speculated = {o.index: o for o in regenerated}
    taken: dict[str, str] = {}  # task signature -> id of the item that has it
    resolved: list[Outcome] = []
    for outcome in ordered:
        guess = outcome if REGENERATED_FROM in outcome.meta else speculated.get(outcome.index)
        item = outcome.item
        if SKIPPED in outcome.meta and regenerate is not None:
            outcome = _settle_announced(regenerate, outcome, taken)
        elif guess is not None and regenerate is not None:
            outcome = _settle(regenerate, guess, taken)
        elif item is not None and signature(item.unambiguous_direct) in taken:
            if regenerate is not None:
                outcome = regenerate(outcome, taken.keys())
            else:
                outcome = Outcome(
                    outcome.index,
                    outcome.ambiguity_type,
                    item,
                    outcome.attempt,
                    stage="duplicates",
                    reason=f"same unambiguous task as {taken[signature(item.unambiguous_direct)]}",
                )
        outcome.meta.pop(GAVE_UP, None)
        outcome.meta.pop(REGENERATED_FROM, None)
        outcome.meta.pop(SKIPPED, None)
        if _keeps_task(outcome):
            assert outcome.item is not None
            taken[signature(outcome.item.unambiguous_direct)] = outcome.item.id
        resolved.append(outcome)
    return resolved


def _settle_announced(
    regenerate: Callable[[Outcome, AbstractSet[str]], Outcome], outcome: Outcome, taken: dict[str, str]
) -> Outcome:
    """A pair that skipped tasks earlier pairs announced is the serial pass's outcome when every task it
    skipped was taken and its own is free; otherwise (an announcing pair failed, or its task was taken
    meanwhile) it is made again in order, from the LLM call cache where calls were already paid."""
    skipped = outcome.meta.pop(SKIPPED)
    item = outcome.item
    if item is not None and signature(item.unambiguous_direct) not in taken and all(s in taken for s in skipped):
        return outcome
    again = getattr(regenerate, "again", None)
    if again is None:
        raise TypeError("outcomes made with announcements need a Regenerator to settle them")
    result: Outcome = again(outcome, taken.keys())
    return result


def _settle(
    regenerate: Callable[[Outcome, AbstractSet[str]], Outcome], guess: Outcome, taken: dict[str, str]
) -> Outcome:
    """The regeneration the serial pass would have made, given a speculative one and the whole ``taken``."""
    first = int(guess.meta.pop(REGENERATED_FROM))
    base = Outcome(guess.index, guess.ambiguity_type, attempt=first)

    def serial() -> Outcome:
        return regenerate(base, taken.keys())

    if guess.item is None:  # failed: kept only when every attempt was used up (more taken changes nothing)
        return guess if guess.meta.get(GAVE_UP) else serial()
    if signature(guess.item.unambiguous_direct) not in taken:
        return guess
    limit = getattr(regenerate, "max_attempts", None)
    if limit is None:
        return serial()
    # The attempts up to the guess were all taken in the subset, hence in ``taken``: go on from there.
    nxt = regenerate(Outcome(guess.index, guess.ambiguity_type, attempt=guess.attempt), taken.keys())
    if nxt.item is not None and nxt.attempt <= first + limit:
        return nxt
    if nxt.item is None and nxt.meta.get(GAVE_UP):
        return nxt  # the serial window ends before this one does, and it failed the same way
    return serial()


def schema_gate(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Check every generated item against ``schemas/item.schema.json``; failures keep their messages."""
    checked = []
    for outcome in outcomes:
        if outcome.item is not None and outcome.stage is None:
            errors = schema_errors(outcome.item.to_record())
            if errors:
                outcome = Outcome(
                    outcome.index,
                    outcome.ambiguity_type,
                    outcome.item,
                    outcome.attempt,
                    stage="schema",
                    reason="; ".join(errors[:5]),
                )
        checked.append(outcome)
    return checked
