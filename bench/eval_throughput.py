"""Eval throughput: items (pairs, both halves) per second against the scripted server at a fixed latency,
as a ratio to the ideal.

The ideal is what the call count allows: ``concurrency / latency`` requests per second divided by the
requests one pair needs (measured from the server's log), i.e. a pool that is never idle and spends no
time outside the server. Calls go through the whole eval path: prompts, the official openai SDK,
ambiforge's LLM client (fresh cache, so every call reaches the server), conformal calibration and the
report.

    python bench/eval_throughput.py                          # 200 ms, concurrency 8, all five methods
    python bench/eval_throughput.py --methods knowno --pairs 100 --concurrency 16
    python bench/eval_throughput.py --methods sgcot          # SG-CoT: turns one after another per episode

``wall`` compares the measured wall time with the ideal one, ``requests x latency / concurrency`` (the
measure for SG-CoT, whose episodes make their calls one after another: issue 31 asks for at most 1.25x).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from ambiforge.catalog import load_catalog
from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import server_responder

MIX = {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}


def items_file(folder: Path, pairs: int) -> Path:
    gen = OfflineGenerator(load_catalog(), 7, "bench")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(pairs, MIX, 7))]
    return write_items_jsonl(folder / "items.jsonl", items)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the server takes per reply")
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--methods", default="knowno,lap,lofreecp,binary,nohelp")
    args = parser.parse_args()
    methods = tuple(m.strip() for m in args.methods.split(",") if m.strip())
    with tempfile.TemporaryDirectory() as tmp, ScriptedLLMServer(server_responder, latency=args.latency) as server:
        folder = Path(tmp)
        data = items_file(folder, args.pairs)
        os.environ["OPENAI_API_KEY"] = "bench"
        os.environ["OPENAI_BASE_URL"] = server.openai_url
        opts = EvalOptions(
            data=data,
            methods=methods,
            model="bench",
            out=folder / "eval",
            name="bench",
            cache_dir=folder / "cache",
            calibration_size=min(args.pairs, 100),
            llm=LLMConfig(concurrency=args.concurrency, rpm=0),
        )
        # imports, the SDK's connection set-up and matplotlib's first figure are not throughput: one pair
        # with another seed first (so none of its replies is in the cache for the measured run)
        run_eval(replace(opts, name="warm-up", limit=1, seed=1))
        warm_up = len(server.requests)
        started = time.perf_counter()
        result = run_eval(opts)
        seconds = time.perf_counter() - started
        requests = len(server.requests) - warm_up
        started = time.perf_counter()
        run_eval(opts)
        cached_seconds = time.perf_counter() - started
        new = len(server.requests) - requests - warm_up
    pairs = result["pairs"]
    rate = pairs / seconds
    ideal = args.concurrency / args.latency / (requests / pairs)
    print(f"methods {', '.join(methods)}; {pairs} pairs (calibrated on the same), latency {args.latency * 1000:.0f} ms")
    print(f"{'concurrency':>11} {'requests':>9} {'req/pair':>9} {'pairs/s':>8} {'ideal':>8} {'ratio':>6}")
    print(
        f"{args.concurrency:>11} {requests:>9} {requests / pairs:>9.1f} {rate:>8.2f} {ideal:>8.2f} {rate / ideal:>6.2f}"
    )
    print(f"rerun from the call cache: {cached_seconds:.1f} s, {new} new requests")
    print(wall_line(seconds, requests, args.latency, args.concurrency))


def wall_line(seconds: float, requests: int, latency: float, concurrency: int) -> str:
    """The measured wall time against ``requests x latency / concurrency``."""
    ideal = requests * latency / concurrency
    return f"wall {seconds:.2f} s, ideal {ideal:.2f} s (requests x latency / concurrency), {seconds / ideal:.2f}x"


if __name__ == "__main__":
    main()
