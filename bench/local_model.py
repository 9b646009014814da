"""The real local model (``make local-llm``: llama.cpp's llama-server with SmolLM2-135M-Instruct) through
the LLM generator, per step: calls per second, tokens per second, and the share of step asks and of pairs
that pass. Run it before and after a prompt change to compare.

    AMBIFORGE_LLAMA_SERVER=~/.cache/ambiforge/llama.cpp-0.3.36-*/bin/llama-server python bench/local_model.py
    python bench/local_model.py --pairs 10 --max-tokens 128 --prompts-dir my-prompts/

Calls run one at a time (two threads for the server), so calls per second is 1 / mean latency. A step
"passes" for a pair when one of its calls (the first or a repair) gave a usable reply; a pair passes when
it ends as an item.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ambiforge.ambiguity import default_mix
from ambiforge.catalog import load_catalog
from ambiforge.config.llm import LLMConfig, StepSettings
from ambiforge.engine.preflight import check_llm
from ambiforge.errors import GenerationError
from ambiforge.generation.llm import LLMGenerator
from ambiforge.generation.mix import type_sequence
from ambiforge.llm.calls import CALLS_FILE, read_calls
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.llm.prompts import known_steps
from ambiforge.testing.local_model import LocalModelError, LocalModelServer


def settings(model: str, max_tokens: int, prompts_dir: str) -> LLMConfig:
    base = LLMConfig(concurrency=1, rpm=0, timeout_seconds=300, max_retries=1, max_repairs=1, prompts_dir=prompts_dir)
    steps = {s: StepSettings(provider="openai", model=model, max_tokens=max_tokens) for s in known_steps(prompts_dir)}
    return check_llm(base.model_copy(update={"steps": steps}))


def per_step(calls: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    asks: dict[tuple[str, Any, Any, str], bool] = {}
    for c in calls:
        row = rows[c["step"]]
        if c["response"] is not None and not c["cached"]:
            row["calls"] += 1
            row["seconds"] += float(c["latency_seconds"] or 0.0)
            row["output_tokens"] += int(c["output_tokens"] or 0)
            row["truncated"] += 1 if c.get("finish_reason") == "length" else 0
        key = (c["step"], c["pair"], c["candidate"], c["run_id"])
        asks[key] = asks.get(key, False) or c["parsed"] is not None
    for (step, *_), passed in asks.items():
        rows[step]["asks"] += 1
        rows[step]["passed"] += 1 if passed else 0
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prompts-dir", default="", help="prompts to measure (default: the shipped ones)")
    parser.add_argument("--server", default=None, help="llama-server binary (default: $AMBIFORGE_LLAMA_SERVER)")
    args = parser.parse_args()
    try:
        server = LocalModelServer(**({"binary": Path(args.server)} if args.server else {}))
    except LocalModelError as exc:
        raise SystemExit(f"ambiforge: error: {exc}") from None
    catalog = load_catalog()
    with server, tempfile.TemporaryDirectory() as tmp:
        os.environ.update(OPENAI_API_KEY="sk-local", OPENAI_BASE_URL=server.openai_url)
        llm = settings(server.model, args.max_tokens, args.prompts_dir)
        folder = Path(tmp)
        generator = LLMGenerator(
            catalog, args.seed, "bench", llm, folder / "run", folder / "cache", limiter=LocalLimiter(1, 0)
        )
        items = 0
        started = time.perf_counter()
        for index, ambiguity_type in enumerate(type_sequence(args.pairs, default_mix(), args.seed)):
            try:
                generator.generate(index, ambiguity_type)
                items += 1
            except GenerationError:
                pass
        wall = time.perf_counter() - started
        calls = list(read_calls(folder / "run" / CALLS_FILE))
    print(f"local model {server.model} ({server.model_path.name}), {args.pairs} pairs, max_tokens {args.max_tokens}")
    print(f"{'step':<18} {'calls':>5} {'calls/s':>8} {'tok/s':>7} {'cut':>4} {'asks':>5} {'pass':>6}")
    total_calls = total_seconds = total_tokens = 0.0
    rows = per_step(calls)
    for step in known_steps(args.prompts_dir):
        row = rows.get(step)
        if not row:
            print(f"{step:<18} {'-':>5}")
            continue
        seconds = row["seconds"] or float("nan")
        share = row["passed"] / row["asks"] if row["asks"] else 0.0
        print(
            f"{step:<18} {row['calls']:>5.0f} {row['calls'] / seconds:>8.3f} {row['output_tokens'] / seconds:>7.1f} "
            f"{row['truncated']:>4.0f} {row['asks']:>5.0f} {share:>6.0%}"
        )
        total_calls, total_seconds = total_calls + row["calls"], total_seconds + row["seconds"]
        total_tokens += row["output_tokens"]
    if total_seconds:
        print(
            f"{'all':<18} {total_calls:>5.0f} {total_calls / total_seconds:>8.3f} {total_tokens / total_seconds:>7.1f}"
        )
    print(f"pairs that pass (items): {items}/{args.pairs} ({items / args.pairs:.0%}); wall {wall:.0f} s")


if __name__ == "__main__":
    main()
