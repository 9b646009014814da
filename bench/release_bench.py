"""Release throughput: time to release 100,000 items with every format and gate (schema per row, Great
Expectations suite, Parquet/JSONL/AmbiK CSV, splits, card, changelog, checksums) and to verify them.

Items are offline pairs repeated under new ids. Prints figures and the ratio to the 60 s target.
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

    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import default_mix, type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.release.verify import verify_release
    from ambiforge.release.writer import ReleaseOptions, release
    from ambiforge.storage import write_items_jsonl

    gen = OfflineGenerator(load_catalog(), 1, "bench")
    base = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(args.distinct, default_mix(), 1))]
    items = [base[k % len(base)].model_copy(update={"id": f"{base[k % len(base)].id}-{k}"}) for k in range(args.items)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_items_jsonl(root / "raw" / "bench" / "items.jsonl", items)
        opts = ReleaseOptions(
            version="1.0.0",
            run_ids=["bench"],
            raw=root / "raw",
            curated=root / "curated",
            annotation=root / "annotation",
            allow_unreviewed=True,
            target_mix=default_mix(),
        )
        t = time.perf_counter()
        folder = release(opts)
        release_s = time.perf_counter() - t
        t = time.perf_counter()
        verify_release(folder)
        verify_s = time.perf_counter() - t
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    print(
        f"release {args.items:,} items : {release_s:.1f} s ({args.items / release_s:,.0f} items/s), {size / 1e6:.0f} MB"
    )
    print(f"verify                  : {verify_s:.1f} s")
    print(
        f"target                  : 100,000 items in 60 s -> "
        f"ratio {release_s / 60 * 100_000 / args.items:.2f} (<= 1 meets it)"
    )


if __name__ == "__main__":
    main()
