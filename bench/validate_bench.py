"""Validation throughput: items per second for 100,000 items (all item rules, duplicates, expectations).

The items are offline pairs, repeated with new ids so that exact and reworded duplicates are part of the
work, as in a real audit. Prints figures and the ratio to the target (100,000 items in 60 s on 2 cores).
Usage: python bench/validate_bench.py [--items N] [--distinct D]
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=5_000)
    args = parser.parse_args()

    from ambiforge import ambiguity
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.validation import RuleContext, validate_items
    from ambiforge.validation.expectations import run_expectations

    mix = dict(ambiguity.default_mix())
    catalog = load_catalog()
    gen = OfflineGenerator(catalog, 1, "bench")
    t = time.perf_counter()
    base = [gen.generate(i, ty)[0] for i, ty in enumerate(type_sequence(args.distinct, mix, 1))]
    items = []
    for k in range(args.items):
        item = base[k % len(base)]
        copy = k // len(base)
        text = item.unambiguous_direct if copy % 2 == 0 else "Please, " + item.unambiguous_direct.lower()
        items.append(item.model_copy(update={"id": f"{item.id}-{k}", "unambiguous_direct": text}))
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    print(f"made {len(items):,} items ({len(base):,} distinct) in {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    judged = validate_items(items, RuleContext(catalog=catalog))
    rules_s = time.perf_counter() - t
    t = time.perf_counter()
    result = run_expectations(judged, target_mix=mix)
    gx_s = time.perf_counter() - t
    total = rules_s + gx_s
    dups = sum(1 for i in judged for f in i.validation.failed if "duplicate" in f.rule)  # type: ignore[union-attr]
    print(f"item rules + duplicates: {rules_s:.1f} s ({len(items) / rules_s:,.0f} items/s), {dups:,} duplicates found")
    print(f"dataset expectations   : {gx_s:.1f} s (success={result.success})")
    print(f"total                  : {total:.1f} s = {len(items) / total:,.0f} items/s")
    print(
        f"target                 : 100,000 items in 60 s -> "
        f"ratio {total / 60 * 100_000 / len(items):.2f} (<= 1 meets it)"
    )


if __name__ == "__main__":
    main()
