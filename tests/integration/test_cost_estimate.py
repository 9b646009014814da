"""``build --dry-run``: the estimate it prints against what a real build of the same options reports.

The real build runs against the scripted server (zero latency), which reports usage at 4 characters a
token: the check is that the estimate, a model of the generator's calls, lands within 25% of the cost of
the calls a build really makes; it is not fitted to the server (docs/generation.md, "Costs"). 30 pairs: the
estimate renders the prompts of 12 pairs spread over the plan whatever its size, and the gap moves more with
the plan than with its size (seed 4: +12.6% at 30 pairs, +16.4% at 50, +16% to +19% at 100; seed 5 at 50
pairs: +24.6%)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer
from tests.conftest import REPO
from tests.integration.test_llm_build import KEY, llm_env

PAIRS = "30"


def cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "openai", "--pairs", PAIRS, *args]
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=1200)


@pytest.mark.slow
def test_dry_run_of_30_openai_pairs_is_within_25_percent_of_the_real_build(tmp_path: Path) -> None:
    out = tmp_path / "raw"
    with ScriptedLLMServer(KitchenResponder(), api_key=KEY) as server:
        env = llm_env(server, tmp_path)
        dry = cli(["--seed", "4", "--run-id", "r", "--out", str(out), "--dry-run"], env)
        assert dry.returncode == 0, dry.stderr
        assert server.requests == [] and not out.exists()  # nothing called, nothing written
        real = cli(["--seed", "4", "--run-id", "r", "--out", str(out)], env)
    assert real.returncode == 0, real.stderr
    total = re.search(r"^total\s.*?([\d.]+)\s*$", dry.stderr, re.MULTILINE)
    assert total, dry.stderr
    estimated = float(total.group(1))
    for step in ("unambiguous_task", "indirect", "plan_clear", "ambiguous_variant", "plan_ambiguous", "intent"):
        assert re.search(rf"^{step} \(gpt-4o\)\s", dry.stderr, re.MULTILINE), dry.stderr
    spent = json.loads((out / "r" / "summary.json").read_text())["llm"]["totals"]["cost_usd"]
    print(f"estimate USD {estimated:.4f}, real USD {spent:.4f}, {estimated / spent - 1:+.1%}")
    assert spent > 0
    assert abs(estimated - spent) <= 0.25 * spent


def test_dry_run_of_an_offline_build_says_there_is_no_cost(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "ambiforge.cli.main", "build", "--provider", "offline", "--pairs", "5"]
    proc = subprocess.run(
        [*cmd, "--out", str(tmp_path / "raw"), "--dry-run"], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert "no LLM calls, no cost" in proc.stderr
    assert not (tmp_path / "raw").exists()
