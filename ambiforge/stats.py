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


def dataset_stats(items: Sequence[Item]) -> dict[str, object]:
    counts = Counter(i.ambiguity_type for i in items)
    n = len(items) or 1
    tasks = [i.unambiguous_direct for i in items] + [i.ambiguous_task for i in items]
    return {
        "items": len(items),
        "per_type": {t: counts.get(t, 0) for t in names()},
        "type_share": {t: round(counts.get(t, 0) / n, 4) for t in names()},
        "distinct_unambiguous_tasks": len({i.unambiguous_direct for i in items}),
        "distinct_ambiguous_tasks": len({i.ambiguous_task for i in items}),
        "type_token_ratio": type_token_ratio(tasks),
        "words_per_task": _summary([len(tokens(t)) for t in tasks]),
        "plan_steps": _summary([len(i.plan_for_clear_task) for i in items]),
        "environment_objects": _summary([len(i.environment) for i in items]),
        "diversity": diversity.figures(items),
    }
