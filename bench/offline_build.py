"""Offline generate-stage cost per pair, from 1k to 50k pairs: is the cost linear in the work?

For each size it runs the generate stage's functions as the build does (batches of ``--batch-size``, each
resolved against the tasks of the batches before it, gated on the schema and written to a file as it is
done, so the stage holds one batch) and prints each step's seconds and the ms per pair, with the ratio to
the smallest size's ms per pair (the ideal is 1.0: a linear stage). It also prints the re-asks duplicate
resolution made (``in batch``: those already made inside a batch) and the draws (sampled scenes) the
generator made per pair: once the templates' space of distinct tasks fills up, each regenerated pair needs
more draws. That is the templates' limit, not the scheduling's, and the figures say which one it is.

``--flow`` adds one whole build (Prefect flow: generate, validate with reports, write) at the smallest size,
labelled as such: it includes validation and reports, so it is not a generation figure.

Prints figures, never asserts: speed targets are read by people, not enforced by the test suite.
Usage: python bench/offline_build.py [--sizes 1000 5000 10000 50000 | --pairs N] [--batch-size 200] [--flow]
       [--seed N] [--type-mix multiplicity=0.25,absence=0.25,reference=0.25,observation=0.25]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")


def stage(pairs: int, batch_size: int, seed: int = 1, type_mix: dict[str, float] | None = None) -> dict[str, Any]:
    from ambiforge.atomic import jsonl_writer
    from ambiforge.config.build import BuildOptions
    from ambiforge.engine.checkpoints import outcome_to_record
    from ambiforge.generation.run import (
        DuplicateResolver,
        batches,
        generate_batch,
        make_generator,
        plan_pairs,
        regenerator,
        schema_checked,
    )

    options = BuildOptions(run_id="bench", pairs=pairs, seed=seed, out=tempfile.gettempdir())
    if type_mix:
        options = options.model_copy(update={"type_mix": type_mix})
    generator = make_generator(options)
    draws = [0]
    draw = getattr(generator, "draw", None)
    if draw is not None:  # count sampled scenes (the offline generator's unit of work)

        def counted(*args: Any) -> Any:
            draws[0] += 1
            return draw(*args)

        generator.draw = counted  # type: ignore[attr-defined]
    asks = [0]
    generate_outcome = generator.generate_outcome

    def counted_outcome(index: int, kind: str, taken: Any = None, first_attempt: int = 0) -> Any:
        asks[0] += first_attempt > 0  # a re-ask after a duplicate (or its continuation)
        return generate_outcome(index, kind, taken, first_attempt)

    generator.generate_outcome = counted_outcome  # type: ignore[method-assign]
    specs = plan_pairs(options)
    resolver = DuplicateResolver(regenerator(generator))
    seconds = dict.fromkeys(("batches", "resolve", "gate", "write"), 0.0)
    in_batch = rejected = 0
    cpu = time.process_time()
    t0 = time.perf_counter()
    # the stage writes each batch as it is done
    with tempfile.TemporaryDirectory() as folder, jsonl_writer(Path(folder) / "generated.jsonl") as write:
        for batch in batches(specs, batch_size):
            t = time.perf_counter()
            outcomes = generate_batch(generator, batch)
            in_batch += sum(1 for o in outcomes if "regenerated_from_attempt" in o.meta)
            seconds["batches"] += time.perf_counter() - t
            t = time.perf_counter()
            outcomes = resolver.resolve(outcomes)
            seconds["resolve"] += time.perf_counter() - t
            for resolved in outcomes:  # one at a time, as the stage does: each record is written at once
                t = time.perf_counter()
                outcome, record = schema_checked(resolved)
                t1 = time.perf_counter()
                write(outcome_to_record(outcome, record))
                rejected += outcome.stage is not None
                seconds["gate"] += t1 - t
                seconds["write"] += time.perf_counter() - t1
    return {
        "cpu": time.process_time() - cpu,
        **seconds,
        "total": time.perf_counter() - t0,
        "regenerated": asks[0],
        "in_batch": in_batch,
        "rejected": rejected,
        "draws": draws[0],
    }


def whole_build(pairs: int) -> tuple[float, int]:
    from prefect.testing.utilities import prefect_test_harness

    from ambiforge.config.build import BuildOptions
    from flows.build import build_flow

    with prefect_test_harness(server_startup_timeout=120), tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        summary = build_flow(BuildOptions(run_id="bench", pairs=pairs, seed=1, out=out))
        return time.perf_counter() - started, summary["items_written"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000, 50000])
    parser.add_argument("--batch-size", type=int, default=200)
    parser.add_argument("--pairs", type=int, help="one size only (instead of --sizes)")
    parser.add_argument("--flow", action="store_true", help="also one whole build at the smallest size")
    parser.add_argument("--no-flow", action="store_true", help="no whole build (the default; kept for old scripts)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--type-mix", default=None, help="e.g. multiplicity=0.25,absence=0.25,reference=0.25,observation=0.25"
    )
    args = parser.parse_args()
    mix = {k: float(v) for k, v in (p.split("=") for p in args.type_mix.split(","))} if args.type_mix else None
    if args.pairs:
        args.sizes = [args.pairs]
    print(f"offline generate stage (batches of {args.batch_size}: generate, resolve duplicates, schema gate, write)")
    print(f"load average {os.getloadavg()[0]:.1f} at the start (2 cores shared: CPU time is inflated under load)")
    print("(cpu ms/pair: process CPU time, steady on a shared machine; ms/draw: cost per sampled scene)")
    head = (
        f"{'pairs':>7} {'batches s':>9} {'resolve s':>9} {'gate s':>7} {'write s':>7} {'wall s':>7} {'cpu ms/pair':>11}"
    )
    print(f"{head} {'vs first':>8} {'re-asks':>7} {'in batch':>8} {'rejected':>8} {'draws/pair':>10} {'ms/draw':>7}")
    first = None
    for pairs in args.sizes:
        r = stage(pairs, args.batch_size, args.seed, mix)
        ms = r["cpu"] * 1000 / pairs
        first = first or ms
        per_draw = r["cpu"] * 1000 / r["draws"] if r["draws"] else float("nan")
        print(
            f"{pairs:>7} {r['batches']:>9.2f} {r['resolve']:>9.2f} {r['gate']:>7.2f} {r['write']:>7.2f}"
            f" {r['total']:>7.2f} {ms:>11.2f} {ms / first:>7.2f}x {r['regenerated']:>7} {r['in_batch']:>8}"
            f" {r['rejected']:>8} {r['draws'] / pairs:>10.2f} {per_draw:>7.2f} (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )
    if args.flow:
        pairs = min(args.sizes)
        seconds, items = whole_build(pairs)
        print(
            f"whole build (flow: generate, validate with reports, write; not a generation figure): "
            f"{pairs} pairs -> {items} items in {seconds:.2f} s = {seconds * 1000 / pairs:.2f} ms/pair"
        )


if __name__ == "__main__":
    main()
