"""Offline build throughput: pairs per second for the generator alone and for the whole build flow.

Prints figures, never asserts: speed targets are read by people, not enforced by the test suite.
Usage: python bench/offline_build.py [--pairs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument(
        "--no-flow", action="store_true", help="only the generator and duplicate resolution (no Prefect flow)"
    )
    args = parser.parse_args()

    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import default_mix, type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.generation.run import BuildOptions

    catalog = load_catalog()
    gen = OfflineGenerator(catalog, 1, "bench")
    types = type_sequence(args.pairs, default_mix(), 1)
    t = time.perf_counter()
    for i, ty in enumerate(types):
        gen.generate(i, ty)
    gen_s = time.perf_counter() - t
    print(f"generator only : {args.pairs} pairs in {gen_s:.2f} s = {args.pairs / gen_s:,.0f} pairs/s")

    from ambiforge.generation.run import generate_batch, plan_pairs, regenerator, resolve_duplicates

    t = time.perf_counter()
    specs = plan_pairs(BuildOptions(run_id="bench", pairs=args.pairs, seed=1, out="unused"))
    resolved = resolve_duplicates(generate_batch(gen, specs), regenerator(gen))
    items = sum(1 for o in resolved if o.item is not None and o.stage is None)
    print(
        f"items          : {items} of {args.pairs} pairs ({items / args.pairs:.2%}) after duplicate "
        f"resolution, {time.perf_counter() - t:.2f} s"
    )
    if args.no_flow:
        return

    from prefect.testing.utilities import prefect_test_harness

    from flows.build import build_flow

    with prefect_test_harness(server_startup_timeout=120), tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        summary = build_flow(BuildOptions(run_id="bench", pairs=args.pairs, seed=1, out=out))
        flow_s = time.perf_counter() - t
    print(
        f"build flow     : {summary['items_written']} items in {flow_s:.2f} s = "
        f"{summary['items_written'] / flow_s:,.0f} pairs/s (generate, dedupe, schema gate, JSONL+Parquet)"
    )
    print(f"flow/generator : {flow_s / gen_s:.2f}x the generator's time")


if __name__ == "__main__":
    main()
