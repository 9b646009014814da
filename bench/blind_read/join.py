"""Join a blind read's labels with its key and print, per source, the share of rows with a certain defect
and with any fault, the defect classes named, and the notes of the generated rows marked certain.

Usage: python bench/blind_read/join.py --labels LABELS.csv --key KEY.csv
LABELS.csv has the columns row, certain_defect (0/1), any_fault (0/1), classes (space or ; separated), note.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from pathlib import Path


def _flag(value: str) -> bool:
    return value.strip().lower() in ("1", "yes", "y", "true", "x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--key", type=Path, required=True)
    args = parser.parse_args()
    for path in (args.labels, args.key):
        if not path.is_file():
            print(f"{path}: not found", file=sys.stderr)
            sys.exit(2)
    with args.key.open(newline="", encoding="utf-8") as fh:
        source = {r["row"]: r["source"] for r in csv.DictReader(fh)}
    with args.labels.open(newline="", encoding="utf-8") as fh:
        labels = list(csv.DictReader(fh))
    missing = [r["row"] for r in labels if r.get("row") not in source]
    if missing:
        print(f"{args.labels}: row {missing[0]} is not in the key", file=sys.stderr)
        sys.exit(2)
    for name in sorted(set(source.values())):
        rows = [r for r in labels if source[r["row"]] == name]
        if not rows:
            continue
        certain = sum(_flag(r.get("certain_defect", "")) for r in rows)
        fault = sum(_flag(r.get("any_fault", "")) for r in rows)
        classes = Counter(c for r in rows for c in re.split(r"[;,\s]+", r.get("classes", "")) if c)
        print(
            f"{name}: {len(rows)} rows read, certain defect {certain} ({certain / len(rows):.0%}), "
            f"any fault {fault} ({fault / len(rows):.0%})"
        )
        for cls, n in classes.most_common():
            print(f"  {cls}: {n}")
    worst = [r for r in labels if source[r["row"]] == "generated" and _flag(r.get("certain_defect", ""))]
    for r in worst:
        print(f"generated {r['row']} (certain): {r.get('note', '').strip()}")


if __name__ == "__main__":
    main()
