"""``--metrics authors`` equals the AmbiK authors' published metric code applied to the same predictions.

The reference below is this test's own transcription of ``metrics.py`` and of how each pipeline
(``knowno/``, ``affordances/`` (LAP), ``lofree/``, ``binary/``, ``no_help/`` ``pipeline.py``) of
cog-model/AmbiK-dataset feeds it, written from reading that code (pandas and numpy as there): the dataset is
every clear half (type ``unambiguous_direct``) then every ambiguous half; KnowNo/Binary/NoHelp go through the
batch functions (intent split on ``","``, a missing intent reuses the previous row's), LAP and LofreeCP call
``_calculate_metrics`` per row (intent split on ``", "``); the aggregates drop their ``-1`` rows; AmbDif
compares row ``i`` with row ``i + 400``. The predictions are random but seeded; every figure of every type
must agree to 1e-6 (their ``-1`` is ambiforge's ``None``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ambiforge.evaluation import authors

# -- the reference: the published functions, transcribed ---------------------------------------------------


def ref_safe_mean(arr: Any) -> float:
    return -1 if len(arr) == 0 else np.mean(arr)


def ref_success_rate(llm_answers: Any, intents: Any) -> float:
    if not isinstance(intents, list) or len(intents) == 0:
        return -1
    if not isinstance(llm_answers, list):
        return -1
    values = []
    for answer in llm_answers:
        answer = answer.lower()
        counter = 0
        for el in intents:
            if el.startswith("-"):
                flag = any(var in answer for var in el.replace("-", "").split("|"))
                counter += 0 if flag else 1
            else:
                flag = any(var in answer for var in el.split("|"))
                counter += 1 if flag else 0
        values.append(counter / len(intents))
    try:
        return max(values)
    except ValueError:
        return 0


def ref_correct_help_rate(llm_answers: Any, amb_type: str) -> int:
    if "unambiguous" in amb_type:
        return 1 if isinstance(llm_answers, list) and len(llm_answers) == 1 else 0
    return 1 if isinstance(llm_answers, list) and len(llm_answers) > 1 else 0


def ref_binary_correct_help_rate(certainty: str, amb_type: str) -> int:
    if "unambiguous" in amb_type:
        return 1 if certainty in ("Certain", "certain") else 0
    return 1 if certainty in ("Uncertain", "uncertain") else 0


def ref_help_rate(llm_answers: Any) -> int:
    return 1 if isinstance(llm_answers, list) and len(llm_answers) > 1 else 0


def ref_binary_help_rate(certainty: str) -> int:
    return 1 if certainty in ("Uncertain", "uncertain") else 0


def ref_ssc(llm_answers: Any, shortlist: Any, amb_type: str) -> float:
    pred: list[str] = []
    if "unambiguous" not in amb_type and isinstance(shortlist, list) and len(shortlist) > 0:
        for answer in llm_answers:
            answer = answer.lower()
            for el in shortlist:
                if el.startswith("-"):
                    flag = any(" " + var in answer for var in el.replace("-", "").split("|"))
                    if not flag and el not in pred:
                        pred.append(el)
                        break
                else:
                    flag = any(" " + var in answer for var in el.split("|"))
                    if flag and el not in pred:
                        pred.append(el)
                        break
        inter = set(pred).intersection(set(shortlist))
        union = set(pred).union(set(shortlist))
        return len(inter) / len(union)
    return -1


def ref_aggregate(batch: dict[str, list[Any]], with_ssc: bool) -> dict[str, dict[str, float]]:
    df = pd.DataFrame(batch)
    out = {}
    for amb_type in ["unambiguous_direct", "preferences", "common_sense_knowledge", "safety"]:
        part = df.loc[df["y_amb_type"] == amb_type]
        sr = np.asarray(part["SR"])
        chr_ = np.asarray(part["correct_help_rate"])
        hr = np.asarray(part["help_rate"])
        figures = {
            "ICR": ref_safe_mean(sr[sr >= 0]),
            "CHR": ref_safe_mean(chr_[chr_ >= 0]),
            "HR": np.sum(hr[hr >= 0]) / len(hr) if len(hr) else -1,
        }
        if with_ssc:
            ssc = np.asarray(part["SSC"])
            figures["SSC"] = ref_safe_mean(ssc[ssc >= 0])
        out[amb_type] = figures
    return out


def ref_ambdif(llm_answers: list[Any]) -> float:
    df = pd.DataFrame({"llm_answers": llm_answers})
    if len(df) < 400:
        return -1
    df["set size"] = df["llm_answers"].apply(lambda row: len(row))
    df["set size_amb"] = pd.Series(list(df[400:]["set size"]))
    df["AmbDif"] = (df["set size"] < df["set size_amb"]).astype(int)
    return sum(df["AmbDif"][:400]) / 400


def ref_pipeline(method: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How the method's pipeline turns its predictions into the published tables."""
    ordered = [r for r in rows if r["half"] == "unambiguous"] + [r for r in rows if r["half"] == "ambiguous"]
    types = ["unambiguous_direct" if r["half"] == "unambiguous" else r["ambiguity_type"] for r in ordered]
    intents = [", ".join(r["user_intent"]) or float("nan") for r in ordered]
    shortlists = [", ".join(r["pair_shortlist"]) or float("nan") for r in ordered]
    if method in ("knowno", "lap"):  # the option lines as the model wrote them: "A) ..."
        answers = [[f"{'ABCD'[i]}) {r['options'][i]}" for i in r["prediction_set"]] for r in ordered]
    elif method == "lofreecp":  # option.lower()[3:]: the lower-cased text without its "a) "
        answers = [[r["options"][i].lower() for i in r["prediction_set"]] for r in ordered]
    elif method == "binary":
        answers = [[r["options"][0]] for r in ordered]
    else:  # nohelp: the generated string
        answers = [r["options"][0] for r in ordered]
    batch: dict[str, list[Any]] = {"y_amb_type": [], "SR": [], "help_rate": [], "correct_help_rate": [], "SSC": []}
    intent = None
    for i, r in enumerate(ordered):
        if method in ("lap", "lofreecp"):  # _calculate_metrics per row, intents[i].split(', ')
            row_intent = intents[i].split(", ")
        else:  # batch_*_metric_calculation: the variable is only set from a string (stale otherwise)
            if isinstance(intents[i], str):
                intent = intents[i].split(",")
            row_intent = intent
        shortlist = shortlists[i].split(",") if isinstance(shortlists[i], str) else []
        batch["y_amb_type"].append(types[i])
        batch["SR"].append(ref_success_rate(answers[i], row_intent))
        if method == "binary":
            label = r["details"]["label"]
            batch["help_rate"].append(ref_binary_help_rate(label))
            batch["correct_help_rate"].append(ref_binary_correct_help_rate(label, types[i]))
        else:
            batch["help_rate"].append(ref_help_rate(answers[i]))
            batch["correct_help_rate"].append(ref_correct_help_rate(answers[i], types[i]))
        batch["SSC"].append(ref_ssc(answers[i], shortlist, types[i]) if method not in ("binary", "nohelp") else -1)
    tables = ref_aggregate(batch, with_ssc=method not in ("binary", "nohelp"))
    return {"tables": tables, "ambdif": ref_ambdif(answers)}


