"""Fixed cost of the CLI (issue 20 item 4), each figure beside its target, in one run: ``ambiforge --help``,
a 1-pair offline build, its rerun once finished (same run id), a cache-only rerun of an LLM build (a new
run id whose every call is served from the LLM cache of an earlier 50-pair build against the scripted
server), and the 1-pair build as Prefect flows (``--prefect``, its temporary API server) for comparison;
then a release of a 50-pair run, in-process (the default without ``PREFECT_API_URL``) and as its Prefect
flow (``release --prefect``).

Each is a fresh process: wall seconds (best and median of N) and CPU seconds (user + sys of the process
and its children, median), which stay readable on a machine shared with other work. Targets: both builds
and the cache-only rerun under 8 s on an idle machine. Prints the load average beside the figures.

    PYTHONPATH=. python bench/fixed_cost.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KEY = "sk-bench-fixed-cost-0123456789"
TARGET = 8.0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one command; its children's CPU counts once they were waited for."""
    cpu, started = children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return seconds, children_cpu() - cpu


def main() -> None:
    from ambiforge import ambiguity
    from ambiforge.testing.kitchen_responder import KitchenResponder
    from ambiforge.testing.llm_server import ScriptedLLMServer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--llm-pairs", type=int, default=50, help="pairs of the LLM build rerun from the cache")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose ambiforge runs (to compare)")
    args = parser.parse_args()
    ambiguity.names()  # before the scripted server's threads race to the registry's first load
    cli = [sys.executable, "-m", "ambiforge.cli.main"]
    # An older checkout always built with Prefect, and had no --prefect.
    prefect = ["--prefect"] if "--prefect" in (args.repo / "ambiforge/cli/build.py").read_text() else []
    # An older checkout always released as a Prefect flow (what "release of 50 pairs" measures there).
    release_prefect = (
        ["--prefect"] if any((args.repo / f).exists() for f in ("ambiforge/api.py", "flows/commands.py")) else []
    )
    targets: dict[str, float | None] = {
        "ambiforge --help": None,
        "1-pair offline build": TARGET,
        "finished rerun (same run id)": TARGET,
        f"cache-only LLM rerun ({args.llm_pairs} pairs)": TARGET,
        **({"1-pair build --prefect": None} if prefect else {}),
        "release of 50 pairs": None,
        **({"release of 50 pairs --prefect": None} if release_prefect else {}),
    }
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in targets}
    with (
        tempfile.TemporaryDirectory() as tmp,
        ScriptedLLMServer(KitchenResponder(), latency=0.2, api_key=KEY) as server,
    ):
        root = Path(tmp)
        env = {
            **os.environ,
            "PYTHONPATH": str(args.repo),
            "PREFECT_HOME": str(root / "prefect-home"),
            "OPENAI_API_KEY": KEY,
            "OPENAI_BASE_URL": server.openai_url,
        }
        env.pop("PREFECT_API_URL", None)
        config = root / "ambiforge.toml"
        config.write_text("[llm]\nconcurrency = 8\nrpm = 0\n")
        llm = [*cli, "build", "--config", str(config), "--provider", "openai", "--pairs", str(args.llm_pairs)]
        llm += ["--seed", "4", "--out", str(root / "llm")]
        # Warm-ups: the SQLite database of PREFECT_HOME is migrated once per home, and the LLM cache filled.
        timed([*cli, "build", "--pairs", "1", "--out", str(root / "warm"), "--run-id", "warm", *prefect], env, root)
        timed([*llm, "--run-id", "fill"], env, root)
        timed([*cli, "build", "--pairs", "50", "--out", str(root / "raw"), "--run-id", "rel"], env, root)
        release = [*cli, "release", "--from", "rel", "--allow-unreviewed", "--calibration-size", "10"]
        release += ["--raw", str(root / "raw"), "--curated", str(root / "curated")]
        paid = len(server.requests)
        for run in range(args.runs):
            build = [*cli, "build", "--pairs", "1", "--out", str(root / "raw"), "--run-id", f"r{run}"]
            steps = {
                "ambiforge --help": [*cli, "--help"],
                "1-pair offline build": build,
                "finished rerun (same run id)": build,
                f"cache-only LLM rerun ({args.llm_pairs} pairs)": [*llm, "--run-id", f"cached{run}"],
                "1-pair build --prefect": [*build[:-1], f"p{run}", *prefect],
                "release of 50 pairs": [*release, "--version", f"1.{run}.0"],
                "release of 50 pairs --prefect": [*release, "--version", f"1.{run}.1", *release_prefect],
            }
            if not prefect:
                del steps["1-pair build --prefect"]
            if not release_prefect:
                del steps["release of 50 pairs --prefect"]
            for name, cmd in steps.items():
                figures[name].append(timed(cmd, env, root))
        if len(server.requests) != paid:
            raise SystemExit(f"the cache-only reruns made {len(server.requests) - paid} calls to the server")
    load = os.getloadavg()
    print(f"fixed cost of {args.repo}, {args.runs} runs, load average {load[0]:.2f} on {os.cpu_count()} cores")
    print(f"  {'':<34} {'best':>7} {'median':>7} {'CPU':>7}   target  best/target")
    for name, values in figures.items():
        walls = [w for w, _ in values]
        cpu = statistics.median(c for _, c in values)
        target = targets[name]
        versus = f"< {target:.0f} s   {min(walls) / target:.2f}" if target else "-"
        print(f"  {name:<34} {min(walls):6.2f}s {statistics.median(walls):6.2f}s {cpu:6.2f}s   {versus}")


if __name__ == "__main__":
    main()
