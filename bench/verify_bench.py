"""Verify throughput and memory: ``ambiforge verify`` over a release of N items (default 100,000).

Makes the release with the real writer (offline pairs repeated under new ids, as bench/release_bench.py),
then verifies it in a child process so the peak RSS printed is verify's alone; ``--folder`` verifies an
existing release instead. verify streams (a record batch per file), so its memory should grow only with the
few bytes kept per row (id, type, split), not with the rows' content: compare the figures at two sizes.
Usage: python bench/verify_bench.py [--items N] [--distinct D] [--folder curated/1.0.0]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# The child reports its own peak: RUSAGE_CHILDREN in the parent would also count the release's forks (a
# fork's RSS is its parent's at that moment).
CHILD = """
import json, resource, sys, time
from pathlib import Path
from ambiforge.releases.verify import verify_release
t, c = time.perf_counter(), time.process_time()
checked = verify_release(Path(sys.argv[1]))
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c, "peak_mb": peak_mb, **checked}))
"""


def write_bench_run(root: Path, n: int, distinct: int) -> Any:
    """Run ``bench`` under ``root/raw``: ``distinct`` offline pairs repeated under new ids up to ``n``;
    the options that release it (also used by bench/release_bench.py)."""
    from ambiforge.ambiguity import default_mix
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.releases.writer import ReleaseOptions
    from ambiforge.storage import write_items_jsonl

    gen = OfflineGenerator(load_catalog(), 1, "bench")
    base = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(distinct, default_mix(), 1))]
    items = (base[k % len(base)].model_copy(update={"id": f"{base[k % len(base)].id}-{k}"}) for k in range(n))
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
    return opts


def make_release(root: Path, n: int, distinct: int) -> Path:
    from ambiforge.releases.writer import release

    return release(write_bench_run(root, n, distinct))


def verify_in_child(folder: Path) -> tuple[dict[str, float], float, float]:
    """(verify's own figures, wall seconds of the child, peak RSS of the child in MB)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder)], env=env, capture_output=True, text=True, check=True
    ).stdout
    wall = time.perf_counter() - t
    figures = json.loads(out.strip().splitlines()[-1])
    return figures, wall, figures["peak_mb"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=5_000)
    parser.add_argument("--folder", type=Path, help="verify this release instead of making one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.folder:
            folder = args.folder
        else:
            t = time.perf_counter()
            folder = make_release(Path(tmp), args.items, args.distinct)
            print(f"release (setup)  : {time.perf_counter() - t:.1f} s")
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        figures, wall, peak_mb = verify_in_child(folder)
    rows = int(figures["rows"])
    print(
        f"verify {rows:,} rows : {figures['seconds']:.1f} s wall, {figures['cpu']:.1f} s CPU "
        f"({rows / figures['seconds']:,.0f} rows/s), {wall:.1f} s with start-up, release {size / 1e6:.0f} MB "
        f"(load average {os.getloadavg()[0]:.1f})"
    )
    print(f"peak RSS          : {peak_mb:,.0f} MB (target: 1,000,000 items under 4,096 MB)")


if __name__ == "__main__":
    main()
