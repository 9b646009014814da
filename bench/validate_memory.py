"""Peak memory of a build's validate stage alone, on the first N generated pairs of an existing run (issue 41:
the stage must hold no state that grows with the pairs beyond compact indexes). Much faster than
``bench/build_memory.py`` at the same size: generation is not redone.

The run folder (``--run``, e.g. one a ``build_memory.py`` run left, or any offline build's) gives
``generated.jsonl`` and ``options.json``; its first ``--pairs`` lines are copied into a temporary run
(deleted afterwards) whose validate stage runs in this process, as a local build runs it. Printed: the
process's resident memory every ``--every`` items of the rules pass and of the report pass, then the peak
of this process and of the largest rule worker (``ru_maxrss``), with wall and CPU seconds.

``--parallel-from K`` sends the rules to worker processes from K items on instead of the build's 20,000, so
a run of a few thousand pairs shows the memory of the worker path (the parent reading raw lines while the
workers parse and judge them).

``--trace FROM TO`` says what grows in this process: in each pass, ``tracemalloc`` starts at item FROM and
at item TO prints the allocations made since that are still held, largest first, grouped by traceback (the
rule workers are not traced: run with a ``--parallel-from`` above ``--pairs`` to see the rules' own state).

Usage: python bench/validate_memory.py --run RUN_DIR --pairs 12000 [--parallel-from 1000] [--every 1000]
       [--trace 10000 30000]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import tempfile
import time
import tracemalloc
from pathlib import Path


def status_mb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    return 0


def print_growth(name: str, start: int, end: int, top: int = 15) -> None:
    """The allocations this process made between items ``start`` and ``end`` of a pass and still holds."""
    snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    tracemalloc.stop()
    stats = snapshot.statistics("traceback")
    total = sum(s.size for s in stats)
    print(f"  {name} pass, items {start} to {end}: {total / 2**20:.1f} MB allocated and still held", flush=True)
    for stat in stats[:top]:
        print(f"    {stat.size / 2**20:7.2f} MB in {stat.count} blocks ({stat.size / (end - start):.0f} B an item)")
        for line in stat.traceback.format(most_recent_first=True):
            print(f"      {line.strip()}")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--run", type=Path, required=True, help="a run folder with generated.jsonl and options.json")
    parser.add_argument("--pairs", type=int, required=True)
    parser.add_argument("--parallel-from", type=int, default=None, help="items before the rules go to workers")
    parser.add_argument("--every", type=int, default=1000, help="items between memory lines")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--frames", type=int, default=6, help="frames kept of each traceback")
    parser.add_argument("--trace", type=int, nargs=2, metavar=("FROM", "TO"), help="items between two snapshots")
    args = parser.parse_args()

    from ambiforge.config.build import BuildOptions
    from ambiforge.engine import pipeline
    from ambiforge.engine.local import LocalExecutor
    from ambiforge.validation import report, stream
    from ambiforge.validation.rules import duplicates

    out = Path(tempfile.mkdtemp(prefix="ambiforge-validate-mem-", dir=args.dir))
    try:
        run = out / "mem"
        run.mkdir()
        with (args.run / "generated.jsonl").open("rb") as src, (run / "generated.jsonl").open("wb") as dst:
            for n, line in enumerate(src):
                if n >= args.pairs:
                    break
                dst.write(line)
        state = {"stages": {"generate": "done"}, "stage": "generate", "status": "done"}
        (run / "state.json").write_text(json.dumps(state))
        options = json.loads((args.run / "options.json").read_text())["options"]
        options.update(pairs=args.pairs, run_id="mem", out=str(out))
        if args.parallel_from is not None:
            stream.PARALLEL_FROM = args.parallel_from

        started = time.perf_counter()
        counts = {"rules": 0, "report": 0}

        def counted(name: str, method: object) -> object:
            def call(self: object, *a: object) -> object:
                counts[name] += 1
                if counts[name] % args.every == 0:
                    minutes = (time.perf_counter() - started) / 60
                    rss, hwm = status_mb("VmRSS"), status_mb("VmHWM")
                    print(
                        f"  {name} pass, {counts[name]} items, {minutes:.0f} min: {rss} MB now, {hwm} MB peak",
                        flush=True,
                    )
                if args.trace and counts[name] == args.trace[0]:
                    tracemalloc.start(args.frames)
                if args.trace and counts[name] == args.trace[1]:
                    print_growth(name, *args.trace)
                return method(self, *a)  # type: ignore[operator]

            return call

        # Each item of the rules pass goes through the duplicate index, each of the report pass through the report.
        duplicates.DuplicateIndex.add = counted("rules", duplicates.DuplicateIndex.add)  # type: ignore[method-assign]
        report.ReportBuilder.add = counted("report", report.ReportBuilder.add)  # type: ignore[method-assign]
        with LocalExecutor() as executor:
            pipeline.validate(BuildOptions.model_validate(options), {}, executor)
        wall = time.perf_counter() - started
        me = resource.getrusage(resource.RUSAGE_SELF)
        workers = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime
        peak, worker = me.ru_maxrss / 1024**2, workers.ru_maxrss / 1024**2
        print(f"validate stage of {args.pairs} pairs: peak RSS {peak:.2f} GB (this process), {worker:.2f} GB", end="")
        print(f" (largest rule worker, 0 when none ran); wall {wall:.0f} s, CPU {cpu:.0f} s")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":  # the rule workers are spawned: they import this module, and must not run it
    main()
