"""AmbiK's metrics as pure functions over per-task results, and their averages per group.

Per task (one half of a pair, one method):
- ICR: intent concepts covered by the prediction set / all concepts (:mod:`.intent`); undefined without an intent.
- HR: 1 when the method asks (for conformal methods: the set has more than one option).
- CHR: 1 when it did what a good agent does: on an ambiguous task, ask if the type's ``good_agent`` is
  ``ask`` and not ask if it is ``act``; on an unambiguous task, not ask.
- SR: 1 when the planner succeeded (:mod:`.success`): on an ambiguous half it did what the good agent does,
  on a clear half it acted on the item's target (read on its graph where it has one).
- SSC: |CS & PS| / |CS | PS| on ambiguous tasks of types with a shortlist (CS = ``amb_shortlist``; an option
  counts as the shortlist object it names; an option naming none is an extra element of PS).
Per pair: AmbDif = 1 when the ambiguous task's set is larger than its clear twin's (for methods that decide
without a set, such as Binary: the ambiguous task asked and the clear one did not).

Groups: each ambiguity type (its ambiguous halves), ``unambiguous`` (every clear half) and ``all``.

A task whose method failed (an unusable reply, a failed call: the row's ``error``) has no metrics: it is
counted in its group's ``errors`` and left out of every mean, never averaged in as a zero. Each group says
what its figures rest on: ``n`` answered tasks, and ``n_<metric>`` for a metric that applies to fewer of them
(ICR needs an intent, SSC a shortlist); a figure over zero tasks is ``None``, never 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ambiforge.detectors.intent import coverage
from ambiforge.models.intent import fold

UNAMBIGUOUS = "unambiguous"
ALL = "all"
METRICS = ("ICR", "HR", "CHR", "SSC", "set_size", "SR")
#: The two levels of the seed's comparison: the ambiguity is in the words (AmbiK's types) or in the kitchen.
INSTRUCTION, ENVIRONMENT = "instruction", "environment"


def icr(set_options: Sequence[str], intent: Sequence[str]) -> float | None:
    covered, total = coverage(set_options, intent)
    return covered / total if total else None


def help_rate(set_size: int, asked: bool | None) -> int:
    return int(bool(asked) or set_size > 1)


def correct_help(asked: bool, ambiguous: bool, good_agent: str) -> int:
    should_ask = ambiguous and good_agent == "ask"
    return int(asked == should_ask)


def ssc(set_options: Sequence[str], shortlist: Sequence[str]) -> float | None:
    short = [fold(s) for s in shortlist if s.strip()]
    if not short:
        return None
    named: set[str] = set()
    unnamed = 0
    for option in set_options:
        text = fold(option)
        hits = {s for s in short if s in text}
        if hits:
            # the most specific object the option names ("glass mug" over "mug"); between names of the same
            # length the first in alphabetical order, never the set's (hash-seeded) iteration order
            named.add(min(hits, key=lambda s: (-len(s), s)))
        else:
            unnamed += 1
    union = len(set(short)) + unnamed
    return len(named & set(short)) / union if union else None


def ambdif(amb_size: int, clear_size: int, amb_asked: bool, clear_asked: bool, uses_sets: bool) -> int:
    if uses_sets:
        return int(amb_size > clear_size)
    return int(amb_asked and not clear_asked)


def task_metrics(
    *,
    set_options: Sequence[str],
    asked: bool | None,
    ambiguous: bool,
    intent: Sequence[str],
    shortlist: Sequence[str],
    good_agent: str,
    has_shortlist: bool,
    never_asks: bool = False,
    sr: int | None = None,
) -> dict[str, float | int | None]:
    """Every per-task metric for one result (``None`` where a metric does not apply). ``never_asks`` (NoHelp):
    the paper's definition: a method that never asks offers the user nothing to choose from, so it covers no
    intent (ICR 0), never helps (HR 0) and has no set to compare with the shortlist (SSC undefined); its one
    action is still its set size (1) for AmbDif."""
    size = len(set_options)
    if never_asks:
        return {
            "ICR": 0.0 if any(i.strip() for i in intent) else None,
            "HR": 0,
            "CHR": correct_help(False, ambiguous, good_agent),
            "SSC": None,
            "set_size": size,
            "SR": sr,
        }
    asked_ = bool(help_rate(size, asked))
    return {
        "ICR": icr(set_options, intent),
        "HR": int(asked_),
        "CHR": correct_help(asked_, ambiguous, good_agent),
        "SSC": ssc(set_options, shortlist) if ambiguous and has_shortlist else None,
        "set_size": size,
        "SR": sr,
    }


def mean(values: Iterable[float | int | None]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return round(sum(present) / len(present), 4) if present else None


def group_of(row: dict[str, Any]) -> str:
    return row["ambiguity_type"] if row["half"] == "ambiguous" else UNAMBIGUOUS


def level_of(row: dict[str, Any]) -> str:
    """A row's group by level: an ambiguous half's level (``instruction`` or ``environment``), or
    ``unambiguous`` for every clear half."""
    return row.get("level", INSTRUCTION) if row["half"] == "ambiguous" else UNAMBIGUOUS


def by_level(rows: Sequence[dict[str, Any]], metric: str = "SR") -> dict[str, float | None]:
    """``metric`` per level (and ``all``) over the answered rows: the seed's instruction-level vs
    environment-level table for one method."""
    by: dict[str, list[Any]] = {}
    for row in rows:
        for group in (level_of(row), ALL):
            values = by.setdefault(group, [])
            if answered(row):
                values.append(row["metrics"].get(metric))
    return {g: mean(by[g]) for g in sorted(by, key=lambda g: (g == ALL, g))}


def no_metrics() -> dict[str, None]:
    """The metrics of a task whose method failed: none (see the module's note)."""
    return dict.fromkeys(METRICS)


def answered(row: dict[str, Any]) -> bool:
    return not row.get("error")


def group_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One group's means over its answered tasks, with ``n``, ``errors`` and ``n_<metric>``."""
    ok = [r for r in rows if answered(r)]
    figures: dict[str, Any] = {"n": len(ok), "errors": len(rows) - len(ok)}
    for m in METRICS:
        values = [r["metrics"].get(m) for r in ok if r["metrics"].get(m) is not None]
        figures[m] = mean(values)
        figures[f"n_{m}"] = len(values)
    return figures


def summarise(rows: Sequence[dict[str, Any]], groups: Callable[[dict[str, Any]], str] = group_of) -> dict[str, Any]:
    """``{group: {metric: mean, "n": answered, "errors": failed, "n_<metric>": tasks}}`` for one method's
    rows (plus ``all``); groups in sorted order, so the document does not depend on the rows' order."""
    by_group: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_group.setdefault(groups(row), []).append(row)
    ordered = {g: by_group[g] for g in sorted(by_group)}
    ordered[ALL] = list(rows)
    return {g: group_summary(rs) for g, rs in ordered.items()}


def pair_ambdif(rows: Sequence[dict[str, Any]], uses_sets: bool) -> dict[str, Any]:
    """AmbDif over the pairs whose both halves were answered: ``{"all": x, "<type>": x, "pairs": n}``
    (``errored_pairs``: pairs left out because a half failed)."""
    halves: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        halves.setdefault(row["item_id"], {})[row["half"]] = row
    per_type: dict[str, list[int]] = {}
    errored = 0
    for _, pair in sorted(halves.items()):
        if "ambiguous" not in pair or UNAMBIGUOUS not in pair:
            continue
        if not (answered(pair["ambiguous"]) and answered(pair[UNAMBIGUOUS])):
            errored += 1
            continue
        a, c = pair["ambiguous"], pair[UNAMBIGUOUS]
        value = ambdif(
            a["metrics"]["set_size"],
            c["metrics"]["set_size"],
            bool(a["metrics"]["HR"]),
            bool(c["metrics"]["HR"]),
            uses_sets,
        )
        per_type.setdefault(a["ambiguity_type"], []).append(value)
    every = [v for vs in per_type.values() for v in vs]
    types = {t: mean(per_type[t]) for t in sorted(per_type)}
    return {ALL: mean(every), "pairs": len(every), "errored_pairs": errored, **types}
