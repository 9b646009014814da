"""API keys are checked before any work: a key that cannot go into an HTTP header is one line naming the
variable, never the value (it once reached a traceback twice and Prefect's database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge.cli.main import main

ODD_KEYS = {
    "non-ascii": "sk-test-abcdef-é-0123456789",
    "newline": "sk-test-abcdef\n0123456789",
    "space": "sk-test abcdef0123456789",
}


@pytest.mark.parametrize("name", sorted(ODD_KEYS))
def test_an_odd_key_is_refused_naming_the_variable_not_the_value(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key = ODD_KEYS[name]
    monkeypatch.setenv("OPENAI_API_KEY", key)
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / "prefect"))
    code = main(["build", "--provider", "openai", "--pairs", "2", "--out", str(tmp_path / "raw")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("ambiforge: error: OPENAI_API_KEY: the key contains") and err.count("\n") == 1
    assert key not in err and key.split()[0] not in err
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert not any(key in p.read_text(errors="replace") for p in written)
    assert not (tmp_path / "raw").exists()  # refused before any work


def test_an_ordinary_key_passes_the_check() -> None:
    from ambiforge.config.llm import key_problem

    assert key_problem("sk-proj-AbC_123-xyz") is None
    assert key_problem("sk-é") and key_problem("sk- x")
    assert key_problem("") is None  # an empty key is "not set", reported by the missing-key check
