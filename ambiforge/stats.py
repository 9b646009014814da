"""Dataset statistics that AmbiK reports and a run summary shows: counts, distinct texts, type-token ratio,
words per task, plan lengths."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence

from ambiforge import diversity
from ambiforge.ambiguity import names
from ambiforge.models import Item

_TOKEN = re.compile(r"[a-z0-9']+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def type_token_ratio(texts: Iterable[str]) -> float:
    toks = [t for text in texts for t in tokens(text)]
    return round(len(set(toks)) / len(toks), 4) if toks else 0.0


def _summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"min": 0, "median": 0, "mean": 0, "max": 0}
    return {
        "min": min(values),
        "median": statistics.median(values),
        "mean": round(statistics.fmean(values), 2),
        "max": max(values),
    }


def _summary_of_counts(counts: Counter[int]) -> dict[str, float]:
    """:func:`_summary` of the whole numbers ``counts`` tallies, the same figures (the median of an even
    count is the mean of the two middle values, as :func:`statistics.median` takes it)."""
    n = sum(counts.values())
    if not n:
        return _summary([])
    values = sorted(counts)

    def at(position: int) -> int:  # the value at ``position`` of the values sorted
        seen = 0
        for value in values:
            seen += counts[value]
            if position < seen:
                return value
        raise IndexError(position)

    median: float = at(n // 2) if n % 2 else (at(n // 2 - 1) + at(n // 2)) / 2
    return {
        "min": values[0],
        "median": median,
        "mean": round(sum(k * c for k, c in counts.items()) / n, 2),
        "max": values[-1],
    }


class Stats:
    """:func:`dataset_stats` accumulated one item at a time (a build or release of any size streams its
    items through it), in state that grows with the distinct texts and words, not with the items: each
    distinct task as its 64-bit hash (:func:`ambiforge.diversity.text_hash`: about 70 bytes, where the text
    cost a few hundred; the count is exact unless two of the tasks collide, which at a million tasks has
    odds of about 1 in 10^7), and tallies of the small whole numbers the medians are taken of."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.direct: set[int] = set()
        self.ambiguous: set[int] = set()
        self.vocabulary: set[str] = set()
        self.token_count = 0
        self.words: Counter[int] = Counter()  # words of a task, both tasks of each item
        self.plan_steps: Counter[int] = Counter()
        self.environment_objects: Counter[int] = Counter()
        self.items = 0
        self.diversity = diversity.Figures()

    def add(self, item: Item) -> None:
        self.items += 1
        self.counts[item.ambiguity_type] += 1
        self.direct.add(diversity.text_hash(item.unambiguous_direct))
        self.ambiguous.add(diversity.text_hash(item.ambiguous_task))
        for text in (item.unambiguous_direct, item.ambiguous_task):
            toks = tokens(text)
            self.vocabulary.update(toks)
            self.token_count += len(toks)
            self.words[len(toks)] += 1
        self.plan_steps[len(item.plan_for_clear_task)] += 1
        self.environment_objects[len(item.environment)] += 1
        self.diversity.add(item)

    def result(self) -> dict[str, object]:
        items = self.items
        n = items or 1
        return {
            "items": items,
            "per_type": {t: self.counts.get(t, 0) for t in names()},
            "type_share": {t: round(self.counts.get(t, 0) / n, 4) for t in names()},
            "distinct_unambiguous_tasks": len(self.direct),
            "distinct_ambiguous_tasks": len(self.ambiguous),
            "type_token_ratio": round(len(self.vocabulary) / self.token_count, 4) if self.token_count else 0.0,
            "words_per_task": _summary_of_counts(self.words),
            "plan_steps": _summary_of_counts(self.plan_steps),
            "environment_objects": _summary_of_counts(self.environment_objects),
            "diversity": self.diversity.result(),
        }


def dataset_stats(items: Iterable[Item]) -> dict[str, object]:
    acc = Stats()
    for item in items:
        acc.add(item)
    return acc.result()
