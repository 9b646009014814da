"""``ambiforge build --dry-run``: the estimate's table, a model without a price named, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.cli.main import main


def test_a_model_without_a_price_is_named_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.chdir(tmp_path)
    args = ["build", "--dry-run", "--provider", "openai", "--step-model", "intent=my-model", "--pairs", "4"]
    assert main([*args, "--out", str(tmp_path / "raw")]) == 0
    err = capsys.readouterr().err
    assert "intent (my-model)" in err and "no price" in err
    assert "model my-model has no price in [llm.prices]" in err
    assert "plan_clear (gpt-4o)" in err and "\ntotal " in err
    assert not (tmp_path / "raw").exists()
