"""Debate throughput: debates on a release against the scripted server at a fixed latency, as a ratio to the
ideal rate.

The ideal is what the call count allows: ``calls x latency / concurrency`` seconds, i.e. a pool that is never
idle and spends no time outside the server. A debate is a chain of calls (Leader, then each Follower, then
the Leader again ...), so the work is scheduled as many independent jobs (one per task half; each runs its
three rotating debates) on a pool as wide as the concurrency: with hundreds of jobs queued every slot stays
busy. Calls go through the whole path: prompts, the official openai SDK, ambiforge's LLM client (a fresh
cache, so every call reaches the server; limits; call log).

Two paths are measured: ``eval`` (``ambiforge eval --method debate`` on the release) and ``judge``
(:func:`ambiforge.judge.pair.judge_pair` per pair on a thread pool, as the build's judge stage calls it).

    python bench/debate_throughput.py                      # 1000 pairs, 200 ms, concurrency 8, both paths
    python bench/debate_throughput.py --pairs 200 --paths eval
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from ambiforge.catalog import load_catalog
from ambiforge.config.judge import JudgeConfig
from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.debate import agents_for
from ambiforge.evaluation.command import EvalOptions, make_model, run_eval
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.judge.pair import as_item, judge_pair
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder

MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}


def release(folder: Path, pairs: int) -> Path:
    """A release folder's data (``data.jsonl``) of offline pairs."""
    gen = OfflineGenerator(load_catalog(), 7, "bench")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(pairs, MIX, 7))]
    write_items_jsonl(folder / "data.jsonl", items)
    return folder


def line(path: str, pairs: int, calls: int, seconds: float, latency: float, concurrency: int) -> str:
    ideal = calls * latency / concurrency
    achieved, best = calls / seconds, concurrency / latency
    return (
        f"{path:>6} {pairs:>6} {calls:>7} {seconds:>9.1f} {ideal:>9.1f} {achieved:>9.2f} {best:>9.2f} "
        f"{ideal / seconds:>6.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the server takes per reply")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--paths", default="eval,judge", help="eval, judge or both")
    args = parser.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    lines = []
    with tempfile.TemporaryDirectory() as tmp, ScriptedLLMServer(server_responder, latency=args.latency) as server:
        folder = Path(tmp)
        data = release(folder / "release", args.pairs)
        os.environ["OPENAI_API_KEY"] = "bench"
        os.environ["OPENAI_BASE_URL"] = server.openai_url
        opts = EvalOptions(
            data=data,
            methods=("debate",),
            model="bench",
            out=folder / "eval",
            name="bench",
            cache_dir=folder / "cache",
            calibration_size=args.pairs,  # every pair is evaluated (the debate needs no calibration)
            llm=LLMConfig(concurrency=args.concurrency, rpm=0),
        )
        # imports and the SDK's connection set-up are not throughput: one pair with another seed first
        run_eval(replace(opts, name="warm-up", limit=1, seed=1))
        if "eval" in paths:
            before = len(server.requests)
            started = time.perf_counter()
            result = run_eval(opts)
            seconds = time.perf_counter() - started
            calls = len(server.requests) - before
            figures = result["methods"]["debate"]["method_figures"]
            lines.append(line("eval", result["pairs"], calls, seconds, args.latency, args.concurrency))
            print(f"eval: consensus {figures['consensus_rate']}, mean rounds {figures['mean_rounds']}")
        if "judge" in paths:
            from ambiforge.storage import read_records

            records = read_records(data / "data.jsonl")
            model = make_model(replace(opts, seed=2), folder / "judge")
            agents = agents_for(model, ())
            settings = JudgeConfig(methods=("debate", "dialogue"))
            before = len(server.requests)
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
                # another seed than the eval's: nothing cached
                judged = list(pool.map(lambda r: judge_pair(as_item(r), agents, settings, 2), records))
            seconds = time.perf_counter() - started
            calls = len(server.requests) - before
            lines.append(line("judge", len(judged), calls, seconds, args.latency, args.concurrency))
    print(f"scripted server at {args.latency * 1000:.0f} ms, concurrency {args.concurrency}")
    print(
        f"{'path':>6} {'pairs':>6} {'calls':>7} {'seconds':>9} {'ideal s':>9} {'calls/s':>9} {'ideal/s':>9} "
        f"{'ratio':>6}"
    )
    for text in lines:
        print(text)


if __name__ == "__main__":
    main()
