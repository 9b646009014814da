"""How many distinct tasks the catalog and templates can make, estimated before a build starts.

A build that asks for more pairs than the catalog can make distinct would spend most of its time
resampling and still reject pairs as duplicates; :func:`shortfall` says so up front, with the estimate.

The estimate counts distinct unambiguous tasks by their content: per template, its wordings times the
catalog objects that can fill its target and each co-slot; per context action the same times its values;
composed tasks combine one focus action with up to ``max(counts)`` different context actions. Politeness
styles, joiners, frames and the order of actions are not counted (duplicate resolution compares content
words, :func:`ambiforge.textnorm.signature`), so the figure is a lower bound on what the text can vary by
and an upper bound on what scene sampling reaches quickly. A mechanism whose tasks take no context clause
says its own figure (:attr:`~ambiforge.generation.offline.mechanisms.base.Mechanism.sentences`): the
environment-induced types name their object by its noun alone, so their sentences can be listed, and the
types that say the same sentences (multiplicity, absence, observation) share one pool: their pairs are
counted together against it.
"""

from __future__ import annotations

import math
import string
from collections.abc import Iterable, Mapping

from ambiforge.catalog import Catalog
from ambiforge.catalog.conditions import Condition
from ambiforge.generation.offline import composition, library, mechanisms

#: Share of the estimate a build can use before duplicates make resampling slow and pairs get rejected
#: (random draws from a space of size S collide more and more as the draws approach S).
USABLE_SHARE = 0.5


def _matching(catalog: Catalog, condition: Condition) -> int:
    return sum(1 for o in catalog.objects.values() if condition.matches(o))


def _slots(texts: Iterable[str]) -> set[str]:
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}


def context_space(catalog: Catalog, data: composition.CompositionData | None = None) -> int:
    """Distinct context clauses: per action, wordings x objects per co-slot x the values its texts use."""
    data = data or composition.load()
    total = 0
    for action in data.actions:
        n = len(action.direct)
        for condition in action.co.values():
            n *= _matching(catalog, condition)
        for name in _slots(action.direct) & set(data.values):
            n *= len(data.values[name])
        total += n
    return total


def focus_space(catalog: Catalog, type_name: str) -> int:
    """Distinct focus actions of a type: per template, wordings x objects for the target and co-slots."""
    if not library.has_templates(type_name):
        return 0
    total = 0
    for spec in library.templates_for(type_name):
        n = len(spec.direct)
        for condition in spec.requirements():
            n *= _matching(catalog, condition)
        total += n
    return total


def type_pool(catalog: Catalog, type_name: str) -> frozenset[str] | int | None:
    """The type's distinct tasks as its mechanisms list them (signatures, or a count when one cannot list
    them); None when a mechanism composes context clauses (then :func:`type_capacity` estimates)."""
    if not library.has_templates(type_name):
        return None
    parts: list[frozenset[str] | int] = []
    for spec in library.templates_for(type_name):
        own = mechanisms.get(spec.mechanism).sentences
        if own is None:
            return None
        parts.append(own(spec, catalog))
    if all(isinstance(p, frozenset) for p in parts):
        return frozenset().union(*parts)  # type: ignore[arg-type]
    return sum(len(p) if isinstance(p, frozenset) else p for p in parts)


def type_capacity(catalog: Catalog, type_name: str) -> int:
    """Estimated distinct tasks of one type: a focus action with 0..k different context actions, or what its
    mechanisms count themselves (:func:`type_pool`)."""
    pool = type_pool(catalog, type_name)
    if pool is not None:
        return len(pool) if isinstance(pool, frozenset) else pool
    data = composition.load()
    contexts = context_space(catalog, data)
    combos = sum(math.comb(contexts, k) for k, weight in data.counts.items() if weight > 0)
    return focus_space(catalog, type_name) * combos


#: Per pool of sentences: the types, the pairs wanted of them, the distinct tasks possible.
Estimates = list[tuple[list[str], int, int]]


def _pools(names: list[str], catalog: Catalog) -> list[tuple[list[str], int]]:
    """The types grouped by the sentences they share (types whose listed pools overlap draw from their
    union), each group with its capacity."""
    groups: list[tuple[list[str], int]] = []
    merged: list[tuple[list[str], frozenset[str]]] = []
    for name in names:
        pool = type_pool(catalog, name)
        if not isinstance(pool, frozenset):
            groups.append(([name], pool if isinstance(pool, int) else type_capacity(catalog, name)))
            continue
        members = [name]
        for other in [m for m in merged if m[1] & pool]:
            merged.remove(other)
            members, pool = [*other[0], *members], other[1] | pool
        merged.append((members, pool))
    return groups + [(members, len(pool)) for members, pool in merged]


def estimates(requested: int, mix: Mapping[str, float], catalog: Catalog) -> Estimates:
    """Per pool of sentences (one type, or the types that share one): the types, the pairs wanted of them
    and about how many distinct tasks the catalog and templates can make."""
    total = sum(mix.values()) or 1.0
    wanted = {n: math.ceil(requested * w / total) for n, w in mix.items() if w > 0 and library.has_templates(n)}
    return [(group, sum(wanted[n] for n in group), cap) for group, cap in _pools(list(wanted), catalog)]


def impossible(
    requested: int, mix: Mapping[str, float], catalog: Catalog, found: Estimates | None = None
) -> str | None:
    """Why the build cannot meet its mix at all, naming the type(s) and the cause: more pairs wanted of a
    pool than it holds distinct tasks. None when it can. ``found``: :func:`estimates` already made."""
    found = estimates(requested, mix, catalog) if found is None else found
    over = [(g, w, c) for g, w, c in found if w > c]
    if not over:
        return None
    said = "; ".join(f"{'+'.join(g)}: {w} pairs wanted, only about {c} distinct tasks possible" for g, w, c in over)
    return (
        f"the type mix cannot be met: {said} (the catalog and templates make no more; ask for fewer pairs of "
        "that type or add catalog objects and templates)"
    )


def shortfall(requested: int, mix: Mapping[str, float], catalog: Catalog, found: Estimates | None = None) -> str | None:
    """A one-line warning when a type's share of ``requested`` pairs exceeds what the catalog can make
    distinct (with the estimate), else None. Called by the build before any work. Types that share their
    sentences are named together, with their pool's estimate."""
    short = [
        f"{'+'.join(group)}: {wanted} wanted, about {capacity} distinct possible"
        + (" (one pool: they say the same sentences)" if len(group) > 1 else "")
        for group, wanted, capacity in (estimates(requested, mix, catalog) if found is None else found)
        if wanted > 0 and wanted > capacity * USABLE_SHARE
    ]
    if not short:
        return None
    return (
        f"{requested} pairs exceed what the catalog and templates can make distinct ({'; '.join(short)}); "
        "expect pairs rejected as duplicates, or add catalog objects and templates"
    )
