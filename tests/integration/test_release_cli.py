"""``ambiforge release`` through the CLI and the Prefect flow: a refused release is one line, exit 1 or 2,
no traceback, ``curated/`` untouched; a small release succeeds with splits that fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from ambiforge.models import Review
from tests.unit.release.test_release import make_items, tree_digest, write_run

pytestmark = pytest.mark.usefixtures("prefect_harness")


def config(tmp: Path) -> Path:
    path = tmp / "ambiforge.toml"
    path.write_text(
        f'[paths]\nraw = "{tmp / "raw"}"\ncurated = "{tmp / "curated"}"\nannotation = "{tmp / "annotation"}"\n'
        '[release]\nrepository_url = "https://example.org/ambiforge"\n'
    )
    return path


def run(capfd, *args: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    code = main(["release", *args])
    return code, capfd.readouterr().err


def test_refusals_are_one_line_and_a_small_release_fits(tmp_path, catalog, capfd) -> None:  # type: ignore[no-untyped-def]
    cfg = str(config(tmp_path))
    items = make_items(catalog, 8, 40, "r")
    accepted = Review(status="unanimous", verdict="accept")
    write_run(
        tmp_path / "raw",
        "none",
        [i.model_copy(update={"review": Review(status="unanimous", verdict="reject")}) for i in items[:5]],
    )
    (tmp_path / "curated").mkdir()
    before = tree_digest(tmp_path / "curated")

    code, err = run(capfd, "--version", "1.0.0", "--from", "none", "--config", cfg)
    assert code == 1 and "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("ambiforge: error:")]
    assert len(lines) == 1 and "no accepted items in run(s) none (5 rejected in review)" in lines[0]
    assert "--allow-unreviewed" in lines[0]

    write_run(tmp_path / "raw", "skewed", [i for i in items if i.ambiguity_type == "preferences"][:10])
    code, err = run(capfd, "--version", "1.0.0", "--from", "skewed", "--config", cfg, "--allow-unreviewed")
    assert code == 1 and "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("ambiforge: error:")]
    assert len(lines) == 1 and "preferences 100.0% vs target 47.2% +/- 5%" in lines[0] and "--mix-tolerance" in lines[0]

    code, err = run(capfd, "--version", "1.0.0", "--from", "skewed", "--config", cfg, "--mix-tolerance", "7")
    assert code == 2 and "--mix-tolerance" in err and "Traceback" not in err
    assert tree_digest(tmp_path / "curated") == before

    write_run(tmp_path / "raw", "ten", [i.model_copy(update={"review": accepted}) for i in items[:10]])
    code, err = run(capfd, "--version", "1.0.0", "--from", "ten", "--config", cfg, "--mix-tolerance", "1")
    assert code == 0 and "Traceback" not in err and "capped to 1" in err
    manifest = json.loads((tmp_path / "curated" / "1.0.0" / "manifest.json").read_text())
    assert manifest["splits"]["calibration_size"] == 1 and manifest["counts"]["per_split"]["test"]["total"] == 9
    assert manifest["citation"]["repository_url"] == "https://example.org/ambiforge"
    assert "[ambiforge](https://example.org/ambiforge)" in (tmp_path / "curated" / "1.0.0" / "README.md").read_text()
