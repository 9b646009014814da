"""A whole LLM build against the local scripted server, next to its ideal: is it scheduled at the limit?

Starts the chat-completions test server (``ambiforge.testing.llm_server``, answering from the catalog
like a model, each reply ``--latency`` seconds after its request, the answer's making included), runs
``ambiforge build`` in a fresh process with the real SDK, ``[llm] concurrency`` and ``rpm``, and prints:

- the build's wall time (the whole command) against the ideal ``calls x latency / concurrency`` (target:
  within 1.5x), and its CPU time: the build's own process and its worker processes (the dataset checks');
  the own process's CPU split at the first call's start and the last call's end (start-up, the LLM phase
  with its share a pair, finishing): a fixed cost and a cost a pair, which a figure a pair of the whole
  build mixes up at 50 pairs;
- the LLM phase, from the first call's start to the last call's end in ``calls.jsonl``, against the same
  ideal (target: >= 0.9 of it), with the share of the phase the ``concurrency`` slots were busy and the
  replies' mean time (a loaded machine makes replies slower than ``--latency``, which the ideal ignores);
- where the rest of the wall went: before the first call (imports, Prefect, planning) and after the last
  (duplicate resolution, validation, reports, writing).

With ``--marginal N`` a second build of ``N`` pairs follows, and the CPU a pair is also given as the
difference of the two builds over the difference of their pairs (own process, workers, and the own
process's LLM phase): the cost of one more pair, which the figure a pair of one build mixes with the fixed
costs (imports, the worker's Great Expectations, the report) that do not grow with the pairs.

The server first answers a warm-up build of the same pairs and seed (its figures printed too): its responder
drafts a kitchen's tasks with the offline generator on the first request about that kitchen (about 25 ms of CPU
a kitchen, 1.2 s for 50 pairs, nearly all of it in the first second, when every pair asks its first question),
and on a 2-core machine that work, which a model server does on a machine of its own, competes with the build
for the cores. The measured build then meets a server whose answers take only
their latency. ``--cold`` measures a build against a fresh server instead.

Prints figures, never asserts. ``rpm`` defaults to 0 (no rate limit): the ideal is about concurrency and
latency; pass ``--rpm`` to see a rate limit's share.

    python bench/llm_build.py                       # 50 pairs, 200 ms, concurrency 8
    python bench/llm_build.py --marginal 100        # and 100 pairs: the CPU of one more pair
    python bench/llm_build.py --pairs 100 --concurrency 16
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ambiforge import ambiguity
from ambiforge.llm.calls import read_calls
from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer

KEY = "sk-bench-llm-build-0123456789"
REPO = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    """User + sys seconds of the children waited for (the build and, with --prefect, its API server)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu(pid: int, last: float) -> float:
    """User + sys seconds of process ``pid`` itself, without its children (its worker processes), from
    /proc; ``last`` where it cannot be read (the process just ended; elsewhere than Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return last
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_at(samples: list[tuple[float, float]], when: float) -> float:
    """The build's own CPU seconds at ``when`` (epoch): the last sample taken by then."""
    before = [cpu for at, cpu in samples if at <= when]
    return before[-1] if before else 0.0


def intervals(calls: list[dict]) -> list[tuple[float, float]]:  # type: ignore[type-arg]
    """(start, end) of each call that reached the server, in epoch seconds (``at`` is when it was logged)."""
    spans = []
    for call in calls:
        if call.get("cached") or call.get("latency_seconds") is None:
            continue
        end = datetime.fromisoformat(call["at"]).timestamp()
        spans.append((end - float(call["latency_seconds"]), end))
    return spans


@dataclass(frozen=True)
class Measured:
    """One build's CPU figures, for the marginal cost a pair of two builds."""

    pairs: int
    own: float  # the build's own process, seconds
    workers: float  # its worker processes
    llm_phase: float  # the own process's CPU from the first call's start to the last call's end


