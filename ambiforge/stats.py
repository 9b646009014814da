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


class Stats:
    """:func:`dataset_stats` accumulated one item at a time, for a release streamed in batches: counts and
    sets of distinct texts and tokens, and one small int per item for the medians."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.direct: set[str] = set()
        self.ambiguous: set[str] = set()
        self.vocabulary: set[str] = set()
        self.token_count = 0
        self.direct_words: list[int] = []
        self.ambiguous_words: list[int] = []
        self.plan_steps: list[int] = []
        self.environment_objects: list[int] = []
        self.diversity = diversity.Figures()

    def add(self, item: Item) -> None:
        self.counts[item.ambiguity_type] += 1
        self.direct.add(item.unambiguous_direct)
        self.ambiguous.add(item.ambiguous_task)
        for text, words in ((item.unambiguous_direct, self.direct_words), (item.ambiguous_task, self.ambiguous_words)):
            toks = tokens(text)
            self.vocabulary.update(toks)
            self.token_count += len(toks)
            words.append(len(toks))
        self.plan_steps.append(len(item.plan_for_clear_task))
        self.environment_objects.append(len(item.environment))
        self.diversity.add(item)

    def result(self) -> dict[str, object]:
        items = len(self.plan_steps)
        n = items or 1
        return {
            "items": items,
            "per_type": {t: self.counts.get(t, 0) for t in names()},
            "type_share": {t: round(self.counts.get(t, 0) / n, 4) for t in names()},
            "distinct_unambiguous_tasks": len(self.direct),
            "distinct_ambiguous_tasks": len(self.ambiguous),
            "type_token_ratio": round(len(self.vocabulary) / self.token_count, 4) if self.token_count else 0.0,
            "words_per_task": _summary(self.direct_words + self.ambiguous_words),
            "plan_steps": _summary(self.plan_steps),
            "environment_objects": _summary(self.environment_objects),
            "diversity": self.diversity.result(),
        }


def dataset_stats(items: Iterable[Item]) -> dict[str, object]:
    acc = Stats()
    for item in items:
        acc.add(item)
    return acc.result()
