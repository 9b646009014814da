"""Precision and recall of the validation rules on hand-labelled AmbiK rows, and the issue's checks.

Runs every item rule on the AmbiK calibration split (read where it is published, never copied), matches each
flag to the hand labels in bench/data/ambik_calib_labels.csv by (row id, rule, field) and prints, per rule:
flags judged right / wrong, precision (right / judged), and recall over the rows read in full (rows where
the rule rightly fired / those plus rows where it missed a defect of its kind). Then it checks on the whole
split that no error names a measure or an object the environment lists in another number, and that every row
whose clear plan equals its ambiguous plan, or that has a stray "0:" step prefix, carries an error.

Usage: python bench/validation_precision.py [--csv ../shared/data/ambik_calib_100.csv] [--labels ...]
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import defaultdict
from pathlib import Path

#: The published AmbiK calibration split, read where it lies (``shared/`` beside the checkout); never copied in.
DEFAULT_CSV = Path(__file__).resolve().parents[2] / "shared" / "data" / "ambik_calib_100.csv"
DEFAULT_LABELS = Path(__file__).parent / "data" / "ambik_calib_labels.csv"
_STRAY = re.compile(r"^\s*(?:\d+\s*[.)]\s*)?0\s*:", re.M)


def read_labels(path: Path) -> tuple[dict[tuple[str, str, str], str], set[str]]:
    labels: dict[tuple[str, str, str], str] = {}
    reviewed: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        rows = csv.DictReader(line for line in fh if not line.startswith("#"))
        for row in rows:
            if row["label"] == "reviewed":
                reviewed.add(row["id"])
            else:
                labels[(row["id"], row["rule"], row["field"])] = row["label"]
    return labels, reviewed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    args = parser.parse_args()

    from ambiforge.ambik import read_ambik_csv
    from ambiforge.catalog import load_catalog
    from ambiforge.textnorm import singular
    from ambiforge.validation import RuleContext, validate_items
    from ambiforge.validation.lexicon import key_of, words
    from ambiforge.validation.report import field_of

    catalog = load_catalog()
    ctx = RuleContext(catalog=catalog)
    items = validate_items(read_ambik_csv(args.csv, catalog), ctx)
    labels, reviewed = read_labels(args.labels)

    right: dict[str, int] = defaultdict(int)
    wrong: dict[str, int] = defaultdict(int)
    unlabelled: dict[str, int] = defaultdict(int)
    severity: dict[str, str] = {}
    fired_right: set[tuple[str, str]] = set()
    seen: set[tuple[str, str, str]] = set()
    for item in items:
        for f in item.validation.failed:  # type: ignore[union-attr]
            severity[f.rule] = f.severity
            key = (item.id, f.rule, field_of(f.message))
            seen.add(key)
            label = labels.get(key)
            if label == "right":
                right[f.rule] += 1
                fired_right.add((item.id, f.rule))
            elif label == "wrong":
                wrong[f.rule] += 1
            else:
                unlabelled[f.rule] += 1
    missed: dict[str, set[str]] = defaultdict(set)
    for (row_id, rule, _field), label in labels.items():
        if label == "missed" and row_id in reviewed and (row_id, rule) not in fired_right:
            missed[rule].add(row_id)
    stale = sum(1 for k, v in labels.items() if v in ("right", "wrong") and k not in seen)

    rules = sorted(set(right) | set(wrong) | set(unlabelled) | set(missed))
    print(f"{len(items)} rows, {len(reviewed)} read in full; labels: {args.labels}")
    print(f"{'rule':<22}{'severity':<9}{'right':>6}{'wrong':>6}{'unlab.':>7}{'precision':>10}{'recall':>8}")
    for rule in rules:
        judged = right[rule] + wrong[rule]
        found = len({r for r, ru in fired_right if ru == rule and r in reviewed})
        recall_base = found + len(missed[rule])
        precision = f"{right[rule] / judged:.0%}" if judged else "-"
        recall = f"{found / recall_base:.0%}" if recall_base else "-"
        print(
            f"{rule:<22}{severity.get(rule, '-'):<9}{right[rule]:>6}{wrong[rule]:>6}{unlabelled[rule]:>7}"
            f"{precision:>10}{recall:>8}"
        )
    errors_right = sum(right[r] for r in rules if severity.get(r) == "error")
    errors_judged = errors_right + sum(wrong[r] for r in rules if severity.get(r) == "error")
    if errors_judged:
        print(f"all error flags: {errors_right}/{errors_judged} right = {errors_right / errors_judged:.0%} precision")
    if stale:
        print(f"({stale} labelled flags are no longer raised)")

    # The checks, on every row.
    units = {key_of(u)[-1] for u in ctx.config.units}
    bad_names = []
    for item in items:
        scene_words = [singular(w) for w in words(item.environment_short)]
        scene_text = " " + " ".join(scene_words) + " "
        for f in item.validation.failed:  # type: ignore[union-attr]
            if f.rule != "grounding" or f.severity != "error":
                continue
            m = re.search(r"'([^']+)'", f.message)
            term = key_of(m.group(1)) if m else ()
            if term and (term[-1] in units and len(term) == 1 or f" {' '.join(term)} " in scene_text):
                bad_names.append((item.id, f.message))
    raw = {row["id"]: row for row in csv.DictReader(args.csv.open(encoding="utf-8-sig"))}
    unflagged = []
    for item in items:
        has_error = any(f.severity == "error" for f in item.validation.failed)  # type: ignore[union-attr]
        same = [s.strip().lower() for s in item.plan_for_clear_task] == [
            s.strip().lower() for s in item.plan_for_amb_task
        ]
        cells = raw.get(item.id, {})
        stray = any(_STRAY.search(cells.get(c, "")) for c in ("plan_for_clear_task", "plan_for_amb_task"))
        if (same or stray) and not has_error:
            unflagged.append(item.id)
    identical = sum(
        1
        for i in items
        if [s.strip().lower() for s in i.plan_for_clear_task] == [s.strip().lower() for s in i.plan_for_amb_task]
    )
    print(f"check: error flags naming a measure or an object the scene lists in another number: {len(bad_names)}")
    for row_id, message in bad_names:
        print(f"   {row_id}: {message}")
    print(f"check: rows with identical plans or a stray '0:' prefix and no error: {len(unflagged)} {unflagged}")
    print(f"       (identical plans on this split: {identical})")


if __name__ == "__main__":
    main()
