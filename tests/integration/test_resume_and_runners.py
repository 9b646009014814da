"""Generation resumes from its checkpoints; thread and Dask runners give the same bytes (real Prefect flows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.config.build import BuildOptions
from ambiforge.engine.state import is_done, mark
from ambiforge.run.layout import batch_path


@pytest.mark.usefixtures("prefect_harness")
def test_generation_resumes_from_checkpoints(tmp_path: Path) -> None:
    from ambiforge.engine.pipeline import generated_path
    from flows.generate import generate_flow

    options = BuildOptions(run_id="resume", pairs=60, seed=3, out=str(tmp_path), batch_size=20)
    first = generate_flow(options)
    generated = generated_path(options).read_bytes()
    directory = tmp_path / "resume"
    # Simulate a run killed after two batches: stage not done, last batch and the stage file missing.
    mark(directory, "generate", "running")
    generated_path(options).unlink()
    batch_path(directory, 40, 59).unlink()
    stale = batch_path(directory, 0, 19)
    marker = stale.read_text()
    second = generate_flow(options)
    assert stale.read_text() == marker  # reused, not regenerated
    assert batch_path(directory, 40, 59).exists()
    assert generated_path(options).read_bytes() == generated
    assert second == first == {"pairs": 60, "generated": 60, "rejected": 0}
    assert is_done(directory, "generate")


@pytest.mark.usefixtures("prefect_harness")
def test_dask_and_thread_runners_give_identical_items(tmp_path: Path) -> None:
    """The whole build on a local Dask cluster of 2 workers gives the thread runner's bytes."""
    from flows.build import build_flow

    # 60 pairs in batches of 15: four batches, so each of the two workers runs more than one
    thread = BuildOptions(run_id="same", pairs=60, seed=11, out=str(tmp_path / "thread"), batch_size=15)
    dask = thread.model_copy(update={"out": str(tmp_path / "dask"), "task_runner": "dask"})
    build_flow(thread)
    summary = build_flow(dask)
    items = "same/items.jsonl"
    assert (tmp_path / "thread" / items).read_bytes() == (tmp_path / "dask" / items).read_bytes()
    written = len((tmp_path / "dask" / items).read_text().splitlines())
    assert written == summary["items_written"] and written + summary["rejected_count"] == 60
