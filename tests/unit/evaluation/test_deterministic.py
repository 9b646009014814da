"""The same eval gives the same per-item results and tables: twice in a row, and in processes with
different PYTHONHASHSEED (set iteration order must not reach a metric: SSC once picked ``max(set, key=len)``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ambiforge.detectors import metrics
from ambiforge.storage import write_items_jsonl
from tests.unit.evaluation.fixtures import ITEMS, item

# option A of the scripted model is the task's first sentence: here it names two shortlist objects of the
# same length, where the old max(set, key=len) picked one by hash order
TIE = item(
    "T1",
    "preferences",
    "red cup, tea cup, water",
    "Pour water into the red cup or the tea cup.",
    "Pour water into the tea cup.",
    ["tea cup"],
    ["red cup", "tea cup"],
    ["red cup", "tea cup"],
)

SCRIPT = """
import json, sys
from pathlib import Path
from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.testing.scripted_eval import ScriptedModel
out = Path(sys.argv[2])
opts = EvalOptions(data=Path(sys.argv[1]), methods=("knowno", "lap", "lofreecp", "binary", "nohelp"),
                   model="scripted", out=out, name="run", calibration_size=3, cache_dir=out / "cache",
                   llm=LLMConfig(rpm=0))
document = run_eval(opts, model=ScriptedModel())
print(json.dumps(document["methods"], sort_keys=True))
"""


def test_ssc_ties_do_not_depend_on_set_order() -> None:
    # the first option names both (same length): it counts as the alphabetically first, "red cup", so with
    # the second option the set names both shortlist objects; by hash order it was 0.5 or 1.0
    options = ["Pour water into the red cup or the tea cup.", "Pour water into the tea cup."]
    assert metrics.ssc(options, ["tea cup", "red cup"]) == 1.0
    assert metrics.ssc(options, ["red cup", "tea cup"]) == 1.0


def test_same_results_under_different_hash_seeds(tmp_path: Path) -> None:
    data = write_items_jsonl(tmp_path / "items.jsonl", [*ITEMS, TIE])
    outputs = []
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = tmp_path / f"seed{seed}"
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(data), str(out)], env=env, capture_output=True, text=True, check=True
        )
        tables = json.loads(done.stdout.strip().splitlines()[-1])
        rows = (out / "run" / "results.jsonl").read_text(encoding="utf-8")
        outputs.append((tables, rows))
    assert all(o == outputs[0] for o in outputs[1:])
    rows = [json.loads(line) for line in outputs[0][1].splitlines()]
    assert any(r["item_id"] == "T1" and r["metrics"]["SSC"] is not None for r in rows)
