"""Precision of the validation rules' errors and recall of the defects they are for, on published AmbiK rows.

Main figures (issue 43): the newest held-back sets (``FRESH``, measured as one pool), rows written fresh in AmbiK's
format by other hands and labelled blind; without arguments the script measures them (``--set`` another such folder
of rows.csv, split.csv and labels.csv; several ``--set`` are pooled). A set rule authors have since read is in
``WORN`` and its figures say so.
With ``--full``, the frozen held-back rows of ``bench/labels/split_issue43.csv`` (150 rows of the full published
AmbiK CSV, in neither the development nor the calibration rows nor read before), labelled by a reader who never saw
the rules, given only the rows and the defect classes (``bench/labels/heldback_labels.csv``: one line per row and
class with quoted evidence, ``clean`` for a row without defects). Every other row of the full CSV shaped the rules
(the script says which). Per rule: the rows it flags as an error and how many of them the reader labelled with the
rule's class (precision, 95% Wilson interval); per class: the labelled rows and how many of them the class's own
rule flags as an error (recall by the matching rule), with the misses listed. Needs ``--full AmbiK_data.csv`` (from
the authors' repository cog-model/AmbiK-dataset; never copied here). ``--history`` adds the earlier figures on the
development halves.

Earlier figures (``--history``):
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

Usage: python bench/validation_precision.py [--set bench/labels/SET] [--counts-only] [--against writers|second]
       (the held-back set: FRESH; against its readers' labels unless said)
       python bench/validation_precision.py --full AmbiK_data.csv [--heldback-labels FILE] [--history
       --dev ../shared/data/ambik_dev_400.csv --calib ../shared/data/ambik_calib_100.csv --labels bench/labels]
"""

from __future__ import annotations

import argparse
import csv
import re
import tempfile
from collections import defaultdict
from pathlib import Path

from statsmodels.stats.proportion import proportion_confint

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
LABELS = Path(__file__).parent / "labels"
#: A step cell starting with a stray "0:" or "0." (AmbiK's second batch numbers its first step so, and no other).
_ZERO = re.compile(r"^\s*0\s*[:.]", re.M)
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


#: Each defect class of the held-back labels and the error rules that are its own (recall counts only these).
#: ``intent`` (the clear task or its plan never says the intended option) is the clear half of a pair that
#: leaves the choice open (not_minimal: "the clear task leaves the same choice open") or a plan that does
#: not do its task (plan_mismatch): a flag of it is right when the row has either class.
HELD_BACK_CLASSES: dict[str, tuple[str, ...]] = {
    "shortlist": ("shortlist",),
    "not_minimal": ("minimal_pair", "intent"),
    "end_of_ambiguity": ("end_of_ambiguity",),
    "answer_leak": ("answer_leak",),
    "question_answer": ("qa_fit", "question"),
    "plan_mismatch": ("plan_mismatch", "intent"),
    "type": ("type",),
    "corruption": ("corruption",),
    "missing_object": ("grounding",),
    "variants": ("variants",),
}
#: Rules whose errors are checked on every row by the raw cells, not by the reader (identical plans).
RAW_CHECKED = {"plan_divergence"}
SPLIT = LABELS / "split_issue43.csv"
#: The held-back sets, measured as one pool: rows written fresh in AmbiK's format by other hands and labelled
#: blind (each README says how).
FRESH = (LABELS / "fresh_issue43i",)
#: Sets whose rows rule authors have since read: their figures are tuning figures, and the script says so.
WORN = {
    "fresh_issue43": "the fifteenth round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43b": "the sixteenth round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43c": "the seventeenth round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43d": "the eighteenth round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43e": "the nineteenth round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43f": "the twentieth round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43g": "the twenty-first round of rule changes read its rows and labels (29 Nov)",
    "fresh_issue43h": "the twenty-first round of rule changes read its rows and labels (29 Nov)",
}
HELD_BACK_LABELS = LABELS / "heldback_labels.csv"
MIN_FLAGS, MIN_ROWS = 5, 5
HELD_BACK_PRECISION, HELD_BACK_RECALL = 0.95, 0.80


def _shown(folders: tuple[Path, ...]) -> str:
    return " + ".join(str(f) for f in folders)


