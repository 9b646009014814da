"""Each eval method's own settings, read the same way for every method: ``[eval.methods.<name>]`` in the
configuration file, the command line's options winning over it, and one line naming the key or option
for a bad value."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import Field

from ambiforge.cli.main import main
from ambiforge.detectors.methods import Detection, register, unregister
from ambiforge.detectors.methods.base import DirectDetector, MethodSettings
from ambiforge.detectors.methods.settings import method_settings
from ambiforge.errors import ConfigError
from ambiforge.storage import write_items_jsonl
from tests.unit.evaluation.fixtures import ITEMS


class PatientSettings(MethodSettings):
    patience: int = Field(default=2, ge=1)


class Patient(DirectDetector):
    """A method of a plug-in with a parameter no built-in has: it asks, and records its patience."""

    name: ClassVar[str] = "patient"
    needs_logprobs: ClassVar[bool] = False
    sequential_calls: ClassVar[int] = 1
    Settings: ClassVar[type[MethodSettings]] = PatientSettings

    def detect(self, task, model, settings: PatientSettings) -> Detection:  # type: ignore[no-untyped-def]
        return Detection(["Which one?"], [1.0], [0], True, details={"patience": settings.patience})


@pytest.fixture
def patient() -> Iterator[None]:
    register("patient", Patient)
    try:
        yield
    finally:
        unregister("patient")


def run(tmp_path: Path, toml: str, *args: str) -> tuple[int, str, dict]:  # type: ignore[type-arg]
    data = write_items_jsonl(tmp_path / "items.jsonl", ITEMS)
    config = tmp_path / "ambiforge.toml"
    config.write_text(toml, encoding="utf-8")
    argv = ["eval", "--data", str(data), "--model", "m", "--out", str(tmp_path / "eval"), "--name", "run"]
    code = main([*argv, "--config", str(config), "--calibration-size", "2", *args])
    results = tmp_path / "eval" / "run" / "results.json"
    return code, "", json.loads(results.read_text()) if results.exists() else {}


def test_a_plugin_method_reads_its_own_setting_from_the_file(
    tmp_path: Path, patient: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    code, _, results = run(tmp_path, "[eval.methods.patient]\npatience = 7\n", "--method", "patient")
    assert code == 0
    assert results["settings"]["patience"] == 7
    rows = [json.loads(line) for line in (tmp_path / "eval" / "run" / "results.jsonl").read_text().splitlines()]
    assert rows and {r["details"]["patience"] for r in rows} == {7}


def test_the_command_line_wins_over_the_file_and_the_file_over_the_default() -> None:
    tables = {"lofreecp": {"samples": 9}, "debate": {"rounds": 2}}
    assert method_settings(tables)["lofreecp"].samples == 9
    assert method_settings(tables, {"samples": 3})["lofreecp"].samples == 3
    assert method_settings({})["lofreecp"].samples == 5
    debate = method_settings(tables, {"agents": ("a", "b")})["debate"]
    assert (debate.rounds, debate.agents) == (2, ("a", "b"))  # the debate's settings: one model for judge and eval


@pytest.mark.parametrize(
    ("tables", "options", "message"),
    [
        ({"patient": {"patiense": 3}}, {}, "cfg.toml: eval.methods.patient.patiense: Extra inputs are not permitted"),
        ({"patient": {"patience": 0}}, {}, "cfg.toml: eval.methods.patient.patience: Input should be greater"),
        ({"lofreecp": {"samples": 0}}, {}, "cfg.toml: eval.methods.lofreecp.samples: must be between 1 and 100, got 0"),
        ({"nope": {}}, {}, "cfg.toml: eval.methods.nope: unknown method 'nope' (known: "),
        ({"knowno": {"seed": 3}}, {}, "cfg.toml: eval.methods.knowno.seed: a setting of the whole run"),
        ({}, {"samples": 0}, "--samples must be between 1 and 100, got 0"),
        ({}, {"rounds": 0}, "--rounds must be at least 1, got 0"),
        ({}, {"max_questions": -1}, "--max-questions must be 0 or more, got -1"),
        ({}, {"agents": ("a",)}, "--agents: a debate needs at least two agents, got 1"),
        ({}, {"personas": ("x",)}, "--persona: 1 persona(s) for 3 agents: give one per agent"),
        ({"debate": {"agents": ["a", "b"]}}, {"personas": ("x",)}, "--persona: 1 persona(s) for 2 agents"),
        ({}, {"user": "oracle"}, "--user: unknown user 'oracle' (known: keyword, llm)"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_key_or_option(
    patient: None,
    tables: dict,
    options: dict,
    message: str,  # type: ignore[type-arg]
) -> None:
    with pytest.raises(ConfigError) as caught:
        method_settings(tables, options, source="cfg.toml")
    assert str(caught.value).startswith(message)


def test_a_bad_table_on_the_command_line_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    code, _, _ = run(tmp_path, "[eval.methods.lofreecp]\nsample = 3\n")
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    key = "eval.methods.lofreecp.sample"
    assert err == f"ambiforge: error: {tmp_path / 'ambiforge.toml'}: {key}: Extra inputs are not permitted"