# -- the predictions ------------------------------------------------------------------------------------------

OBJECTS = ["glass mug", "ceramic mug", "metal bowl", "ceramic bowl", "red apple", "green apple", "whole milk"]
TYPES = ["preferences", "common_sense_knowledge", "safety"]


def predictions(method: str, pairs: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for k in range(pairs):
        kind = TYPES[k % 3]
        # an empty intent (a NaN cell) is reused from the previous row by the batch functions; LAP's and
        # LofreeCP's pipelines fail on one (``nan.split``), so they get none
        empty = [] if method in ("lap", "lofreecp") else [[]]
        intent = rng.choice(
            [
                ["glass mug"],
                ["ceramic bowl", "-metal bowl"],
                ["red apple|green apple"],
                ["whole milk", "fridge"],
                *empty,
            ]
        )
        shortlist = rng.sample(OBJECTS, rng.choice([0, 2, 3])) if kind == "preferences" else []
        for half in ("ambiguous", "unambiguous"):
            options = [f"{rng.choice(['Take', 'Use', 'Fill'])} the {rng.choice(OBJECTS)}." for _ in range(4)]
            if method in ("binary", "nohelp"):
                chosen = [0]
                options = [options[0] + " now" * rng.randrange(3)]
            else:
                chosen = sorted(rng.sample(range(4), rng.choice([0, 1, 1, 2, 3, 4])))
            rows.append(
                {
                    "method": method,
                    "item_id": f"I{k}",
                    "half": half,
                    "ambiguity_type": kind,
                    "user_intent": intent,
                    "shortlist": shortlist if half == "ambiguous" else [],
                    "pair_shortlist": shortlist,
                    "options": options,
                    "prediction_set": chosen,
                    "set_options": [options[i] for i in chosen],
                    "asked": len(chosen) > 1,
                    "details": {"label": rng.choice(["Certain", "Uncertain"])} if method == "binary" else {},
                    "error": None,
                }
            )
    return rows


def _same(ours: float | None, theirs: float) -> bool:
    return ours is None if theirs == -1 else ours is not None and abs(ours - float(theirs)) < 1e-6


@pytest.mark.parametrize("pairs", [450, 30])
@pytest.mark.parametrize("method", ["knowno", "lap", "lofreecp", "binary", "nohelp"])
def test_authors_mode_equals_the_published_code(method: str, pairs: int) -> None:
    rows = predictions(method, pairs, seed=pairs)
    reference = ref_pipeline(method, rows)
    ours = authors.summarise(rows)
    for their_type, figures in reference["tables"].items():
        group = "unambiguous" if their_type == "unambiguous_direct" else their_type
        for metric, theirs in figures.items():
            assert _same(ours[group][metric], theirs), (method, group, metric, ours[group][metric], theirs)
    assert _same(authors.ambdif(rows)["all"], reference["ambdif"]), (authors.ambdif(rows), reference["ambdif"])


def test_the_comparison_is_not_vacuous() -> None:
    """The quirks change figures on these predictions, so agreeing with the reference means something."""
    from ambiforge.evaluation.rescore import method_tables

    rows = predictions("knowno", 450, seed=450)
    paper, theirs = method_tables(rows, "paper"), method_tables(rows, "authors")
    assert theirs["ambdif"]["all"] is not None and paper["ambdif"]["all"] != theirs["ambdif"]["all"]
    differs = [
        (g, m)
        for g in theirs["by_group"]
        for m in ("ICR", "CHR", "SSC")
        if paper["by_group"][g][m] is not None
        and theirs["by_group"][g][m] is not None
        and abs(paper["by_group"][g][m] - theirs["by_group"][g][m]) > 1e-3
    ]
    assert {m for _, m in differs} >= {"ICR", "CHR", "SSC"}, differs
    nohelp = method_tables(predictions("nohelp", 450, seed=1), "authors")
    assert nohelp["ambdif"]["all"] > 0  # answer-string lengths, not sets