def _interval(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{k / n:>7.1%}  [{low:.1%}, {high:.1%}]"


def held_back(
    full: Path, split: Path, labels_path: Path, show_rows: bool = True, given: list[dict[str, str]] | None = None
) -> bool:
    """The figures of issue 43 on the frozen held-back rows; True when the targets hold. ``show_rows=False``
    prints the figures without the ids of wrong and missed rows, for a rule author who must not read them.
    ``given``: labels to use instead of ``labels_path``'s (the writers' keys, :func:`writer_labels`)."""
    held = {r["id"] for r in read_rows(split) if r["split"] == "held_back"}
    labels = [r for r in (given if given is not None else read_rows(labels_path)) if r["row_id"] in held]
    by_class: dict[str, set[str]] = defaultdict(set)
    for r in labels:
        by_class[r["class"].strip()].add(r["row_id"])
    unknown = set(by_class) - set(HELD_BACK_CLASSES) - {"clean"}
    read = {r["row_id"] for r in labels}
    flags = validate(full)
    tuned = sorted((i for i in flags if i not in held), key=int)
    print(
        f"shaped the rules: {len(tuned)} rows of {full.name} (every row outside the held-back split: the "
        "development and calibration rows, the rows read before, and the rest); held back, never read by "
        f"the rules' author: {len(held)} rows ({split}), labelled by an independent reader: {len(read)} "
        f"({labels_path})"
    )
    if split.resolve() == SPLIT.resolve():
        print(
            "this split is worn: thirteen rounds of rule changes read its misses, and since 29 Nov every published "
            f"row is a tuning row, so these are tuning figures; the held-back rows now are {_shown(FRESH)}"
        )
    elif split.parent.name in WORN:
        print(
            f"this set is worn: {WORN[split.parent.name]}, so these are tuning figures; held back now: {_shown(FRESH)}"
        )
    if unknown:
        print(f"classes not in the list (ignored): {', '.join(sorted(unknown))}")
    errors: dict[str, set[str]] = defaultdict(set)
    for row_id in held & read:
        for rule, severity, _ in flags.get(row_id, []):
            if severity == "error":
                errors[rule].add(row_id)
    owner: dict[str, list[str]] = defaultdict(list)
    for name, rules in HELD_BACK_CLASSES.items():
        for rule in rules:
            owner[rule].append(name)
    ok = True
    print("\nprecision per error rule on the held-back rows (a flagged row is right when the reader gave it the class)")
    print(f"{'rule':<18}{'class':<18}{'rows':>5}{'right':>6}{'precision':>10}  95% Wilson   wrong rows")
    for rule in sorted(errors, key=lambda r: -len(errors[r])):
        rows = errors[rule]
        if rule in RAW_CHECKED:
            print(f"{rule:<18}{'(raw cells)':<18}{len(rows):>5}  checked on every row below")
            continue
        names = owner.get(rule, [])
        name = "|".join(names)
        right = {i for i in rows if any(i in by_class.get(n, set()) for n in names)}
        wrong = sorted(rows - right, key=int)
        p = len(right) / len(rows)
        if len(rows) >= MIN_FLAGS:
            ok &= p >= HELD_BACK_PRECISION
        print(
            f"{rule:<18}{name or '-':<18}{len(rows):>5}{len(right):>6}"
            f"{_interval(len(right), len(rows))}  {' '.join(wrong) if show_rows else len(wrong)}"
        )
    print("\nrecall by the matching rule (as an error) per labelled class")
    print(f"{'class':<18}{'rows':>5}{'found':>6}{'recall':>9}  95% Wilson   missed rows")
    for name, rules in HELD_BACK_CLASSES.items():
        rows = by_class.get(name, set())
        if not rows:
            print(f"{name:<18}{0:>5}")
            continue
        found = {i for i in rows if any(i in errors[r] for r in rules)}
        missed = sorted(rows - found, key=int)
        if len(rows) >= MIN_ROWS:
            ok &= len(found) / len(rows) >= HELD_BACK_RECALL
        shown = " ".join(missed) if show_rows else str(len(missed))
        print(f"{name:<18}{len(rows):>5}{len(found):>6}{_interval(len(found), len(rows))}  {shown}")
    clean_rows = by_class.get("clean", set())
    with_error = sorted((i for i in clean_rows if any(i in errors[r] for r in errors if r not in RAW_CHECKED)), key=int)
    print(
        f"\nrows labelled clean: {len(clean_rows)}; with an error of a reader-checked rule: {len(with_error)} "
        + (" ".join(with_error) if show_rows else "")
    )
    ok &= raw_checks(full, flags, held, show_rows)
    print(
        f"\nheld-back targets (precision >= {HELD_BACK_PRECISION:.0%} per rule with >= {MIN_FLAGS} flagged rows, "
        f"recall >= {HELD_BACK_RECALL:.0%} per class with >= {MIN_ROWS} rows): {'yes' if ok else 'NO'}"
    )
    return ok


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


def raw_checks(
    path: Path, flags: dict[str, list[tuple[str, str, str]]], only: set[str] | None = None, show_rows: bool = True
) -> bool:
    """Identical plans and stray "0:" or "0." numbering on every row (of ``only``), by the raw cells (no code
    shared with the rules)."""
    with path.open(encoding="utf-8-sig") as fh:
        rows = [r for r in csv.DictReader(fh) if only is None or r["id"] in only]
    print(f"\nby the raw cells ({len(rows)} rows)")
    print(f"{'check':<16}{'rows':>8}{'found':>10}{'flagged without':>16}  missed")
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
        flagged = {r["id"] for r in rows if any(ru == rule and s == "error" for ru, s, _ in flags.get(r["id"], []))}
        extra = len(flagged - set(carriers)) if rule == "plan_divergence" else 0
        print(f"{name:<16}{len(carriers):>8}{share:>10.0%}{extra:>16}  {' '.join(missed[:12]) if show_rows else ''}")
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


#: What a fresh set's figures may be counted against: its readers' labels (the measure), a second reading
#: where there is one, or what its writers meant to put in (a row without a key is clean).
AGAINST = {"readers": "labels.csv", "second": "labels_second_reading.csv", "writers": "writer_keys.csv"}


def writer_labels(folder: Path) -> list[dict[str, str]]:
    """The writers' keys of a fresh set as labels: each keyed defect, and ``clean`` for every row with none.
    Where readers and writers differ the two counts show it (a reader may add a defect no writer meant)."""
    keys = [{"row_id": r["row_id"], "class": r["class"]} for r in read_rows(folder / "writer_keys.csv")]
    keyed = {r["row_id"] for r in keys}
    rows = read_rows(folder / "rows.csv")
    return keys + [{"row_id": r["id"], "class": "clean"} for r in rows if r["id"] not in keyed]


def pooled(folders: list[Path], labels: str, into: Path) -> Path:
    """One folder of several sets' rows, splits, labels and keys, so that their figures are counted together:
    a class with ten labelled rows a set moves by a tenth with each row, a pool of sets less."""
    names = ["rows.csv", "split.csv", labels] + (["writer_keys.csv"] if labels != "writer_keys.csv" else [])
    for name in names:
        tables = [read_rows(f / name) for f in folders if (f / name).is_file()]
        if len(tables) < len(folders):
            continue
        ids = [r.get("id") or r.get("row_id") for t in tables for r in t if name in ("rows.csv", "split.csv")]
        if len(ids) != len(set(ids)):
            raise ValueError(f"{name}: the sets share row ids, so they cannot be pooled")
        fields = list(dict.fromkeys(k for t in tables for k in (t[0] if t else {})))
        with (into / name).open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=fields)
            writer.writeheader()
            for table in tables:
                writer.writerows(table)
    return into


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--set",
        type=Path,
        action="append",
        help="a folder of rows.csv, split.csv and labels.csv; given more than once, the folders are measured as one "
        f"pool (default without --full: {', '.join(f.name for f in FRESH)})",
    )
    parser.add_argument("--full", type=Path, help="the full published AmbiK CSV (1000 rows), with the old split")
    parser.add_argument("--split", type=Path, default=SPLIT)
    parser.add_argument("--heldback-labels", type=Path, default=HELD_BACK_LABELS)
    parser.add_argument("--history", action="store_true", help="also the earlier figures on the development halves")
    parser.add_argument(
        "--counts-only", action="store_true", help="held-back figures without the ids of wrong and missed rows"
    )
    parser.add_argument("--dev", type=Path, default=SHARED / "ambik_dev_400.csv")
    parser.add_argument("--calib", type=Path, default=SHARED / "ambik_calib_100.csv")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument(
        "--against",
        choices=sorted(AGAINST),
        default="readers",
        help="with a fresh set: count against its readers' labels (the measure), a second reading or the writers' keys",
    )
    args = parser.parse_args()
    if args.set is not None or (args.full is None and not args.history):
        folders = args.set or list(FRESH)
        labels = AGAINST[args.against]
        for folder in folders:
            missing = [n for n in ("rows.csv", "split.csv", labels) if not (folder / n).is_file()]
            if missing:
                parser.error(f"--set {folder}: missing {', '.join(missing)}")
        worn = [f"{f.name}: {WORN[f.name]}" for f in folders if f.name in WORN]
        if len(folders) > 1 and worn:
            print(f"worn sets in the pool ({'; '.join(worn)}), so these are partly tuning figures")
        with tempfile.TemporaryDirectory() as tmp:
            try:
                folder = folders[0] if len(folders) == 1 else pooled(folders, labels, Path(tmp))
            except ValueError as e:
                parser.error(f"--set: {e}")
            given = writer_labels(folder) if args.against == "writers" else None
            held_back(folder / "rows.csv", folder / "split.csv", folder / labels, not args.counts_only, given)
        return
    if args.full is None or not args.full.is_file():
        parser.error(f"--full: the full AmbiK CSV is needed ({args.full or 'not given'})")
    held_back(args.full, args.split, args.heldback_labels, show_rows=not args.counts_only)
    if not args.history:
        return
    labels = read_rows(args.labels / "ambik_flags.csv")
    defects = read_rows(args.labels / "ambik_defects.csv")
    flags = {"dev": validate(args.dev), "calib": validate(args.calib)}
    print(f"\n{args.dev}: {len(flags['dev'])} rows; {args.calib}: {len(flags['calib'])} rows; labels: {args.labels}")
    ok = precision(flags["dev"], labels, "dev")
    ok &= recall(flags, defects)
    ok &= raw_checks(args.dev, flags["dev"])
    ok &= clean(flags, defects)
    precision_fresh(validate(args.full), labels)
    print(
        f"\nheld-back precision >= {TARGET_PRECISION:.0%} per error rule, recall >= {TARGET_RECALL:.0%} per class "
        f"(as error), clean rows without errors: {'yes' if ok else 'NO'}"
    )


if __name__ == "__main__":
    main()
