"""The build flow end to end on the offline provider (real Prefect, temporary local API)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from ambiforge.catalog import APPLIANCES
from ambiforge.config.build import BuildOptions
from ambiforge.generation.offline.phrases import mentions
from ambiforge.models.schema import schema_errors
from ambiforge.storage import read_items

pytestmark = pytest.mark.usefixtures("prefect_harness")


def run(tmp_path: Path, pairs: int, seed: int = 1, run_id: str = "r1") -> dict:  # type: ignore[type-arg]
    from flows.build import build_flow

    return build_flow(BuildOptions(run_id=run_id, pairs=pairs, seed=seed, out=str(tmp_path)))


@pytest.mark.slow
def test_thousand_pairs_meet_the_acceptance_criteria(tmp_path: Path, catalog) -> None:
    summary = run(tmp_path, 1000)
    folder = tmp_path / "r1"
    records = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    assert len(records) == 1000 and summary["items_written"] == 1000
    assert all(schema_errors(r) == [] for r in records)
    shares = summary["type_share"]
    for t, target in {"preferences": 0.472, "common_sense_knowledge": 0.398, "safety": 0.13}.items():
        assert abs(shares[t] - target) <= 0.03
    names = sorted(catalog.objects, key=len, reverse=True)

    def named_in(text: str) -> set[str]:
        """Catalog names in the text, longest first, so 'oatmeal cookies' is not also 'oatmeal'."""
        found = set()
        for n in names:
            if mentions(text, n):
                found.add(n)
                text = re.sub(re.escape(n), " ", text, flags=re.IGNORECASE)
        return found

    for r in records:
        scene = {o["name"] for o in r["environment"]}
        assert set(r["amb_shortlist"]) <= scene
        named = named_in(r["unambiguous_direct"])
        assert named <= scene | set(APPLIANCES), (r["unambiguous_direct"], named - scene)
        assert r["ambiguous_task"] != r["unambiguous_direct"]
    assert len({r["unambiguous_direct"] for r in records}) >= 900
    assert summary["distinct_unambiguous_tasks"] >= 900
    assert 0 < summary["type_token_ratio"] < 1
    assert summary["rejected_count"] == 0 and (folder / "rejected.jsonl").read_text() == ""
    assert len(read_items(folder / "items.parquet")) == 1000
    assert "total" in summary["seconds"]


def test_same_seed_and_run_id_give_identical_bytes(tmp_path: Path) -> None:
    # 40 pairs hold all three types; batching's part in the bytes is test_batching_does_not_change_the_items's
    run(tmp_path / "a", 40, seed=4, run_id="same")
    run(tmp_path / "b", 40, seed=4, run_id="same")
    digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    assert digest(tmp_path / "a/same/items.jsonl") == digest(tmp_path / "b/same/items.jsonl")
    run(tmp_path / "c", 40, seed=5, run_id="same")
    assert digest(tmp_path / "a/same/items.jsonl") != digest(tmp_path / "c/same/items.jsonl")


def test_batching_does_not_change_the_items(tmp_path: Path) -> None:
    from flows.build import build_flow

    build_flow(BuildOptions(run_id="x", pairs=90, seed=9, out=str(tmp_path / "a"), batch_size=7))
    build_flow(BuildOptions(run_id="x", pairs=90, seed=9, out=str(tmp_path / "b"), batch_size=90))
    assert (tmp_path / "a/x/items.jsonl").read_bytes() == (tmp_path / "b/x/items.jsonl").read_bytes()