def build_once(args: argparse.Namespace, pairs: int, server: ScriptedLLMServer, label: str = "") -> Measured:
    """Run one build of ``pairs`` pairs against ``server`` and print its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = folder / "ambiforge.toml"
        config.write_text(f"[llm]\nconcurrency = {args.concurrency}\nrpm = {args.rpm}\n")
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(args.repo), os.environ.get("PYTHONPATH")])),
            "OPENAI_API_KEY": KEY,
            "MISTRAL_API_KEY": KEY,
            "OPENAI_BASE_URL": server.openai_url,
            "MISTRAL_BASE_URL": server.url,
            "PREFECT_HOME": str(folder / "prefect-home"),
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        }
        cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--config", str(config)]
        cmd += ["--provider", args.provider, "--pairs", str(pairs), "--seed", str(args.seed)]
        cmd += ["--run-id", "bench", "--out", str(folder / "raw"), *(["--prefect"] if args.prefect else [])]
        cpu_before = children_cpu()
        started = time.time()
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            child = subprocess.Popen(cmd, cwd=folder, env=env, stdout=out, stderr=err, text=True)
            own = 0.0
            samples: list[tuple[float, float]] = []  # (when, the build's own CPU so far)
            while child.poll() is None and time.time() - started < 1800:
                own = own_cpu(child.pid, own)
                samples.append((time.time(), own))
                time.sleep(0.05)
            if child.poll() is None:
                child.kill()
            returncode = child.wait()
            err.seek(0)
            stderr = err.read()
        ended = time.time()
        cpu = children_cpu() - cpu_before
        if returncode not in (0, 1):
            sys.exit(f"build failed ({returncode}):\n{stderr[-2000:]}")
        run = folder / "raw" / "bench"
        calls = list(read_calls(run / "calls.jsonl"))
        summary = json.loads((run / "summary.json").read_text())
        if args.keep:
            shutil.copytree(run, args.keep if pairs == args.pairs else args.keep / f"{pairs}-pairs", dirs_exist_ok=True)

    spans = intervals(calls)
    wall = ended - started
    ideal = len(spans) * args.latency / args.concurrency
    first, last = min(s for s, _ in spans), max(e for _, e in spans)
    phase = last - first
    print(
        f"{label}{pairs}-pair LLM build ({args.provider} SDK -> scripted server), latency "
        f"{args.latency * 1000:.0f} ms, concurrency {args.concurrency}, rpm {args.rpm or 'none'}"
        f"{', as Prefect flows' if args.prefect else ''}; load average {os.getloadavg()[0]:.2f} on "
        f"{os.cpu_count()} cores"
    )
    print(f"calls            : {len(spans)} to the server ({len(calls)} logged); items {summary.get('items_written')}")
    print(f"ideal            : {ideal:6.2f} s  (calls x latency / concurrency)")
    print(f"build wall       : {wall:6.2f} s  = {wall / ideal:.2f}x ideal (target <= 1.5x)  CPU {cpu:.2f} s")
    print(
        f"  CPU            : the build's own process {own:.2f} s ({own / pairs * 1000:.0f} ms a pair), its "
        f"worker processes {cpu - own:.2f} s (read every 50 ms: the last few ms of the process are missed)"
    )
    at_first, at_last = cpu_at(samples, first), cpu_at(samples, last)
    print(
        f"  own CPU by phase: before the 1st call {at_first:.2f} s, LLM phase {at_last - at_first:.2f} s "
        f"({(at_last - at_first) / pairs * 1000:.0f} ms a pair), after the last call {own - at_last:.2f} s"
    )
    if sys.flags.dont_write_bytecode and not (args.repo / "ambiforge" / "__pycache__").exists():
        print("  (PYTHONDONTWRITEBYTECODE is set and the checkout has no __pycache__: it is compiled on every run)")
    print(f"LLM phase        : {phase:6.2f} s  = {ideal / phase:.2f} of ideal (target >= 0.9)")
    busy = sum(end - start for start, end in spans)
    print(
        f"  slots busy     : {busy / (phase * args.concurrency):.2f} of the phase (calls in flight on average "
        f"{busy / phase:.1f} of {args.concurrency}); replies took {busy / len(spans) * 1000:.0f} ms on average "
        f"(ideal {args.latency * 1000:.0f})"
    )
    print(f"before 1st call  : {first - started:6.2f} s  (start-up: imports, Prefect when --prefect, planning)")
    print(f"after last call  : {ended - last:6.2f} s  (duplicates, validation, reports, writing, exit)")
    return Measured(pairs, own, cpu - own, at_last - at_first)


def print_marginal(small: Measured, large: Measured) -> None:
    """The CPU of one more pair: the two builds' difference over their pairs' difference."""
    more = large.pairs - small.pairs
    own, workers = (large.own - small.own) / more, (large.workers - small.workers) / more
    phase = (large.llm_phase - small.llm_phase) / more
    print(
        f"marginal CPU a pair ({small.pairs} -> {large.pairs} pairs): {(own + workers) * 1000:.0f} ms: the build's own "
        f"process {own * 1000:.0f} ms (its LLM phase {phase * 1000:.0f} ms), workers {workers * 1000:.0f} ms; fixed "
        f"(the {small.pairs}-pair build less its pairs at that rate): own {small.own - own * small.pairs:.2f} s, "
        f"workers {small.workers - workers * small.pairs:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--marginal", type=int, metavar="N", help="then a build of N pairs: the CPU of one more pair")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the server takes per reply")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rpm", type=int, default=0)
    parser.add_argument("--provider", choices=["openai", "mistral"], default="openai")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose ambiforge builds (to compare)")
    parser.add_argument("--keep", type=Path, help="copy the run folder here (calls.jsonl, summary...)")
    parser.add_argument("--prefect", action="store_true", help="build as Prefect flows (a temporary API server)")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="measure the first build against a fresh server (its drafting then competes with the build for CPU)",
    )
    args = parser.parse_args()
    if args.marginal is not None and args.marginal == args.pairs:
        parser.error("--marginal needs a number of pairs other than --pairs")
    ambiguity.names()  # load the types before the server's threads race to (the registry's first load)
    with ScriptedLLMServer(KitchenResponder(), latency=args.latency, api_key=KEY) as server:
        sizes = [args.pairs] if args.marginal is None else [args.pairs, args.marginal]
        if not args.cold:
            for pairs in sizes:  # the server drafts for these kitchens now, not while the measured build runs
                build_once(args, pairs, server, "warm-up (the server drafting for these kitchens): ")
                print()
        first = build_once(args, args.pairs, server)
        if args.marginal is not None:
            print()
            second = build_once(args, args.marginal, server)
            print()
            print_marginal(*sorted((first, second), key=lambda m: m.pairs))


if __name__ == "__main__":
    main()
