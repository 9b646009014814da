"""Peak memory of releasing, verifying and validating many items (issue 20: a million-item release and its
verify under 4 GB).

Items are offline pairs, accepted in review, repeated under new ids and written straight to
``raw/bench/items.jsonl`` (bytes, no model objects), so making a million costs seconds. Each step runs in
its own child process; its peak resident memory is that child's ``ru_maxrss`` (read by a one-line runner
that starts it, so no other process is counted) and, beside it, the peak of its whole process tree
(sampled with psutil: validate's item rules run in worker processes from 20,000 items on):

- release: :func:`ambiforge.releases.writer.release` (every gate and file);
- verify: the CLI, ``ambiforge verify <release>``;
- validate: the CLI, ``ambiforge validate items.jsonl`` (rules, duplicates, expectations, report).

Usage: python bench/memory_bench.py [--items 100000 1000000] [--validate 100000] [--distinct 5000]
[--dir /tmp]. Data goes to a temporary folder under /tmp, deleted at the end (check ``df -h /tmp``: a
million items is about 9 GB of input and 20 GB of release).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_GB = 4.0

#: Runs argv[1:] and prints its peak RSS in KiB: RUSAGE_CHILDREN of a process whose only child it is.
RUNNER = (
    "import resource, subprocess, sys; "
    "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
    "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)

RELEASE = """
import sys
from pathlib import Path
from ambiforge.releases.writer import ReleaseOptions, release
root = Path(sys.argv[1])
release(ReleaseOptions(version="1.0.0", run_ids=["bench"], raw=root / "raw", curated=root / "curated",
                       annotation=root / "annotation", target_mix=None))
"""


def peak(cmd: list[str], ok: tuple[str, ...] = ("0",)) -> tuple[float, float, float]:
    """(peak RSS of the largest process in GB, peak of the whole process tree sampled every 0.2 s in GB,
    wall seconds) of ``cmd`` in a child process; exits when it fails (an exit code not in ``ok``: validate
    exits 1 when items fail a rule, which repeated pairs do as duplicates). The tree figure counts
    validate's worker processes; without psutil it is 0."""
    t = time.perf_counter()
    runner = subprocess.Popen([sys.executable, "-c", RUNNER, *cmd], stdout=subprocess.PIPE, text=True)
    tree = 0
    try:
        import psutil

        root = psutil.Process(runner.pid)
        while runner.poll() is None:
            with contextlib.suppress(psutil.Error):
                tree = max(tree, sum(p.memory_info().rss for p in root.children(recursive=True)))
            time.sleep(0.2)
    except ImportError:
        pass
    out, _ = runner.communicate()
    rc, kib = out.split()
    if rc not in ok:
        sys.exit(f"{' '.join(cmd[:4])} ... exited {rc}")
    return int(kib) / 1024**2, tree / 1024**3, time.perf_counter() - t


def write_items(path: Path, n: int, distinct: int) -> None:
    """``n`` accepted items: ``distinct`` offline pairs repeated, each copy with its own id."""
    import orjson

    from ambiforge.ambiguity import default_mix
    from ambiforge.catalog import load_catalog
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.models import Review

    gen = OfflineGenerator(load_catalog(), 1, "bench")
    accepted = Review(status="unanimous", verdict="accept")
    base = []
    for i, t in enumerate(type_sequence(distinct, default_mix(), 1)):
        item = gen.generate(i, t)[0].model_copy(update={"review": accepted})
        key = orjson.dumps({"id": item.id})[1:-1]  # b'"id":"amb-..."'
        line = orjson.dumps(item.to_record())
        assert line.startswith(b"{" + key)
        base.append((item.id, line[len(key) + 1 :]))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        for k in range(n):
            item_id, rest = base[k % len(base)]
            fh.write(b'{"id":"' + f"{item_id}-{k}".encode() + b'"' + rest + b"\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, nargs="*", default=[100_000], help="item counts to release")
    parser.add_argument("--distinct", type=int, default=5_000)
    parser.add_argument("--validate", type=int, nargs="*", default=[100_000], help="item counts to validate")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()), help="where the data goes")
    args = parser.parse_args()
    cli = [sys.executable, "-m", "ambiforge.cli.main"]
    print(f"cores: {os.cpu_count()}, target: {TARGET_GB:g} GB peak for release and for verify")
    for n in sorted(set(args.items) | set(args.validate)):
        root = Path(tempfile.mkdtemp(prefix="ambiforge-mem-", dir=args.dir))
        try:
            t = time.perf_counter()
            write_items(root / "raw" / "bench" / "items.jsonl", n, args.distinct)
            made = time.perf_counter() - t
            size = (root / "raw" / "bench" / "items.jsonl").stat().st_size / 1e9
            print(f"{n:>9,} items: written in {made:.0f} s ({size:.2f} GB of items.jsonl)", flush=True)
            if n in args.items:
                for step, cmd in (
                    ("release", [sys.executable, "-c", RELEASE, str(root)]),
                    ("verify", [*cli, "verify", str(root / "curated" / "1.0.0")]),
                ):
                    gb, tree, wall = peak(cmd)
                    print(
                        f"{'':>9}  {step:<8}: peak {gb:5.2f} GB (all processes {tree:5.2f} GB) in {wall:5.0f} s"
                        f"  ratio to target {max(gb, tree) / TARGET_GB:.2f}",
                        flush=True,
                    )
                shutil.rmtree(root / "curated")
            if n in args.validate:
                cmd = [*cli, "validate", str(root / "raw" / "bench" / "items.jsonl"), "--no-mix"]
                gb, tree, wall = peak(cmd, ok=("0", "1"))
                print(f"{'':>9}  validate: peak {gb:5.2f} GB (all processes {tree:5.2f} GB) in {wall:5.0f} s")
        finally:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
