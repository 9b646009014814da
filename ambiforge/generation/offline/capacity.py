"""How many distinct tasks the catalog and templates can make, estimated before a build starts.

A build that asks for more pairs than the catalog can make distinct would spend most of its time
resampling and still reject pairs as duplicates; :func:`shortfall` says so up front, with the estimate.

The estimate counts distinct unambiguous tasks by their content: per template, its wordings times the
catalog objects that can fill its target and each co-slot; per context action the same times its values;
composed tasks combine one focus action with up to ``max(counts)`` different context actions. Politeness
styles, joiners, frames and the order of actions are not counted (duplicate resolution compares content
words, :func:`ambiforge.textnorm.signature`), so the figure is a lower bound on what the text can vary by
and an upper bound on what scene sampling reaches quickly.
"""

from __future__ import annotations

import math
import string
from collections.abc import Iterable, Mapping

from ambiforge.catalog import Catalog
from ambiforge.catalog.conditions import Condition
from ambiforge.generation.offline import composition, library

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


def type_capacity(catalog: Catalog, type_name: str) -> int:
    """Estimated distinct tasks of one type: a focus action with 0..k different context actions."""
    data = composition.load()
    contexts = context_space(catalog, data)
    combos = sum(math.comb(contexts, k) for k, weight in data.counts.items() if weight > 0)
    return focus_space(catalog, type_name) * combos


def shortfall(requested: int, mix: Mapping[str, float], catalog: Catalog) -> str | None:
    """A one-line warning when a type's share of ``requested`` pairs exceeds what the catalog can make
    distinct (with the estimate), else None. Called by the build before any work."""
    total = sum(mix.values()) or 1.0
    short = []
    for name, weight in mix.items():
        wanted = math.ceil(requested * weight / total)
        if wanted <= 0 or not library.has_templates(name):
            continue
        capacity = type_capacity(catalog, name)
        if wanted > capacity * USABLE_SHARE:
            short.append(f"{name}: {wanted} wanted, about {capacity} distinct possible")
    if not short:
        return None
    return (
        f"{requested} pairs exceed what the catalog and templates can make distinct ({'; '.join(short)}); "
        "expect pairs rejected as duplicates, or add catalog objects and templates"
    )
