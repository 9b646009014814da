"""``--metrics authors``: the AmbiK authors' published metric code (``metrics.py`` of cog-model/AmbiK-dataset)
re-implemented from reading it, quirks included, so the published tables can be reproduced from ambiforge's
per-item results. ``--metrics paper`` (the default, :mod:`ambiforge.detectors.metrics`) follows the paper.

What the published code does that the paper does not (docs/evaluate.md, "Errata", has the table):

- answers are strings as their pipelines hold them: KnowNo's and LAP's set options keep their letter
  (``"A) pick up ..."``), LofreeCP's are lower-cased without it, Binary's one action is a one-element list and
  NoHelp's answer is the bare string (not a list);
- ICR ("SR" there) is the best *single* answer's share of the intent's concepts (``max`` over the set, not
  the union), a substring test on the lower-cased answer, with the intent split on ``","`` (KnowNo, Binary,
  NoHelp: the pieces keep their leading space) or ``", "`` (LAP, LofreeCP); a task with an empty intent
  reuses the previous task's (the batch loop's stale variable; KnowNo, Binary, NoHelp); an empty set scores
  0; NoHelp's string answer is no list, so its ICR is undefined;
- HR: a list of more than one answer (Binary: the label is ``Uncertain``); NoHelp's string: 0;
- CHR: an unambiguous task is helped correctly only by a set of exactly one (an empty set is wrong), every
  ambiguous task by a set of more than one, whatever the type's good agent does (Binary: the label; NoHelp,
  a string: always 0);
- SSC: per answer, the first shortlist element named with a space before it (``" " + name``), or a negated
  one (``-name``) it does *not* name, joins the predicted set; IoU with the shortlist split on ``","``; answers
  naming nothing add nothing; only KnowNo, LAP and LofreeCP report it;
- AmbDif: rows in their order (every clear half, then every ambiguous half), set size ``len(answers)`` (a
  string's length for NoHelp; always 1 for Binary), clear row ``i`` compared with row ``i + 400`` for
  ``i < 400``, divided by 400; undefined (their -1) under 400 rows; one figure, no per-type split;
- group means over the tasks where a metric is defined (their ``-1`` rows left out), unrounded.

Two things no mode copies: a failed task (no usable reply) is left out of every figure in both modes (their
pipelines have no failed task: a malformed reply becomes "do nothing" options), and ``all`` (every row, by the
same rules) is ambiforge's addition to their per-type table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ambiforge.detectors.metrics import ALL, UNAMBIGUOUS

#: the published AmbDif pairs clear row i with row i + OFFSET (their test split had 400 pairs)
OFFSET = 400
LETTERS = "ABCD"
#: how each built-in method's pipeline holds its answers (a method not listed: its set options as a list)
KINDS = {"knowno": "lettered", "lap": "lettered", "lofreecp": "lower", "binary": "binary", "nohelp": "nohelp"}
COMMA_SPACE = ("lap", "lofreecp")  # pipelines that split the intent on ", " (the others on ",")


def answers(row: dict[str, Any]) -> list[str] | str:
    """The row's answers as the method's published pipeline holds them."""
    kind = KINDS.get(row["method"], "set")
    chosen = row.get("prediction_set") or []
    if kind == "lettered":
        letters = (row.get("details") or {}).get("letters") or list(LETTERS)
        return [f"{letters[i]}) {row['options'][i]}" for i in chosen]
    if kind == "lower":
        return [row["options"][i].lower() for i in chosen]
    if kind == "binary":
        return [row["options"][0]] if row["options"] else []
    if kind == "nohelp":
        return row["options"][0] if row["options"] else ""
    return list(row.get("set_options") or [])


def _names(element: str) -> tuple[bool, list[str]]:
    negated = element.startswith("-")
    return negated, (element.replace("-", "") if negated else element).split("|")


def success_rate(llm_answers: list[str] | str, intents: list[str]) -> float | None:
    if not intents or not isinstance(llm_answers, list):
        return None
    values = []
    for answer in llm_answers:
        text = answer.lower()
        hits = 0
        for element in intents:
            negated, names = _names(element)
            found = any(name in text for name in names)
            hits += int(found != negated)
        values.append(hits / len(intents))
    return max(values, default=0)


def help_rate(llm_answers: list[str] | str, label: str | None, binary: bool) -> int:
    if binary:
        return int(label in ("Uncertain", "uncertain"))
    return int(isinstance(llm_answers, list) and len(llm_answers) > 1)


def correct_help(llm_answers: list[str] | str, label: str | None, binary: bool, unambiguous: bool) -> int:
    if binary:
        return int(label in (("Certain", "certain") if unambiguous else ("Uncertain", "uncertain")))
    if not isinstance(llm_answers, list):
        return 0
    return int(len(llm_answers) == 1) if unambiguous else int(len(llm_answers) > 1)


def set_size_correctness(llm_answers: list[str], shortlist: list[str], unambiguous: bool) -> float | None:
    if unambiguous or not shortlist:
        return None
    predicted: list[str] = []
    for answer in llm_answers:
        text = answer.lower()
        for element in shortlist:
            negated, names = _names(element)
            named = any(" " + name in text for name in names)
            if named != negated and element not in predicted:
                predicted.append(element)
                break
    union = set(predicted) | set(shortlist)
    return len(set(predicted) & set(shortlist)) / len(union)


def row_metrics(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each answered row's metrics under the published code (``None`` where theirs is -1 or not reported),
    in the rows' order (the stale-intent rule looks at the previous row)."""
    out = []
    previous: list[str] = []
    for row in rows:
        method, kind = row["method"], KINDS.get(row["method"], "set")
        raw_intent = ", ".join(row["user_intent"])
        if method in COMMA_SPACE:  # their pipelines fail on an empty intent (NaN); here it is undefined
            intents = raw_intent.split(", ") if raw_intent else []
        elif raw_intent:
            intents = previous = raw_intent.split(",")
        else:
            intents = previous
        shortlist = ", ".join(row["shortlist"]).split(",") if row["shortlist"] else []
        given = answers(row)
        label = (row.get("details") or {}).get("label")
        unambiguous = row["half"] == UNAMBIGUOUS
        binary = kind == "binary"
        out.append(
            {
                "ICR": success_rate(given, intents),
                "HR": help_rate(given, label, binary),
                "CHR": correct_help(given, label, binary, unambiguous),
                "SSC": None
                if kind in ("binary", "nohelp") or not isinstance(given, list)
                else set_size_correctness(given, shortlist, unambiguous),
                "set_size": len(given),
            }
        )
    return out


