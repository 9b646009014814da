"""Inter-annotator agreement for a categorical field (verdict, ambiguity type).

Fleiss' kappa and Cohen's kappa come from statsmodels, Krippendorff's alpha from the ``krippendorff``
package: well-kept implementations that the numbers in papers are computed with. Raw percent agreement is
the mean share of agreeing annotator pairs per item (Fleiss' P-bar).
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import krippendorff
import numpy as np
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

Ratings = Mapping[str, Mapping[str, str]]  # item id -> annotator -> label


def _finite(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(float(x), 6)


def item_status(labels: Sequence[str], required: int = 3) -> str:
    """unanimous / majority / split for an item with ``required`` labels; pending with fewer."""
    if len(labels) < required:
        return "pending"
    top = Counter(labels).most_common(1)[0][1]
    if top == len(labels):
        return "unanimous"
    return "majority" if top * 2 > len(labels) else "split"


def majority(labels: Sequence[str]) -> str | None:
    label, count = Counter(labels).most_common(1)[0] if labels else (None, 0)
    return label if count * 2 > len(labels) else None


def field_agreement(ratings: Ratings, categories: Sequence[str], required: int = 3) -> dict[str, Any]:
    """Agreement over the items that have ``required`` ratings (complete items). A statistic that is
    undefined for the data (every annotator always chose the same label) is reported as None."""
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return _field_agreement(ratings, categories, required)


def _field_agreement(ratings: Ratings, categories: Sequence[str], required: int) -> dict[str, Any]:
    complete = {i: r for i, r in ratings.items() if len(r) >= required}
    annotators = sorted({a for r in ratings.values() for a in r})
    index = {c: k for k, c in enumerate(categories)}
    counts = np.array([[Counter(r.values()).get(c, 0) for c in categories] for r in complete.values()])
    per_item = []
    for row in counts:
        n = row.sum()
        per_item.append((np.square(row).sum() - n) / (n * (n - 1)))
    percent = float(np.mean(per_item)) * 100 if per_item else None
    fleiss = fleiss_kappa(counts, method="fleiss") if len(counts) else float("nan")
    reliability = np.array(
        [[index[ratings[i][a]] if a in ratings[i] else np.nan for i in ratings] for a in annotators], dtype=float
    )
    try:
        alpha = krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
    except (ValueError, ZeroDivisionError):
        alpha = float("nan")
    pairwise: dict[str, float | None] = {}
    for a, b in itertools.combinations(annotators, 2):
        both = [(r[a], r[b]) for r in ratings.values() if a in r and b in r]
        table = np.zeros((len(categories), len(categories)))
        for x, y in both:
            table[index[x], index[y]] += 1
        try:
            kappa = cohens_kappa(table).kappa if both else float("nan")
        except (ValueError, ZeroDivisionError):
            kappa = float("nan")
        pairwise[f"{a}|{b}"] = _finite(kappa)
    return {
        "items": len(complete),
        "percent_agreement": _finite(percent) if percent is not None else None,
        "fleiss_kappa": _finite(fleiss),
        "krippendorff_alpha": _finite(alpha),
        "cohen_kappa_pairwise": pairwise,
    }


def annotator_stats(ratings: Ratings, accept_labels: Sequence[str] = ("accept", "accept_with_fixes")) -> dict[str, Any]:
    """Per annotator: items done, accept rate, agreement with the majority of the item."""
    stats: dict[str, dict[str, Any]] = {}
    for item in ratings.values():
        winner = majority(list(item.values()))
        for annotator, label in item.items():
            s = stats.setdefault(annotator, {"items": 0, "accepted": 0, "with_majority": 0, "majority_items": 0})
            s["items"] += 1
            s["accepted"] += label in accept_labels
            if winner is not None:
                s["majority_items"] += 1
                s["with_majority"] += label == winner
    return {
        a: {
            "items": s["items"],
            "accept_rate": round(s["accepted"] / s["items"], 6),
            "agreement_with_majority": round(s["with_majority"] / s["majority_items"], 6)
            if s["majority_items"]
            else None,
        }
        for a, s in sorted(stats.items())
    }


#: the one scale the judge and the reviewers are compared on
JUDGE_CATEGORIES = ("holds", "fails")


def judge_label(judgement: Any) -> str | None:
    """The debates' view of a pair on :data:`JUDGE_CATEGORIES`.

    ``holds``: the ambiguous task was judged ambiguous and the clear task clear (each half's majority
    verdict is the one its side of the pair claims); ``fails``: at least one half was judged the other way
    (the AmbiK audit's "clear task is itself ambiguous" and "ambiguous task is in fact clear"). A pair
    whose debates gave no majority on a half, or that was not debated, has no label and is left out.
    """
    if judgement is None or judgement.ambiguous_task is None or judgement.clear_task is None:
        return None
    verdicts = (judgement.ambiguous_task.verdict, judgement.clear_task.verdict)
    if verdicts == ("ambiguous", "clear"):
        return "holds"
    if None in verdicts:
        return None
    return "fails"


def human_label(verdict: str | None) -> str | None:
    """The reviewers' decision (the majority or the maintainer's verdict) on the same scale: ``accept`` and
    ``accept_with_fixes`` mean the pair holds (fixes are small edits that keep what it claims), ``reject``
    that it fails; no decision yet (split, pending) has no label and is left out."""
    if verdict in ("accept", "accept_with_fixes"):
        return "holds"
    if verdict == "reject":
        return "fails"
    return None


def judge_vs_reviewers(items: Sequence[Any]) -> dict[str, Any] | None:
    """Cohen's kappa between the debate verdict and the human verdict over the items that have both
    (see :func:`judge_label` and :func:`human_label` for the mapping), with ``n``, the raw agreement and
    the 2x2 table (rows: judge, columns: reviewers). None when no item was judged; kappa None when it is
    undefined (fewer than two items, or both sides always chose one label)."""
    judged = [i for i in items if getattr(i, "judgement", None) is not None]
    if not judged:
        return None
    pairs = []
    for item in judged:
        ours = judge_label(item.judgement)
        theirs = human_label(item.review.verdict if item.review is not None else None)
        if ours is not None and theirs is not None:
            pairs.append((ours, theirs))
    return kappa_table(pairs) | {"judged": len(judged)}


def kappa_table(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Cohen's kappa (statsmodels) of (judge, reviewer) labels on :data:`JUDGE_CATEGORIES`."""
    index = {c: k for k, c in enumerate(JUDGE_CATEGORIES)}
    table = np.zeros((len(JUDGE_CATEGORIES), len(JUDGE_CATEGORIES)))
    for ours, theirs in pairs:
        table[index[ours], index[theirs]] += 1
    kappa = float("nan")
    if len(pairs) >= 2:
        with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                kappa = cohens_kappa(table).kappa
            except (ValueError, ZeroDivisionError):
                kappa = float("nan")
    agree = sum(1 for a, b in pairs if a == b)
    return {
        "n": len(pairs),
        "cohen_kappa": _finite(kappa),
        "percent_agreement": round(agree / len(pairs) * 100, 6) if pairs else None,
        "categories": list(JUDGE_CATEGORIES),
        "table": {
            ours: {theirs: int(table[index[ours], index[theirs]]) for theirs in JUDGE_CATEGORIES}
            for ours in JUDGE_CATEGORIES
        },
    }
