"""Issue 27's local-model line, measured: KnowNo, Binary and NoHelp through ``ambiforge eval`` with the real local
model (``make local-llm``: llama-server with SmolLM2-135M-Instruct) on the first rows of AmbiK's published dev
split in the published test layout, calibrated on published calibration rows. Prints the share of results that
are parse errors (the line asks for fewer than a quarter), each method's figures with the task counts they rest
on, and the wall time. tests/integration/test_eval_local_published.py asserts the same on fewer rows.

    AMBIFORGE_LLAMA_SERVER=~/.cache/ambiforge/llama.cpp-0.3.36-*/bin/llama-server python bench/local_model_eval.py
    python bench/local_model_eval.py --rows 40 --calibration-rows 15      # the issue's run (about 15-20 minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.testing.local_model import LocalModelError, LocalModelServer
from ambiforge.testing.published_rows import published_rows

# ../shared/data beside the checkout (in a git worktree one level deeper, one further up)
HERE = Path(__file__).resolve()
SHARED = next(
    (p for p in (HERE.parents[2] / "shared" / "data", HERE.parents[3] / "shared" / "data") if p.is_dir()),
    HERE.parents[2] / "shared" / "data",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--calibration-rows", type=int, default=15)
    parser.add_argument("--dev", type=Path, default=SHARED / "ambik_dev_400.csv")
    parser.add_argument("--calib", type=Path, default=SHARED / "ambik_calib_100.csv")
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    for path in (args.dev, args.calib):
        if not path.is_file():
            raise SystemExit(f"{path}: no such AmbiK CSV (give --dev and --calib)")
    try:
        server = LocalModelServer().start()
    except LocalModelError as exc:
        raise SystemExit(f"local model: {exc}") from None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            os.environ.update(OPENAI_API_KEY="local", OPENAI_BASE_URL=server.openai_url)
            opts = EvalOptions(
                data=published_rows(args.dev, folder / "ambik_test_900.csv", args.rows, "test"),
                calibration=published_rows(args.calib, folder / "ambik_calib.csv", args.calibration_rows, "calib"),
                methods=("knowno", "binary", "nohelp"),
                model=server.model,
                out=folder / "eval",
                name="local",
                cache_dir=folder / "cache",
                llm=LLMConfig(concurrency=args.concurrency, rpm=0, timeout_seconds=300, max_retries=1),
            )
            start = time.monotonic()
            document = run_eval(opts)
            wall = time.monotonic() - start
            lines = (folder / "eval" / "local" / "results.jsonl").read_text().splitlines()
            rows = [json.loads(line) for line in lines]
    finally:
        server.stop()
    errors = sum(1 for r in rows if r["error"])
    load = os.getloadavg()[0]
    print(f"{args.rows} rows, {args.calibration_rows} calibration rows, {wall:.0f} s wall, load {load:.1f}")
    verdict = "yes" if errors < len(rows) / 4 else "NO"
    print(f"parse errors: {errors} of {len(rows)} results ({errors / len(rows):.1%}); under a quarter: {verdict}")
    for method, r in document["methods"].items():
        overall = r["by_group"]["all"]
        figures = {k: overall.get(k) for k in ("n", "errors", "HR", "CHR", "ICR", "SSC", "set_size")}
        print(method, figures, "AmbDif", r["ambdif"])
        if r["calibration"]:
            keys = ("tasks", "n", "left_out", "qhat", "errors")
            print(method, "calibration", {k: r["calibration"].get(k) for k in keys})


if __name__ == "__main__":
    main()
