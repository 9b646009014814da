"""Fixed cost of the CLI (issue 20 item 4): `ambiforge --help`, a 1-pair offline build, and its rerun served
entirely from the finished run (cache-only), each as wall seconds of a fresh process, best and median of N.

Target: both builds under 8 s on an idle machine. Prints the machine's load average beside the figures:
on a loaded machine the temporary Prefect server (it imports ~7 s of modules on two busy cores) dominates.

    PYTHONPATH=. python bench/fixed_cost.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def wall(cmd: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cli = [sys.executable, "-m", "ambiforge.cli.main"]
    figures: dict[str, list[float]] = {"ambiforge --help": [], "1-pair offline build": [], "cache-only rerun": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "PYTHONPATH": str(REPO), "PREFECT_HOME": str(root / "prefect-home")}
        env.pop("PREFECT_API_URL", None)
        # One build first, so the SQLite database of PREFECT_HOME is migrated (a one-time cost per home).
        wall([*cli, "build", "--pairs", "1", "--out", str(root / "warm"), "--run-id", "warm"], env, root)
        for run in range(args.runs):
            figures["ambiforge --help"].append(wall([*cli, "--help"], env, root))
            build = [*cli, "build", "--pairs", "1", "--out", str(root / "raw"), "--run-id", f"r{run}"]
            figures["1-pair offline build"].append(wall(build, env, root))
            figures["cache-only rerun"].append(wall(build, env, root))
    load = os.getloadavg()
    print(f"fixed cost, {args.runs} runs, load average {load[0]:.2f} on {os.cpu_count()} cores (target < 8 s)")
    for name, values in figures.items():
        print(f"  {name:<22} best {min(values):6.2f} s   median {statistics.median(values):6.2f} s")


if __name__ == "__main__":
    main()
