"""The errata table of docs/evaluate.md, row by row: what each mode does is what the table says it does."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ambiforge.detectors.conformal import calibrate_tasks, prediction_set
from ambiforge.detectors.methods.lap import LAP
from ambiforge.detectors.methods.lofreecp import LofreeCP
from ambiforge.evaluation.rescore import method_tables

DOC = Path(__file__).resolve().parents[3] / "docs" / "evaluate.md"


def row(
    half: str,
    options: list[str],
    chosen: list[int],
    *,
    method: str = "knowno",
    kind: str = "preferences",
    intent: tuple[str, ...] = ("glass mug",),
    shortlist: tuple[str, ...] = (),
    item: str = "I1",
) -> dict[str, Any]:
    return {
        "method": method,
        "item_id": item,
        "half": half,
        "ambiguity_type": kind,
        "user_intent": list(intent),
        "shortlist": list(shortlist) if half == "ambiguous" else [],
        "options": options,
        "prediction_set": chosen,
        "set_options": [options[i] for i in chosen],
        "asked": len(chosen) > 1 if method != "nohelp" else False,
        "details": {},
        "error": None,
    }


def figure(rows: list[dict[str, Any]], mode: str, group: str, metric: str) -> Any:
    return method_tables(rows, mode)["by_group"][group][metric]


MUGS = ["Take the glass mug.", "Take the ceramic mug."]


def icr_set() -> None:
    rows = [row("ambiguous", MUGS, [0, 1], intent=("glass mug", "ceramic mug"))]
    assert figure(rows, "paper", "preferences", "ICR") == 1.0  # the union of the set covers both concepts
    assert figure(rows, "authors", "preferences", "ICR") == 0.5  # the best single answer covers one


def icr_match() -> None:
    rows = [row("ambiguous", MUGS, [0], intent=("Glass mug",))]
    assert figure(rows, "paper", "preferences", "ICR") == 1.0  # concepts are case-folded
    assert figure(rows, "authors", "preferences", "ICR") == 0.0  # their intent is not lower-cased
    stale = [
        row("unambiguous", MUGS, [1], intent=("ceramic mug",), item="I1"),
        row("unambiguous", MUGS, [1], intent=(), item="I2"),
    ]
    assert figure(stale, "paper", "unambiguous", "n_ICR") == 1  # no intent, no ICR
    assert figure(stale, "authors", "unambiguous", "ICR") == 1.0  # I2 scored on I1's intent
    assert figure(stale, "authors", "unambiguous", "n_ICR") == 2


def chr_cases() -> None:
    acts = [row("ambiguous", MUGS, [0], kind="common_sense_knowledge")]
    assert figure(acts, "paper", "common_sense_knowledge", "CHR") == 1.0  # acting is right for common sense
    assert figure(acts, "authors", "common_sense_knowledge", "CHR") == 0.0  # every ambiguous task must ask
    empty = [row("unambiguous", MUGS, [])]
    assert figure(empty, "paper", "unambiguous", "CHR") == 1.0  # it did not ask
    assert figure(empty, "authors", "unambiguous", "CHR") == 0.0  # exactly one answer, or wrong


def ssc() -> None:
    rows = [row("ambiguous", MUGS, [1], shortlist=("glass mug", "ceramic mug"))]
    assert figure(rows, "paper", "preferences", "SSC") == 0.5  # {ceramic mug} against both
    # split on ",": the second element is " ceramic mug", which needs two spaces before it in the answer
    assert figure(rows, "authors", "preferences", "SSC") == 0.0
    unnamed = [row("ambiguous", [*MUGS, "Wipe the table."], [0, 2], shortlist=("glass mug", "ceramic mug"))]
    assert figure(unnamed, "paper", "preferences", "SSC") == pytest.approx(1 / 3, abs=1e-4)  # the extra option counts
    assert figure(unnamed, "authors", "preferences", "SSC") == 0.5  # an answer naming nothing adds nothing


def ambdif() -> None:
    rows = [row("ambiguous", MUGS, [0, 1]), row("unambiguous", MUGS, [0])]
    assert method_tables(rows, "paper")["ambdif"]["all"] == 1.0
    assert method_tables(rows, "authors")["ambdif"]["all"] is None  # their -1: fewer than 400 rows
    binary = [
        {**row("ambiguous", MUGS[:1], [0], method="binary", item=f"I{k}"), "details": {"label": "Uncertain"}}
        for k in range(250)
    ] + [
        {**row("unambiguous", MUGS[:1], [0], method="binary", item=f"I{k}"), "details": {"label": "Certain"}}
        for k in range(250)
    ]
    for r in binary:
        r["asked"] = r["details"]["label"] == "Uncertain"
    assert method_tables(binary, "paper")["ambdif"]["all"] == 1.0
    assert method_tables(binary, "authors")["ambdif"]["all"] == 0.0  # sets of one on both halves


def nohelp() -> None:
    rows = [
        row("ambiguous", ["Take the glass mug and fill it."], [0], method="nohelp", item="I1"),
        row("unambiguous", ["Take the glass mug."], [0], method="nohelp", item="I1"),
    ]
    for mode, icr, hr, clear_chr in (("paper", 0.0, 0.0, 1.0), ("authors", None, 0.0, 0.0)):
        assert figure(rows, mode, "preferences", "ICR") == icr, mode
        assert figure(rows, mode, "all", "HR") == hr, mode
        assert figure(rows, mode, "unambiguous", "CHR") == clear_chr, mode
    # 300 pairs: 600 rows, clear 0-299 then ambiguous 300-599; row i + 400 exists for i < 200 only
    long = [{**r, "item_id": f"I{k}"} for k in range(300) for r in rows]
    assert method_tables(long, "paper")["ambdif"]["all"] == 0.0  # sets of one
    assert method_tables(long, "authors")["ambdif"]["all"] == 0.5  # the longer answer string, 200 of 400


def lap_set() -> None:
    assert LAP.authors_comparison == "at_least"
    tasks = [([0.6, 0.4], [True, False])] * 5
    authors = calibrate_tasks(tasks, 0.2, "authors", comparison="at_least")
    assert authors.threshold == pytest.approx(0.6) and prediction_set([0.6, 0.4], authors) == [0]  # >=
    knowno = calibrate_tasks(tasks, 0.2, "authors")
    assert prediction_set([0.6, 0.4], knowno) == []  # KnowNo's code: strictly above
    assert prediction_set([0.6, 0.4], calibrate_tasks(tasks, 0.2, "knowno")) == [0]


def lofreecp_set() -> None:
    assert LofreeCP.authors_comparison == "nonconformity_at_least"
    tasks = [([0.7, 0.3], [True, False])] * 5
    authors = calibrate_tasks(tasks, 0.2, "authors", comparison="nonconformity_at_least")
    assert authors.threshold == pytest.approx(0.3)  # the correct options' non-conformity 1 - 0.7
    assert prediction_set([0.7, 0.3], authors) == [0, 1]  # non-conformity >= 0.3: both, the worst included
    assert prediction_set([0.9, 0.2], authors) == [1]  # the least conforming option alone
    assert prediction_set([0.9, 0.2], calibrate_tasks(tasks, 0.2, "knowno")) == [0]


ROWS: dict[str, Callable[[], None]] = {
    "icr-set": icr_set,
    "icr-match": icr_match,
    "chr-cases": chr_cases,
    "ssc": ssc,
    "ambdif": ambdif,
    "nohelp": nohelp,
    "lap-set": lap_set,
    "lofreecp-set": lofreecp_set,
}


def documented_ids() -> list[str]:
    text = DOC.read_text(encoding="utf-8").split("## Metric modes and errata", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z-]+)` \|", text, re.MULTILINE)


def test_every_documented_row_is_tested() -> None:
    assert documented_ids() == list(ROWS)


@pytest.mark.parametrize("row_id", list(ROWS))
def test_errata_row(row_id: str) -> None:
    ROWS[row_id]()
