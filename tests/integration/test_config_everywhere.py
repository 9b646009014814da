"""Every command reads the same configuration (issue 30): a type added through ``[ambiguity] folders``,
from ``ambiforge.toml`` in the working folder or from ``$AMBIFORGE_CONFIG``, is in the output of every
command that lists types, and ``--check`` no longer says "matches" without it; ``review config`` writes
and checks the file in ``[paths] annotation``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

FOLDER = REPO / "tests" / "fixtures" / "types" / "quantity"
AMBIK_HEADER = (
    "id,environment_short,environment_full,unambiguous_direct,ambiguity_type,amb_shortlist,ambiguous_task,"
    "question,answer,plan_for_clear_task,plan_for_amb_task,end_of_ambiguity,user_intent,variants"
)
QUANTITY_ROW = "1,mug,a mug,Pour a cup of milk.,quantity,,Pour milk.,How much?,A cup.,1. Pour.,1. Pour.,0,,"


def run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ambiforge.cli.main", *args], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


@pytest.mark.parametrize("via", ["working-folder", "AMBIFORGE_CONFIG"])
def test_a_type_from_a_folder_is_in_every_command_that_lists_types(tmp_path: Path, via: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    text = f'[paths]\nannotation = "{tmp_path / "ann"}"\n\n[ambiguity]\nfolders = ["{FOLDER}"]\n'
    env = {**os.environ, "PYTHONPATH": str(REPO), "PREFECT_HOME": str(tmp_path / "prefect")}
    env.pop("AMBIFORGE_CONFIG", None)
    if via == "working-folder":
        (work / "ambiforge.toml").write_text(text, encoding="utf-8")
    else:
        (tmp_path / "elsewhere.toml").write_text(text, encoding="utf-8")
        env["AMBIFORGE_CONFIG"] = str(tmp_path / "elsewhere.toml")

    schema = run("schema", cwd=work, env=env)
    assert schema.returncode == 0 and '"quantity"' in schema.stdout, schema.stderr
    checked = run("schema", "--check", cwd=work, env=env)  # the committed schemas know only the built-in types
    assert checked.returncode == 1 and "manifest.schema.json is out of date" in " ".join(checked.stderr.split())
    written = run("schema", "--write", "--path", str(tmp_path / "item.schema.json"), cwd=work, env=env)
    assert written.returncode == 0 and '"quantity"' in (tmp_path / "item.schema.json").read_text()

    labeling = run("review", "config", cwd=work, env=env)
    assert labeling.returncode == 0 and 'alias="quantity"' in labeling.stdout, labeling.stderr
    stale = run("review", "config", "--check", cwd=work, env=env)
    assert stale.returncode == 1 and str(tmp_path / "ann" / "labeling_config.xml") in stale.stderr
    assert run("review", "config", "--write", cwd=work, env=env).returncode == 0
    assert 'alias="quantity"' in (tmp_path / "ann" / "labeling_config.xml").read_text(encoding="utf-8")
    fresh = run("review", "config", "--check", cwd=work, env=env)
    assert fresh.returncode == 0 and "matches" in fresh.stderr
    assert not (REPO / "annotation" / "labeling_config.xml").read_text(encoding="utf-8").count("quantity")

    (work / "q.csv").write_text(f"{AMBIK_HEADER}\n{QUANTITY_ROW}\n", encoding="utf-8")
    imported = run("import-ambik", "q.csv", "--out", "q.jsonl", cwd=work, env=env)
    assert imported.returncode == 0, imported.stderr
    assert '"ambiguity_type":"quantity"' in (work / "q.jsonl").read_text(encoding="utf-8").replace(" ", "")
