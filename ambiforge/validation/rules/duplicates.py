"""duplicates: one id used twice, or the same or nearly the same unambiguous task twice in a dataset, or again
after a release.

Near duplicates are compared on a task's *content words*: politeness and function words out, the rest
sorted ("Robot, please bring me the glass mug." and "Bring me the glass mug?" are one task). Equal
signatures are near duplicates; MinHash LSH (datasketch) proposes further candidate pairs in about linear
time and rapidfuzz confirms each at a high character ratio (typos, plurals). All-pairs rapidfuzz is
quadratic (5e9 pairs at 100,000 items) and embeddings need a model download this machine cannot do. Tasks
that differ in a content word ("the soup ladle" / "the soup spoon") are different tasks and stay apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from ambiforge.models import Item
from ambiforge.textnorm import normalise, signature
from ambiforge.validation.rules.base import Rule

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

NUM_PERM = 64
LSH_THRESHOLD = 0.8

# Dataset-level rules: registered for their ids and severities; their check runs over the whole dataset.
ORDER = 100  # where the family runs among the rules (plugins: 1000 unless they say)
DATASET = True  # ids and severities only: find_duplicates checks the whole dataset
RULES = (
    Rule("duplicate_id", "error", lambda item, ctx: [], "an id is used by one item only"),
    Rule("duplicate", "error", lambda item, ctx: [], "the same unambiguous task appears twice"),
    Rule("near_duplicate", "warning", lambda item, ctx: [], "an almost identical unambiguous task exists"),
    Rule("released_before", "warning", lambda item, ctx: [], "the task was released before under another id"),
)


def find_duplicates(items: Sequence[Item], ctx: RuleContext) -> dict[int, list[tuple[str, str]]]:
    """Per item position: (rule id, message) for each duplicate it is; the first occurrence is kept clean."""
    index = DuplicateIndex(ctx)
    found: dict[int, list[tuple[str, str]]] = {}
    for pos, item in enumerate(items):
        flags = index.add(item.id, item.unambiguous_direct)
        if flags:
            found[pos] = flags
    return found


class DuplicateIndex:
    """The duplicate rules over a dataset given one item at a time, in order: each item is compared with
    those before it only (the first occurrence is the one kept clean), so its flags are known when it is
    added and a dataset of any size is checked without holding it.

    Why this state and no more: it holds no item and grows about 0.9 KB an item on offline builds (the
    whole dataset in ``MinHashLSH`` at once took 7.7 KB). An item leaves its id (the messages name it), a
    64-bit hash (Python's own: the index lives in one process) of its id, of its normalised task and of its
    signature, each keyed to its position; an item whose signature is new also leaves the signature
    (rapidfuzz compares it with later ones) and, per LSH band, the band's hash. Ids and signatures that
    share a hash are compared as text before a flag; two normalised tasks sharing one (odds of about 1 in
    10^7 at a million tasks) would be flagged as the same task.
    The MinHash signatures (datasketch, with the band layout datasketch's ``MinHashLSH`` picks for this
    threshold) are computed and dropped; the buckets are plain dicts of ints because ``MinHashLSH``'s
    in-memory storage keeps a set per bucket and a key table, over a kilobyte an item at five bands.

    Of several earlier tasks near enough to a new one, the message names the earliest."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.similarity = ctx.config.near_duplicate_similarity
        self.ids: list[str] = []
        self.first_id: dict[int, int] = {}  # hash of an id -> its first position
        self.first_text: dict[int, int] = {}  # hash of a normalised task -> its first position
        self.first_signature: dict[int, int] = {}  # hash of a signature -> its first position
        self.signatures: dict[int, str] = {}  # position -> signature, for the items in the buckets
        self.buckets: dict[int, int | list[int]] = {}  # hash of (band, band's values) -> position(s)
        self.minhash: Any = None  # made at the first task that needs it (datasketch loads scipy: 0.4-0.8 s)
        self.bands: list[tuple[int, int]] = []

    def add(self, item_id: str, task: str) -> list[tuple[str, str]]:
        """The duplicate flags of the next item (rule id, message), in the rules' order."""
        pos = len(self.ids)
        self.ids.append(item_id)
        found: list[tuple[str, str]] = []
        earlier = self.first_id.setdefault(hash(item_id), pos)
        if earlier != pos and self.ids[earlier] == item_id:
            found.append(("duplicate_id", f"id: {item_id!r} is also the id of row {earlier + 1} (ids must be unique)"))
        text = normalise(task)
        first = self.first_text.setdefault(hash(text), pos)
        if first != pos:
            found.append(("duplicate", f"unambiguous_direct: same task as item {self.ids[first]}"))
        released = self.ctx.known_tasks.get(text)
        if released is not None and released != item_id:
            found.append(("released_before", f"unambiguous_direct: released before as item {released}"))
        if first != pos:
            return found
        sig = signature(task)
        same = self.first_signature.setdefault(hash(sig), pos)
        if same != pos and self.signatures[same] == sig:
            found.append(("near_duplicate", f"unambiguous_direct: the same task as item {self.ids[same]}, reworded"))
            return found
        keys = self._band_keys(sig)
        candidates: set[int] = set()
        for key in keys:
            held = self.buckets.get(key)
            if held is not None:
                candidates.update(held if isinstance(held, list) else (held,))
        for q in sorted(candidates):
            if fuzz.ratio(sig, self.signatures[q]) >= self.similarity:
                found.append(("near_duplicate", f"unambiguous_direct: nearly the same as item {self.ids[q]}"))
                break
        self.signatures[pos] = sig
        for key in keys:
            held = self.buckets.get(key)
            if held is None:
                self.buckets[key] = pos  # most buckets hold one task: an int, not a list
            elif isinstance(held, list):
                held.append(pos)
            else:
                self.buckets[key] = [held, pos]
        return found

    def _band_keys(self, sig: str) -> list[int]:
        """The task's LSH buckets: per band, a hash of the band's MinHash values (two tasks share a bucket
        when a band's values are all equal, as in ``MinHashLSH``)."""
        if self.minhash is None:
            from datasketch import MinHash, MinHashLSH

            self.bands = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM).hashranges
            self.minhash = MinHash(num_perm=NUM_PERM)  # copied for each task: its permutations are made once
        m = self.minhash.copy()
        m.update_batch([w.encode() for w in set(sig.split()) or {""}])
        values = m.hashvalues
        return [hash((band, values[start:end].tobytes())) for band, (start, end) in enumerate(self.bands)]
