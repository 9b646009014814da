"""The duplicate rules given one item at a time (:class:`DuplicateIndex`) flag what the whole-list pass
over ``datasketch.MinHashLSH`` flagged, holding hashes rather than the items."""

from __future__ import annotations

import random
from types import SimpleNamespace

from rapidfuzz import fuzz

from ambiforge.textnorm import normalise, signature
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules.duplicates import LSH_THRESHOLD, NUM_PERM, DuplicateIndex, find_duplicates


def whole_list_oracle(items, ctx):  # type: ignore[no-untyped-def]
    """The pass before it streamed: every task in ``MinHashLSH`` at once, each one's near duplicate looked
    for among the earlier ones (the earliest named, where that pass named whichever its set gave first)."""
    from datasketch import MinHash, MinHashLSH

    found: dict[int, list[tuple[str, str]]] = {}
    first_id: dict[str, int] = {}
    for pos, item in enumerate(items):
        earlier = first_id.setdefault(item.id, pos)
        if earlier != pos:
            found.setdefault(pos, []).append(
                ("duplicate_id", f"id: {item.id!r} is also the id of row {earlier + 1} (ids must be unique)")
            )
    first: dict[str, int] = {}
    for pos, item in enumerate(items):
        text = normalise(item.unambiguous_direct)
        if text in first:
            found.setdefault(pos, []).append(
                ("duplicate", f"unambiguous_direct: same task as item {items[first[text]].id}")
            )
        else:
            first[text] = pos
        released = ctx.known_tasks.get(text)
        if released is not None and released != item.id:
            found.setdefault(pos, []).append(
                ("released_before", f"unambiguous_direct: released before as item {released}")
            )
    unique = sorted(first.values())
    signatures = {p: signature(items[p].unambiguous_direct) for p in unique}
    by_signature: dict[str, int] = {}
    for p in unique:
        q = by_signature.setdefault(signatures[p], p)
        if q != p:
            found.setdefault(p, []).append(
                ("near_duplicate", f"unambiguous_direct: the same task as item {items[q].id}, reworded")
            )
    unique = sorted(by_signature.values())
    hashes = MinHash.bulk([[w.encode() for w in set(signatures[p].split()) or {""}] for p in unique], num_perm=NUM_PERM)
    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
    for p, h in zip(unique, hashes, strict=True):
        lsh.insert(p, h)
    for p, h in zip(unique, hashes, strict=True):
        for q in sorted(lsh.query(h)):
            if q < p and fuzz.ratio(signatures[p], signatures[q]) >= ctx.config.near_duplicate_similarity:
                found.setdefault(p, []).append(
                    ("near_duplicate", f"unambiguous_direct: nearly the same as item {items[q].id}")
                )
                break
    return found


def tasks(n: int, seed: int) -> list[SimpleNamespace]:
    """Long tasks from few words, so that copies, rewordings, near misses (a letter doubled) and repeated
    ids are common."""
    rng = random.Random(seed)
    colours = ["red", "blue", "green"]
    nouns = ["mug", "glass", "bowl", "ladle", "kettle", "plate"]
    places = ["top shelf", "dish rack", "left drawer"]
    out = []
    for k in range(n):
        task = (
            f"bring the {rng.choice(colours)} {rng.choice(nouns)} from the {rng.choice(places)} "
            f"to the counter beside the {rng.choice(colours)} {rng.choice(nouns)} and the sink"
        )
        if rng.random() < 0.3:
            words = task.split()
            at = rng.randrange(len(words))
            words[at] = words[at][0] + words[at]
            task = " ".join(words)
        task = rng.choice(["", "Please, ", "Robot, "]) + task + rng.choice([".", "?", " now."])
        item_id = f"id-{rng.randrange(n)}" if rng.random() < 0.05 else f"id-{k}"
        out.append(SimpleNamespace(id=item_id, unambiguous_direct=task))
    return out


def test_index_flags_what_the_whole_list_pass_flagged() -> None:
    items = tasks(300, 0)
    ctx = RuleContext(known_tasks={normalise(items[5].unambiguous_direct): "released-1"})
    want = whole_list_oracle(items, ctx)
    assert {rule for flags in want.values() for rule, _ in flags} == {
        "duplicate_id",
        "duplicate",
        "near_duplicate",
        "released_before",
    }
    assert any("nearly the same" in m for flags in want.values() for _, m in flags)
    assert find_duplicates(items, ctx) == want  # type: ignore[arg-type]


def test_each_item_is_flagged_as_it_is_added() -> None:
    """Flags depend only on the items before: adding one at a time gives each its flags at once."""
    ctx = RuleContext()
    items = tasks(200, 7)
    index = DuplicateIndex(ctx)
    got = {pos: flags for pos, item in enumerate(items) if (flags := index.add(item.id, item.unambiguous_direct))}
    assert got == find_duplicates(items, ctx)  # type: ignore[arg-type]
    assert len(index.ids) == len(items)
