"""Draw a blind read: rows of a fresh seeded offline build mixed with published AmbiK rows, under row ids.

The generated rows come from the three instruction-level types (preferences, common sense, safety) in the
default mix, made as a build makes them (one generator, pairs in order, no repeated task); the AmbiK rows
from the shared dev CSV. Both are written in AmbiK's columns, shuffled, each under a fresh row id; which row
came from where is written apart (the key), so the reader sees only ``rows.csv`` and ``README.md``.

Usage: python bench/blind_read/draw.py --seed N [--generated 60] [--ambik 30] [--out DIR]
       [--ambik-csv ../shared/data/ambik_dev_400.csv]
Writes DIR/rows.csv, DIR/key.csv and copies README.md next to the rows.
"""

from __future__ import annotations

import argparse
import csv
import random
import shutil
from pathlib import Path

from ambiforge.ambik.csv_io import AMBIK_COLUMNS

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
#: The columns the reader sees: AmbiK's, less the id (each row gets a fresh one).
COLUMNS = tuple(c for c in AMBIK_COLUMNS if c != "id")
TYPES = ("preferences", "common_sense_knowledge", "safety")


def generated_rows(seed: int, n: int) -> list[dict[str, str]]:
    from ambiforge.ambiguity import default_mix
    from ambiforge.ambik.csv_io import ambik_rows
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.textnorm import signature

    catalog = load_catalog()
    mix = {t: s for t, s in default_mix().items() if t in TYPES}
    gen = OfflineGenerator(catalog, seed, f"blind-read-{seed}")
    taken: set[str] = set()
    items = []
    for index, kind in enumerate(type_sequence(n, mix, seed)):
        item, _ = gen.generate(index, kind, taken)
        taken.add(signature(item.unambiguous_direct))
        items.append(item)
    columns, rows = ambik_rows(items)
    return [{c: v for c, v in zip(columns, row, strict=True) if c in COLUMNS} for row in rows]


def ambik_rows_of(path: Path, n: int, rng: random.Random) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("ambiguity_type") in TYPES]
    picked = rng.sample(rows, min(n, len(rows)))
    return [{c: r.get(c, "") for c in COLUMNS} for r in picked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True, help="a seed no earlier read used")
    parser.add_argument("--generated", type=int, default=60)
    parser.add_argument("--ambik", type=int, default=30)
    parser.add_argument("--ambik-csv", type=Path, default=ROOT.parent / "shared" / "data" / "ambik_dev_400.csv")
    parser.add_argument("--out", type=Path, default=None, help="default: bench/labels/blind-read-<seed>/")
    args = parser.parse_args()
    if not args.ambik_csv.is_file():
        parser.exit(2, f"--ambik-csv: {args.ambik_csv} not found\n")
    out = args.out or ROOT / "bench" / "labels" / f"blind-read-{args.seed}"
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"blind-read:{args.seed}")
    rows = [("generated", r) for r in generated_rows(args.seed, args.generated)]
    rows += [("ambik", r) for r in ambik_rows_of(args.ambik_csv, args.ambik, rng)]
    rng.shuffle(rows)
    with (out / "rows.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["row", *COLUMNS])
        writer.writeheader()
        for i, (_, row) in enumerate(rows, 1):
            writer.writerow({"row": f"r{i:03d}", **row})
    with (out / "key.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["row", "source", "ambiguity_type"])
        for i, (source, row) in enumerate(rows, 1):
            writer.writerow([f"r{i:03d}", source, row["ambiguity_type"]])
    shutil.copyfile(HERE / "README.md", out / "README.md")
    print(f"{len(rows)} rows ({args.generated} generated, seed {args.seed}; {args.ambik} AmbiK) -> {out}")


if __name__ == "__main__":
    main()
