"""The CLI's argument handling: bad input gives exit 2 and one line naming the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.cli.main import main


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["build", "--pairs", "0"], "--pairs must be at least 1"),
        (["build", "--pairs", "many"], "Invalid value for '--pairs'"),
        (["build", "--provider", "telepathy"], "--provider must be one of"),
        (["build", "--run-id", "../escape"], "not usable as a folder name"),
        (["build", "--type-mix", "preferences=lots"], "--type-mix: expected TYPE=SHARE"),
        (["build", "--type-mix", "irony=1"], "unknown ambiguity type 'irony'"),
        (["build", "--frobnicate"], "No such option"),
        (["build", "--config", "/nonexistent/ambiforge.toml"], "configuration file not found"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ambiforge: error:")
    assert len(err.splitlines()) == 1
    assert needle in err


def test_bad_catalog_names_file_and_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "kitchen.yaml"
    bad.write_text("version: 1\nappliances: []\ngroups: {}\n")
    assert main(["build", "--catalog", str(bad), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"ambiforge: error: {bad}: appliances: missing fixed appliance(s): " + (
        "fridge, oven, kitchen table, microwave, dishwasher, sink, tea kettle"
    )
    assert not any(tmp_path.glob("*/items.jsonl"))


def test_bad_config_value_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "ambiforge.toml"
    cfg.write_text("[build]\npairs = 'x'\n")
    assert main(["build", "--config", str(cfg)]) == 2
    assert "build.pairs" in capsys.readouterr().err


def test_schema_check_passes_on_the_committed_file() -> None:
    assert main(["schema", "--check"]) == 0


def test_schema_check_names_a_stale_scene_graph_schema_and_write_mends_it(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ambiforge.models import scene_graph_schema

    stale = tmp_path / "scene_graph.schema.json"
    stale.write_text("{}\n")
    monkeypatch.setattr(scene_graph_schema, "repo_scene_graph_schema_path", lambda: stale)
    monkeypatch.chdir(tmp_path)
    item = tmp_path / "item.schema.json"
    monkeypatch.setattr("ambiforge.cli.schema.repo_schema_path", lambda: item)
    monkeypatch.setattr("ambiforge.releases.manifest_schema.SCHEMA_PATH", tmp_path / "manifest.schema.json")
    assert main(["schema", "--write"]) == 0
    assert stale.read_text() == scene_graph_schema.render_scene_graph_schema()
    stale.write_text("{}\n")
    assert main(["schema", "--check"]) == 1
