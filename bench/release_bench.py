"""Release throughput: time to release 100,000 items with every format and gate (schema per row, Great
Expectations suite, Parquet/JSONL/AmbiK CSV, splits, card, changelog, checksums) and to verify them.

Items are offline pairs repeated under new ids. Prints figures, the ratio to the 60 s target, and the
release's size on disk against its data.parquet (target: at most 3x; the scene graphs are in the Parquet
files only, docs/review-and-release.md).
Usage: python bench/release_bench.py [--items N] [--distinct D]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


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
        t = time.perf_counter()
        folder = release(opts)
        release_s = time.perf_counter() - t
        t = time.perf_counter()
        verify_release(folder)
        verify_s = time.perf_counter() - t
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        parquet = (folder / "data.parquet").stat().st_size
        jsonl = (folder / "data.jsonl").stat().st_size
    print(
        f"release {args.items:,} items : {release_s:.1f} s ({args.items / release_s:,.0f} items/s), {size / 1e6:.0f} MB"
    )
    print(f"verify                  : {verify_s:.1f} s ({args.items / verify_s:,.0f} items/s)")
    print(
        f"size on disk            : {size / 1e6:.1f} MB = {size / parquet:.2f}x data.parquet ({parquet / 1e6:.1f} MB; "
        f"data.jsonl {jsonl / 1e6:.1f} MB; target <= 3x)"
    )
    print(
        f"target                  : 100,000 items in 60 s -> "
        f"ratio {release_s / 60 * 100_000 / args.items:.2f} (<= 1 meets it)"
    )


if __name__ == "__main__":
    main()
