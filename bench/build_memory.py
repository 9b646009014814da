"""Peak memory of seeded offline builds by size (issue 41: a 100k-pair build within 1.5 GB; the peak should
not grow with the number of pairs).

Each build is ``ambiforge build --provider offline`` in its own child process, into a temporary folder
deleted afterwards; its peak resident memory is that child's ``ru_maxrss`` (read by a one-line runner that
starts it, so no other process is counted: with 20,000 items or more the item rules run in worker
processes, and the figure is the largest single process, the build's own or a worker's, since a
process's children count once it has waited for them). Beside it: wall and CPU
seconds of the build and the load average when it ended (2 cores shared: wall time says little under load).

Usage: python bench/build_memory.py [--pairs 1000 10000 100000] [--dir /tmp]. A 100k build writes about
12 GB (checkpoints, generated.jsonl, items.jsonl); check ``df -h`` first. A long build prints its peak so
far every ``--every`` seconds (from ``/proc``, where there is one) with the batches checkpointed and the
stage, so a run stopped early still shows its trend.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_GB = 1.5

#: Runs argv[1:] and prints its exit code, peak RSS in KiB and CPU seconds (RUSAGE_CHILDREN of a process
#: whose only child it is).
RUNNER = (
    "import resource, subprocess, sys; "
    "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(rc, u.ru_maxrss, u.ru_utime + u.ru_stime)"
)


def _hwm_gb(pid: str) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024**2
    except (OSError, ValueError):
        return None
    return None


def _children(pid: str) -> list[str]:
    try:
        return [c for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()]
    except OSError:
        return []


def peak_so_far(runner: int) -> tuple[float, float | None] | None:
    """The build's peak RSS so far in GB (``VmHWM`` of the runner's child) and the largest of its worker
    processes' now running (the rule workers), or None without ``/proc``."""
    children = _children(str(runner))
    build = _hwm_gb(children[0]) if children else None
    if build is None:
        return None
    workers = [gb for gb in map(_hwm_gb, _children(children[0])) if gb is not None]
    return build, max(workers) if workers else None


def progress_line(pairs: int, runner: int, out: Path, started: float) -> str | None:
    peaks = peak_so_far(runner)
    if peaks is None:
        return None
    gb, workers = peaks
    run = out / "mem"
    batches = len(list((run / "checkpoints").glob("*.jsonl"))) if (run / "checkpoints").is_dir() else 0
    try:
        stage = json.loads((run / "state.json").read_text()).get("stage", "")
    except (OSError, ValueError):
        stage = ""
    minutes = (time.perf_counter() - started) / 60
    line = f"  {pairs} pairs, {minutes:.0f} min: peak so far {gb:.2f} GB, {batches} batches checkpointed, stage {stage}"
    return line + (f", largest worker process {workers:.2f} GB" if workers is not None else "")


def measure(pairs: int, where: Path, every: float) -> tuple[float, float, float]:
    """(peak RSS in GB, wall s, CPU s of the build and its workers) of one offline build of ``pairs``."""
    out = Path(tempfile.mkdtemp(prefix="ambiforge-build-mem-", dir=where))
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "offline", "--pairs", str(pairs)]
    cmd += ["--seed", "1", "--run-id", "mem", "--out", str(out)]
    try:
        started = time.perf_counter()
        runner = subprocess.Popen([sys.executable, "-c", RUNNER, *cmd], stdout=subprocess.PIPE, text=True)
        while True:
            try:
                stdout, _ = runner.communicate(timeout=every)
                break
            except subprocess.TimeoutExpired:
                line = progress_line(pairs, runner.pid, out, started)
                if line is not None:
                    print(line, file=sys.stderr, flush=True)
        wall = time.perf_counter() - started
        if runner.returncode:
            sys.exit(f"the runner of the {pairs}-pair build exited {runner.returncode}")
        rc, kib, cpu = stdout.split()
        if rc != "0":
            sys.exit(f"the {pairs}-pair build exited {rc}")
        return int(kib) / 1024**2, wall, float(cpu)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()), help="where the builds go")
    parser.add_argument("--every", type=float, default=300.0, help="seconds between peak-so-far lines")
    args = parser.parse_args()
    print(f"offline builds (seed 1), peak RSS of the build process; target {TARGET_GB:g} GB at 100k pairs")
    print(f"{'pairs':>8} {'peak GB':>8} {'wall s':>8} {'cpu s':>8} {'cpu ms/pair':>11} {'load':>5}")
    for pairs in args.pairs:
        gb, wall, cpu = measure(pairs, args.dir, args.every)
        load = os.getloadavg()[0]
        print(f"{pairs:>8} {gb:>8.2f} {wall:>8.0f} {cpu:>8.0f} {cpu * 1000 / pairs:>11.2f} {load:>5.1f}", flush=True)


if __name__ == "__main__":
    main()
