"""Release throughput: time to release 100,000 items with every format and gate (schema per row, Great
Expectations suite, Parquet/JSONL/AmbiK CSV, splits, card, changelog, checksums) and to verify them.

Items are offline pairs repeated under new ids. Prints wall and CPU seconds (the machine is shared: the load
average is printed beside them; the release's CPU is its own process's, and beside it that of the worker
process that runs its dataset expectations), the ratio to the 60 s target, and the release's size on disk against its
data.parquet, file by file (target: at most 3x; the scene graphs are in the Parquet files only, the JSON lines
gzip-compressed, the AmbiK CSV an export: docs/review-and-release.md).
Usage: python bench/release_bench.py [--items N] [--distinct D]
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path


def _children_cpu() -> float:
    """CPU seconds of this process's children that ended (the release's expectations worker)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=5_000)
    args = parser.parse_args()

    from verify_bench import write_bench_run  # the same run: offline pairs repeated under new ids

    from ambiforge.releases.verify import verify_release
    from ambiforge.releases.writer import release

    with tempfile.TemporaryDirectory() as tmp:
        opts = write_bench_run(Path(tmp), args.items, args.distinct)
        load = os.getloadavg()[0]
        t, c, w = time.perf_counter(), time.process_time(), _children_cpu()
        folder = release(opts)
        release_s, release_cpu = time.perf_counter() - t, time.process_time() - c
        worker_cpu = _children_cpu() - w
        load_release = os.getloadavg()[0]
        t, c = time.perf_counter(), time.process_time()
        verify_release(folder)
        verify_s, verify_cpu = time.perf_counter() - t, time.process_time() - c
        load_verify = os.getloadavg()[0]
        sizes = {p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*") if p.is_file()}
    size, parquet = sum(sizes.values()), sizes["data.parquet"]
    print(
        f"release {args.items:,} items : {release_s:.1f} s wall, {release_cpu:.1f} s CPU "
        f"+ {worker_cpu:.1f} s in its worker "
        f"({args.items / release_s:,.0f} items/s; load average {load:.1f} before, {load_release:.1f} after)"
    )
    print(
        f"verify                  : {verify_s:.1f} s wall, {verify_cpu:.1f} s CPU "
        f"({args.items / verify_s:,.0f} items/s; load average {load_verify:.1f} after)"
    )
    print(
        f"size on disk            : {size / 1e6:.1f} MB = {size / parquet:.2f}x data.parquet ({parquet / 1e6:.1f} MB; "
        "target <= 3x)"
    )
    for name, n in sorted(sizes.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {name:<28}: {n / 1e6:8.2f} MB = {n / parquet:.2f}x")
    print(
        f"target                  : 100,000 items in 60 s -> "
        f"ratio {release_s / 60 * 100_000 / args.items:.2f} (<= 1 meets it)"
    )


if __name__ == "__main__":
    main()
