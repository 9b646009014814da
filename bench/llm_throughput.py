"""LLM call throughput against the local chat-completions server at a fixed latency.

Prints calls per second for each concurrency next to the ideal (concurrency / latency) and their ratio.
Calls go through the whole call path a build uses: the official SDK, ambiforge's limiter, retries, the
call log and (missing) cache lookups; the cache directory is fresh, so every call reaches the server.

    python bench/llm_throughput.py                 # 200 ms latency, concurrency 1, 8 and 32
    python bench/llm_throughput.py --provider mistral --calls 400

Its peers, in the same run: the bare ``openai`` SDK (the same requests from a thread pool, nothing else:
what the whole call path costs on top of the SDK), and distilabel when it is installed (it is not a
dependency; the line says when it was skipped).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ambiforge.config.llm import LLMConfig
from ambiforge.llm.budget import Budget
from ambiforge.llm.calls import CallCache, CallLog
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.llm.providers import ChatRequest
from ambiforge.llm.providers.mistral import MistralProvider
from ambiforge.llm.providers.openai import OpenAIProvider
from ambiforge.testing.llm_server import ScriptedLLMServer, echo_responder


def run(provider: str, concurrency: int, calls: int, server: ScriptedLLMServer, folder: Path) -> float:
    llm = LLMConfig(concurrency=concurrency, rpm=0)
    sdk = (
        OpenAIProvider("bench", server.openai_url, 30)
        if provider == "openai"
        else MistralProvider("bench", server.url, 30)
    )
    log = CallLog(folder / f"{provider}-{concurrency}" / "calls.jsonl")
    client = LLMClient(
        llm,
        log,
        CallCache(folder / f"cache-{provider}-{concurrency}"),
        LocalLimiter(concurrency, 0),
        Budget(log.path, None),
        {provider: sdk},
    )
    purpose = CallPurpose("bench", "bench", "bench", "1")

    def one(i: int) -> None:
        request = ChatRequest(provider, "bench-model", (("user", f"call {i}"),), 0.0, 16, i, {"type": "json_object"})
        client.call(request, purpose, lambda text: ({"text": text}, None))

    one(-1)  # connection set-up and lazy imports are not throughput
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(one, range(calls)))
    return calls / (time.perf_counter() - started)


def bare_sdk(concurrency: int, calls: int, server: ScriptedLLMServer) -> float:
    """The official ``openai`` SDK alone, from ``concurrency`` threads: the floor under ambiforge's client."""
    import openai

    sdk = openai.OpenAI(api_key="bench", base_url=server.openai_url, timeout=30, max_retries=0)

    def one(i: int) -> None:
        sdk.chat.completions.create(
            model="bench-model",
            messages=[{"role": "user", "content": f"call {i}"}],
            temperature=0.0,
            max_tokens=16,
            seed=i,
            response_format={"type": "json_object"},
        )

    one(-1)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(one, range(calls)))
    return calls / (time.perf_counter() - started)


def distilabel_skipped() -> str | None:
    """Why distilabel is not measured, or None when it can be."""
    try:
        import distilabel  # noqa: F401
    except ImportError:
        return "not installed (pip install distilabel to compare; it is not an ambiforge dependency)"
    return "installed, but this bench has no distilabel runner yet (its pipeline API is asyncio batches)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the server takes per reply")
    parser.add_argument("--calls", type=int, default=0, help="calls per concurrency (default: 10 rounds)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--provider", choices=["openai", "mistral"], default="openai")
    args = parser.parse_args()
    print(f"provider {args.provider} (official SDK) -> local server, latency {args.latency * 1000:.0f} ms")
    print(f"{'concurrency':>11} {'calls':>6} {'calls/s':>9} {'ideal':>9} {'ratio':>6} {'bare SDK':>9} {'vs bare':>7}")
    with ScriptedLLMServer(echo_responder, latency=args.latency) as server, tempfile.TemporaryDirectory() as tmp:
        for concurrency in args.concurrency:
            calls = args.calls or concurrency * 10
            rate = run(args.provider, concurrency, calls, server, Path(tmp))
            ideal = concurrency / args.latency
            bare = bare_sdk(concurrency, calls, server) if args.provider == "openai" else float("nan")
            print(
                f"{concurrency:>11} {calls:>6} {rate:>9.1f} {ideal:>9.1f} {rate / ideal:>6.2f} {bare:>9.1f}"
                f" {rate / bare:>7.2f}"
            )
    print(f"distilabel: skipped, {distilabel_skipped()}")


if __name__ == "__main__":
    main()
