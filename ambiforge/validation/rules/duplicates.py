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
from typing import TYPE_CHECKING

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
    found: dict[int, list[tuple[str, str]]] = {}
    first_id: dict[str, int] = {}
    for pos, item in enumerate(items):
        earlier = first_id.setdefault(item.id, pos)
        if earlier != pos:
            found.setdefault(pos, []).append(
                ("duplicate_id", f"id: {item.id!r} is also the id of row {earlier + 1} (ids must be unique)")
            )
    texts = [normalise(i.unambiguous_direct) for i in items]
    first: dict[str, int] = {}
    for pos, text in enumerate(texts):
        if text in first:
            found.setdefault(pos, []).append(
                ("duplicate", f"unambiguous_direct: same task as item {items[first[text]].id}")
            )
        else:
            first[text] = pos
        released = ctx.known_tasks.get(text)
        if released is not None and released != items[pos].id:
            found.setdefault(pos, []).append(
                ("released_before", f"unambiguous_direct: released before as item {released}")
            )
    unique = sorted(first.values())
    if len(unique) < 2:
        return found
    signatures = {p: signature(items[p].unambiguous_direct) for p in unique}
    by_signature: dict[str, int] = {}
    for p in unique:
        q = by_signature.setdefault(signatures[p], p)
        if q != p:
            found.setdefault(p, []).append(
                ("near_duplicate", f"unambiguous_direct: the same task as item {items[q].id}, reworded")
            )
    unique = sorted(by_signature.values())
    # Imported here: datasketch loads scipy (0.4-0.8 s), and this module is imported with the item rules
    # by every command, LLM builds before their first call.
    from datasketch import MinHash, MinHashLSH

    shingles = [set(signatures[p].split()) or {""} for p in unique]
    hashes = MinHash.bulk([[w.encode() for w in s] for s in shingles], num_perm=NUM_PERM)
    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
    for p, h in zip(unique, hashes, strict=True):
        lsh.insert(p, h)
    for p, h in zip(unique, hashes, strict=True):
        for q in lsh.query(h):
            if q < p and fuzz.ratio(signatures[p], signatures[q]) >= ctx.config.near_duplicate_similarity:
                found.setdefault(p, []).append(
                    ("near_duplicate", f"unambiguous_direct: nearly the same as item {items[q].id}")
                )
                break
    return found
