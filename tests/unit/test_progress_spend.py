"""The progress line of an LLM build shows the run's spend so far, read from its call log."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from ambiforge import progress
from ambiforge.engine.pipeline import spend_so_far
from ambiforge.llm.calls import CALLS_FILE


def write_calls(path: Path, *costs: tuple[float, bool]) -> None:
    with path.open("a") as f:
        for cost, cached in costs:
            f.write(json.dumps({"cost_usd": cost, "cached": cached}) + "\n")


def test_spend_so_far_counts_paid_calls_as_they_are_logged(tmp_path: Path) -> None:
    detail = spend_so_far(tmp_path, None)
    assert detail() == "USD 0.0000 spent"  # no call yet: no log
    write_calls(tmp_path / CALLS_FILE, (0.0125, False), (0.5, True))  # a cache hit costs nothing
    assert detail() == "USD 0.0125 spent"
    write_calls(tmp_path / CALLS_FILE, (0.0025, False))
    assert detail() == "USD 0.0150 spent"
    assert spend_so_far(tmp_path, 2.0)() == "USD 0.0150 of 2.00 spent"


def test_the_rich_bar_shows_the_stage_detail() -> None:
    reporter = progress.RichReporter()
    out = io.StringIO()
    reporter._progress.live.console = Console(file=out, width=120, force_terminal=False)
    with reporter.shown():
        progress.start("generate", 4)
        progress.describe("generate", lambda: "USD 0.0100 spent")
        progress.advance("generate", 2)
        reporter._progress.refresh()
        progress.describe("validate", lambda: "never shown")  # a stage without a bar
    text = out.getvalue()
    assert "USD 0.0100 spent" in text
    assert "never shown" not in text


def test_a_silent_reporter_ignores_details() -> None:
    progress.set_reporter(None)
    progress.describe("generate", lambda: 1 / 0)  # never asked for
