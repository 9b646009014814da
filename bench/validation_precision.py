"""Precision of the validation rules' errors and recall of the defects they are for, on published AmbiK rows.

Runs every item rule on the AmbiK development rows (``ambik_dev_400.csv``, read where it is published, never
copied) and matches each error flag to the hand labels in ``bench/labels/ambik_flags.csv`` by (set, row id,
rule, evidence). The development rows are split once and for all by row id: odd ids are the half the rules
were tuned on, even ids the held-back half. For each half and each rule that raised an error it prints the
flags judged (right, partly, wrong), precision (right / judged; "partly" counts as not right) with its 95%
Wilson interval, and the error flags raised but not in the labelled sample.

Recall: ``bench/labels/ambik_defects.csv`` lists the defects found by reading rows in full; a defect is found
when a flag of its rule names it (as an error, and at any severity). Identical plans and stray "0:" step
numbers are found on every row by a check of the raw CSV cells that shares no code with the rules. Rows read
in full and found clean must get no error.

With ``--full AmbiK_data.csv`` (the 1000 published rows, from the authors' repository) it also prints the
precision on labelled flags of rows in neither split, read after the rules were frozen.

Usage: python bench/validation_precision.py [--dev ../shared/data/ambik_dev_400.csv]
       [--calib ../shared/data/ambik_calib_100.csv] [--labels bench/labels] [--full /tmp/ambik_full.csv]
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import defaultdict
from pathlib import Path

from statsmodels.stats.proportion import proportion_confint

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
LABELS = Path(__file__).parent / "labels"
#: A step cell starting with a stray "0:" (or "0 :"): AmbiK's second batch numbers its first step so ("0." is
#: read as numbering by the importer and dropped, so it is no defect of the imported item.)
_ZERO = re.compile(r"^\s*0\s*:", re.M)
#: The rules whose flags find each defect class: (as an error, at any severity).
CLASSES = {
    "missing_object": ({"grounding"}, {"grounding", "grounding_noun", "grounding_variant"}),
    "answer_leak": ({"answer_leak"}, {"answer_leak", "answer_leak_suspect"}),
    "shortlist": ({"shortlist"}, {"shortlist"}),
    "corruption": ({"corruption"}, {"corruption", "fragment"}),
}
TARGET_PRECISION, TARGET_RECALL = 0.95, 0.90


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def evidence(message: str) -> str:
    """What a flag names: the first quoted thing in its message ("names 'the spatula'" -> "the spatula" is
    kept as written), else its field."""
    m = re.search(r"'([^']*)'", message)
    return m.group(1) if m else message.split(":")[0].split("[")[0]


def wilson(right: int, n: int) -> tuple[float, float]:
    low, high = proportion_confint(right, n, alpha=0.05, method="wilson")
    return float(low), float(high)


def validate(path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Row id -> its flags (rule, severity, message)."""
    from ambiforge.ambik import read_ambik_csv
    from ambiforge.catalog import load_catalog
    from ambiforge.validation import RuleContext, validate_items

    catalog = load_catalog()
    flags: dict[str, list[tuple[str, str, str]]] = {}
    for item in validate_items(read_ambik_csv(path, catalog), RuleContext(catalog=catalog)):
        flags[item.id] = [(f.rule, f.severity, f.message) for f in item.validation.failed]  # type: ignore[union-attr]
    return flags


def precision(flags: dict[str, list[tuple[str, str, str]]], labels: list[dict[str, str]], set_name: str) -> bool:
    judged = {(r["id"], r["rule"], r["evidence"]): r["label"] for r in labels if r["set"] == set_name}
    ok = True
    for half, parity in (("tuning half (odd ids)", 1), ("held-back half (even ids)", 0)):
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        raised = set()
        for row_id, found in flags.items():
            if int(row_id) % 2 != parity:
                continue
            for rule, severity, message in found:
                if severity != "error":
                    continue
                key = (row_id, rule, evidence(message))
                raised.add(key)
                counts[rule][judged.get(key, "unlabelled")] += 1
        stale = sum(1 for k in judged if int(k[0]) % 2 == parity and k not in raised)
        print(f"\n{set_name}, {half}: error flags")
        print(
            f"{'rule':<16}{'raised':>7}{'judged':>7}{'right':>6}{'partly':>7}{'wrong':>6}{'precision':>10}  95% Wilson"
        )
        for rule in sorted(counts):
            c = counts[rule]
            n = c["right"] + c["partly"] + c["wrong"]
            raised_n = n + c["unlabelled"]
            if n:
                low, high = wilson(c["right"], n)
                p = c["right"] / n
                ok &= parity == 1 or p >= TARGET_PRECISION
                shown = f"{p:>9.1%}  [{low:.1%}, {high:.1%}]"
            else:
                shown = f"{'-':>9}"
            print(f"{rule:<16}{raised_n:>7}{n:>7}{c['right']:>6}{c['partly']:>7}{c['wrong']:>6}{shown}")
        total = [sum(c[k] for c in counts.values()) for k in ("right", "partly", "wrong")]
        n = sum(total)
        if n:
            low, high = wilson(total[0], n)
            shown = f"{total[0] / n:>9.1%}  [{low:.1%}, {high:.1%}]"
            print(f"{'all':<16}{'':>7}{n:>7}{total[0]:>6}{total[1]:>7}{total[2]:>6}{shown}")
        if stale:
            print(f"({stale} labelled flags of this half are no longer raised)")
    return ok


