"""Offline generation per pair in instructions, cache misses and branch mispredictions, against a revision.

On a shared machine CPU time per pair moves by a quarter between runs; instruction counts do not. This runs
the generate stage of ``bench/offline_build.py`` (batches, duplicate resolution, schema gate) at two sizes
under valgrind's cachegrind (simulated caches and branch predictor), for this checkout and for ``--against``
(a git revision exported to a temporary folder, with its own package metadata so its entry points load), and
prints per pair (the difference of the two sizes, so imports and set-up cancel out): instructions, L1 data
misses, L1 instruction misses and mispredicted branches, with the ratio of this checkout to the revision.

Why all four and not instructions alone: measured on 27 Nov 2026, the world-model generator ran 1.04x the
pre-world instructions per pair but 1.35x its CPU time: the rest is 1.3x the L1 data misses and 1.16x the
mispredicted branches (more objects and more dictionary lookups per pair). Figures, never assertions.

Needs valgrind (``apt-get install valgrind``; not part of the project's install: benchmarks only).
Usage: python bench/offline_instructions.py [--against 5cbfd0a] [--sizes 100 400]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVENTS = {
    "I   refs": "instructions",
    "D1  misses": "L1d misses",
    "I1  misses": "L1i misses",
    "Mispredicts": "mispredicts",
}
STAGE = "import sys; sys.path.insert(0, 'bench'); import offline_build; offline_build.stage(int(sys.argv[1]), 200)"


def export(revision: str, into: Path) -> Path:
    """The revision's files in ``into``, with package metadata written by its own pyproject.toml."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q", "egg_info"],
        cwd=into,
        check=True,
        capture_output=True,
    )
    return into


def counts(source: Path, pairs: int) -> dict[str, int]:
    """cachegrind's totals for one process that makes ``pairs`` pairs from ``source``."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=yes",
            "--branch-sim=yes",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            STAGE,
            str(pairs),
        ],
        cwd=source,
        env={"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin", "PREFECT_LOGGING_LEVEL": "WARNING"},
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, int] = {}
    for line in run.stderr.splitlines():
        for event, name in EVENTS.items():
            if event in line and ":" in line:
                out[name] = int(line.split(":", 1)[1].split("(")[0].replace(",", "").strip())
    return out


def per_pair(source: Path, sizes: tuple[int, int]) -> dict[str, float]:
    with ThreadPoolExecutor(2) as pool:  # the two sizes at once: one process per core
        small, large = pool.map(lambda n: counts(source, n), sizes)
    return {name: (large[name] - small[name]) / (sizes[1] - sizes[0]) for name in EVENTS.values()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="5cbfd0a", help="git revision to compare with (default: pre-world)")
    parser.add_argument("--sizes", type=int, nargs=2, default=[100, 400])
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    sizes = (min(args.sizes), max(args.sizes))
    with tempfile.TemporaryDirectory() as tmp:
        theirs = per_pair(export(args.against, Path(tmp)), sizes)
    ours = per_pair(ROOT, sizes)
    print(f"offline generate stage per pair ({sizes[1]} minus {sizes[0]} pairs), cachegrind counts")
    print(f"{'':14} {args.against:>12} {'this checkout':>14} {'ratio':>6}")
    for name in EVENTS.values():
        print(f"{name:14} {theirs[name] / 1e3:>11.1f}k {ours[name] / 1e3:>13.1f}k {ours[name] / theirs[name]:>6.2f}")


if __name__ == "__main__":
    main()