def in_their_order(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answered rows as their pipelines order them: every clear half, then every ambiguous half."""
    ok = [r for r in rows if not r.get("error")]
    return [r for r in ok if r["half"] == UNAMBIGUOUS] + [r for r in ok if r["half"] != UNAMBIGUOUS]


def _mean(values: Sequence[float | int | None]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return sum(present) / len(present) if present else None


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per group (each type's ambiguous halves, ``unambiguous``, ``all``) the published aggregation over the
    answered rows, in the shape of :func:`ambiforge.detectors.metrics.summarise`."""
    ok = in_their_order(rows)
    scored = list(zip(ok, row_metrics(ok), strict=True))
    groups: dict[str, list[dict[str, Any]]] = {}
    for row, m in scored:
        group = row["ambiguity_type"] if row["half"] == "ambiguous" else UNAMBIGUOUS
        groups.setdefault(group, []).append(m)
    errors: dict[str, int] = {}
    for row in rows:
        if row.get("error"):
            group = row["ambiguity_type"] if row["half"] == "ambiguous" else UNAMBIGUOUS
            errors[group] = errors.get(group, 0) + 1
    ordered = {g: groups.get(g, []) for g in sorted(set(groups) | set(errors))}
    ordered[ALL] = [m for _, m in scored]
    errors[ALL] = len(rows) - len(ok)
    out = {}
    for group, ms in ordered.items():
        figures: dict[str, Any] = {"n": len(ms), "errors": errors.get(group, 0)}
        for name in ("ICR", "HR", "CHR", "SSC", "set_size"):
            values = [m[name] for m in ms if m[name] is not None]
            figures[name] = _mean(values)
            figures[f"n_{name}"] = len(values)
        out[group] = figures
    return out


def ambdif(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The published AmbDif over the answered rows in their order: every clear half, then every ambiguous
    half (data order within each); ``None`` under :data:`OFFSET` rows (their -1)."""
    sizes = [len(answers(r)) for r in in_their_order(rows)]
    value = None
    if len(sizes) >= OFFSET:
        value = sum(1 for i in range(OFFSET) if i + OFFSET < len(sizes) and sizes[i] < sizes[i + OFFSET]) / OFFSET
    compared = sum(1 for i in range(OFFSET) if i + OFFSET < len(sizes)) if value is not None else 0
    # pairs: the comparisons their code makes (row i against row i + 400), whatever halves they pair
    return {ALL: value, "pairs": compared, "errored_pairs": 0, "rows": len(sizes)}