def precision_fresh(flags: dict[str, list[tuple[str, str, str]]], labels: list[dict[str, str]]) -> None:
    """The "fresh" labels: rows of the full AmbiK CSV outside both splits, read after the rules were frozen."""
    judged = {(r["id"], r["rule"], r["evidence"]): r["label"] for r in labels if r["set"] == "fresh"}
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row_id, found in flags.items():
        for rule, severity, message in found:
            key = (row_id, rule, evidence(message))
            if severity == "error" and key in judged:
                counts[rule][judged[key]] += 1
    print("\nfresh rows (full AmbiK CSV outside both splits), labelled error flags")
    print(f"{'rule':<16}{'judged':>7}{'right':>6}{'partly':>7}{'wrong':>6}{'precision':>10}  95% Wilson")
    for rule in sorted(counts):
        c = counts[rule]
        n = c["right"] + c["partly"] + c["wrong"]
        low, high = wilson(c["right"], n)
        shown = f"{c['right'] / n:>9.1%}  [{low:.1%}, {high:.1%}]"
        print(f"{rule:<16}{n:>7}{c['right']:>6}{c['partly']:>7}{c['wrong']:>6}{shown}")


def recall(flags_by_set: dict[str, dict[str, list[tuple[str, str, str]]]], defects: list[dict[str, str]]) -> bool:
    print("\nrecall on the labelled defects (a flag of the class's rules names the defect)")
    print(f"{'class':<16}{'defects':>8}{'as error':>10}{'any severity':>14}  missed as error")
    ok = True
    for name, (as_error, any_rule) in CLASSES.items():
        rows = [d for d in defects if d["defect"] == name]
        if not rows:
            continue
        hit_error = hit_any = 0
        missed = []
        for d in rows:
            found = flags_by_set[d["set"]].get(d["id"], [])
            want = d["evidence"].lower().split()[-1].rstrip("s") if name != "corruption" else ""

            e = _names(found, as_error, ("error",), want)
            a = e or _names(found, any_rule, ("error", "warning"), want)
            hit_error += e
            hit_any += a
            if not e:
                missed.append(f"{d['set']} {d['id']} {d['evidence']}")
        ok &= hit_error / len(rows) >= TARGET_RECALL
        print(
            f"{name:<16}{len(rows):>8}{hit_error / len(rows):>10.0%}{hit_any / len(rows):>14.0%}  {'; '.join(missed)}"
        )
    return ok


def _names(found: list[tuple[str, str, str]], rules: set[str], severities: tuple[str, ...], want: str) -> bool:
    return any(r in rules and s in severities and want in m.lower() for r, s, m in found)


def raw_checks(path: Path, flags: dict[str, list[tuple[str, str, str]]]) -> bool:
    """Identical plans and stray "0:" numbering on every row, by the raw cells (no code shared with the rules)."""
    with path.open(encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    ok = True
    for name, rule, has in (
        (
            "identical_plans",
            "plan_divergence",
            lambda r: r["plan_for_clear_task"].strip() == r["plan_for_amb_task"].strip(),
        ),
        (
            "zero_numbering",
            "corruption",
            lambda r: bool(_ZERO.search(r["plan_for_clear_task"] + "\n" + r["plan_for_amb_task"])),
        ),
    ):
        carriers = [r["id"] for r in rows if has(r)]
        found = [i for i in carriers if any(ru == rule and s == "error" for ru, s, _ in flags.get(i, []))]
        share = len(found) / len(carriers) if carriers else 1.0
        ok &= share >= TARGET_RECALL
        missed = sorted(set(carriers) - set(found), key=int)
        print(f"{name:<16}{len(carriers):>8}{share:>10.0%}{'':>14}  {' '.join(missed[:12])}")
    return ok


def clean(flags_by_set: dict[str, dict[str, list[tuple[str, str, str]]]], defects: list[dict[str, str]]) -> bool:
    rows = [d for d in defects if d["defect"] == "clean"]
    errors = {
        f"{d['set']} {d['id']}": [m for _, s, m in flags_by_set[d["set"]].get(d["id"], []) if s == "error"]
        for d in rows
    }
    bad = {k: v for k, v in errors.items() if v}
    print(f"\nclean rows read in full: {len(rows)}; with an error: {len(bad)} {bad if bad else ''}")
    return not bad


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dev", type=Path, default=SHARED / "ambik_dev_400.csv")
    parser.add_argument("--calib", type=Path, default=SHARED / "ambik_calib_100.csv")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--full", type=Path, help="the full published AmbiK CSV (1000 rows), for the fresh labels")
    args = parser.parse_args()

    labels = read_rows(args.labels / "ambik_flags.csv")
    defects = read_rows(args.labels / "ambik_defects.csv")
    flags = {"dev": validate(args.dev), "calib": validate(args.calib)}
    print(f"{args.dev}: {len(flags['dev'])} rows; {args.calib}: {len(flags['calib'])} rows; labels: {args.labels}")
    ok = precision(flags["dev"], labels, "dev")
    ok &= recall(flags, defects)
    ok &= raw_checks(args.dev, flags["dev"])
    ok &= clean(flags, defects)
    if args.full:
        precision_fresh(validate(args.full), labels)
    print(
        f"\nheld-back precision >= {TARGET_PRECISION:.0%} per error rule, recall >= {TARGET_RECALL:.0%} per class "
        f"(as error), clean rows without errors: {'yes' if ok else 'NO'}"
    )


if __name__ == "__main__":
    main()
