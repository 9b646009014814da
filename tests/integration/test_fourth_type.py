"""A fourth ambiguity type registered from a folder (``tests/fixtures/types/quantity``), with no edit anywhere
else, goes the whole way as a user runs it: an offline build writes schema-valid items of it that validate,
and it appears in the generated labeling config, the item and manifest schemas and a release's card."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

FOLDER = REPO / "tests" / "fixtures" / "types" / "quantity"


def ambiforge(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ambiforge.cli.main", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        start_new_session=True,
    )


@pytest.mark.slow
def test_a_folder_type_goes_from_build_to_release(tmp_path: Path) -> None:
    config = tmp_path / "ambiforge.toml"
    config.write_text(
        f'[paths]\nraw = "{tmp_path / "raw"}"\ncurated = "{tmp_path / "curated"}"\n'
        f'annotation = "{tmp_path / "annotation"}"\n\n'
        f'[ambiguity]\nfolders = ["{FOLDER}"]\n\n'
        "[build.type_mix]\npreferences = 0.3\ncommon_sense_knowledge = 0.3\nsafety = 0.1\nquantity = 0.3\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect"), "PYTHONPATH": str(REPO)}
    built = ambiforge("build", "--pairs", "30", "--seed", "4", "--run-id", "four", cwd=tmp_path, env=env)
    assert built.returncode == 0, built.stderr
    items = [json.loads(line) for line in (tmp_path / "raw" / "four" / "items.jsonl").read_text().splitlines()]
    quantity = [i for i in items if i["ambiguity_type"] == "quantity"]
    assert len(quantity) == 9 and all(i["validation"]["passed"] for i in quantity)

    checked = ambiforge(
        "validate",
        str(tmp_path / "raw" / "four" / "items.jsonl"),
        "--out",
        str(tmp_path / "audit"),
        cwd=tmp_path,
        env=env,
    )
    assert checked.returncode == 0, checked.stderr

    released = ambiforge(
        "release", "--version", "1.0.0", "--from", "four", "--allow-unreviewed", "--calibration-size", "10",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert released.returncode == 0, released.stderr
    folder = tmp_path / "curated" / "1.0.0"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["per_type"]["quantity"] == 9
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert "Quantity" in card and "how much or how many" in card

    # The generated artefacts of a process that registered the folder (as every command above did).
    from ambiforge import ambiguity
    from ambiforge.models.schema import item_json_schema
    from ambiforge.releases.manifest import manifest_errors
    from ambiforge.releases.manifest_schema import manifest_json_schema
    from ambiforge.review.labeling import render_labeling_config

    ambiguity.register_folder(FOLDER)
    try:
        assert '<Choice value="Quantity" alias="quantity"' in render_labeling_config()
        assert "quantity" in item_json_schema()["properties"]["ambiguity_type"]["enum"]
        assert "quantity" in json.dumps(manifest_json_schema())
        assert manifest_errors(manifest) == []
    finally:
        ambiguity.unregister("quantity")
    assert "quantity" not in item_json_schema()["properties"]["ambiguity_type"]["enum"]
