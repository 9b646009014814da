"""Issue 31's done-when for the environment-induced types: a seeded build with all seven types writes items of
every type whose graphs validate against schemas/scene_graph.schema.json, the same seed gives the same bytes,
and the world rules (world, world_environment) raise nothing on any item."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import jsonschema_rs
import pytest

from ambiforge.models.scene_graph_schema import scene_graph_json_schema
from tests.conftest import REPO
from tests.integration import processes

MIX = "preferences=0.3,common_sense_knowledge=0.1,safety=0.1,multiplicity=0.2,absence=0.1,reference=0.1,observation=0.1"
KINDS = ("multiplicity", "absence", "reference", "observation")


def build(out: Path, run_id: str) -> list[dict]:
    env = {**os.environ, "PREFECT_HOME": str(out / "prefect")}
    args = ["build", "--pairs", "70", "--seed", "31", "--run-id", run_id, "--out", str(out), "--type-mix", MIX]
    proc = processes.run([sys.executable, "-m", "ambiforge.cli.main", *args], cwd=REPO, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in (out / run_id / "items.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_a_seeded_build_of_every_type(tmp_path: Path) -> None:
    items = build(tmp_path / "a", "env")
    assert {i["ambiguity_type"] for i in items} == {"preferences", "common_sense_knowledge", "safety", *KINDS}
    validator = jsonschema_rs.validator_for(scene_graph_json_schema())
    for item in items:
        world = item["world"]
        graphs = [world["graph"]] + ([world["perturbation"]["graph"]] if world.get("perturbation") else [])
        assert all(validator.is_valid(g) for g in graphs), item["id"]
        assert (world.get("perturbation") is not None) == (item["ambiguity_type"] in KINDS)
        failed = [f for f in (item["validation"] or {}).get("failed", []) if f["rule"].startswith("world")]
        assert failed == [], (item["id"], failed)
    rejected = [json.loads(line) for line in (tmp_path / "a" / "env" / "rejected.jsonl").read_text().splitlines()]
    assert not [r for r in rejected if "world" in str(r.get("reason", ""))]
    again = tmp_path / "b"
    build(again, "env")
    assert (again / "env" / "items.jsonl").read_bytes() == (tmp_path / "a" / "env" / "items.jsonl").read_bytes()
