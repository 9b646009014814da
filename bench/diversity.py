"""Diversity of offline tasks next to a reference dataset (the AmbiK calibration split by default).

Generates as many offline pairs as the reference has rows (distinct-n depends on sample size), prints the
figures side by side and the issue-19 targets with whether they hold. Prints, never asserts.
Usage: python bench/diversity.py [--reference FILE.csv] [--seed N] [--pairs N]
"""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_REFERENCE = str(Path(__file__).resolve().parents[2] / "shared" / "data" / "ambik_calib_100.csv")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", default=DEFAULT_REFERENCE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=0, help="offline pairs (default: the reference's size)")
    args = parser.parse_args()

    from ambiforge import diversity
    from ambiforge.ambiguity import default_mix
    from ambiforge.ambik.csv_io import read_ambik_csv
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator

    reference = read_ambik_csv(args.reference)
    n = args.pairs or len(reference)
    gen = OfflineGenerator(load_catalog(), args.seed, "bench")
    ours = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(n, default_mix(), args.seed))]
    comparison = diversity.compare(ours, reference, seed=args.seed)
    print(f"{comparison['n']} items each; reference {args.reference}")
    print(f"{'':42} {'offline':>18} {'reference':>18}")
    for label, a, b in diversity.table(comparison):
        print(f"{label:42} {a:>18} {b:>18}")
    o, r = comparison["ours"], comparison["reference"]
    eoa3 = o["end_of_ambiguity"]["3+"]
    checks = [
        ("words per task >= 18", o["words_per_task"] >= 18),
        ("vocabulary within 20% of the reference", abs(o["vocabulary"] - r["vocabulary"]) <= 0.2 * r["vocabulary"]),
        ("distinct 3-grams within 20%", abs(o["distinct_3"] - r["distinct_3"]) <= 0.2 * r["distinct_3"]),
        ("mean plan steps >= 5", o["plan_steps_mean"] >= 5),
        ("end_of_ambiguity at step 3 or later >= 20%", eoa3 >= 0.2),
        ("no paraphrase pattern > 5% of items", o["paraphrase_top_share"] <= 0.05),
    ]
    print()
    for label, ok in checks:
        print(f"{'holds ' if ok else 'FAILS '} {label}")
    print(f"most common paraphrase pattern: {o['paraphrase_top_pattern']!r}")


if __name__ == "__main__":
    main()
