"""Figures that say what they rest on: a failed task is counted (per method and type) and left out of every
mean, never averaged in as a zero; each group gives the answered tasks behind it; a figure over no answered
task is None; a method none of whose tasks was answered fails the eval (exit 1) after the files are written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from ambiforge.config.llm import LLMConfig
from ambiforge.detectors import metrics
from ambiforge.detectors.model import CallTag, Completion, Messages, TokenLogprobs
from ambiforge.evaluation.command import EvalOptions, NothingAnswered, run_eval
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.scripted_eval import ScriptedModel
from tests.unit.evaluation.fixtures import ITEMS


def _row(item: str, half: str, kind: str, size: int | None, error: str | None = None) -> dict:
    figures = metrics.no_metrics() if error else {"ICR": 1.0, "HR": int(size > 1), "CHR": 1, "SSC": None}
    return {
        "item_id": item,
        "half": half,
        "ambiguity_type": kind,
        "error": error,
        "metrics": figures | ({} if error else {"set_size": size}),
    }


def test_errors_are_counted_per_group_and_left_out_of_the_means() -> None:
    rows = [
        _row("a", "ambiguous", "preferences", 3),
        _row("a", "unambiguous", "preferences", 1),
        _row("b", "ambiguous", "preferences", None, error="no options A-D in the reply"),
        _row("b", "unambiguous", "preferences", 1),
        _row("c", "ambiguous", "safety", None, error="no options A-D in the reply"),
        _row("c", "unambiguous", "safety", 2),
    ]
    summary = metrics.summarise(rows)
    assert summary["preferences"]["n"] == 1 and summary["preferences"]["errors"] == 1
    assert summary["preferences"]["set_size"] == 3.0 and summary["preferences"]["HR"] == 1.0  # not (3 + 0) / 2
    assert summary["safety"] == {**summary["safety"], "n": 0, "errors": 1, "HR": None, "set_size": None}
    assert summary["all"]["n"] == 4 and summary["all"]["errors"] == 2 and summary["all"]["set_size"] == 1.75
    assert summary["all"]["n_ICR"] == 4 and summary["all"]["n_SSC"] == 0 and summary["all"]["SSC"] is None
    ambdif = metrics.pair_ambdif(rows, uses_sets=True)
    assert ambdif["pairs"] == 1 and ambdif["errored_pairs"] == 2 and ambdif["all"] == 1.0
    assert "safety" not in ambdif  # no answered safety pair: no figure, not a 0


class NoLabel(ScriptedModel):
    """Binary's model that never says Certain or Uncertain, not even in its first token's log-probabilities
    (where Binary looks when the reply has no label): every task an unusable reply."""

    def next_token_logprobs(self, messages: Messages, tag: CallTag, **kw: object) -> TokenLogprobs:
        reply = super().next_token_logprobs(messages, tag, **kw)  # type: ignore[arg-type]
        return TokenLogprobs("I", {"I": -0.1, " would": -2.5}, reply.call_id) if "certainty" in tag.step else reply

    def complete(self, messages: Messages, tag: CallTag, **kw: object) -> Completion:
        reply = super().complete(messages, tag, **kw)  # type: ignore[arg-type]
        return (
            Completion("I would rather not say.", reply.call_id, reply.cached)
            if tag.step.endswith("certainty")
            else reply
        )


def _options(tmp: Path, methods: tuple[str, ...]) -> EvalOptions:
    data = write_items_jsonl(tmp / "items.jsonl", ITEMS)
    return EvalOptions(
        data=data,
        methods=methods,
        model="scripted",
        out=tmp / "eval",
        name="run",
        calibration_size=4,
        cache_dir=tmp / "cache",
        llm=LLMConfig(rpm=0, max_retries=0, timeout_seconds=5),
    )


def test_a_method_with_no_answered_task_fails_the_eval_after_writing(tmp_path: Path) -> None:
    with pytest.raises(NothingAnswered, match=r"no task answered by binary \(first error: no Certain/Uncertain"):
        run_eval(_options(tmp_path, ("binary", "nohelp")), model=NoLabel())
    document = json.loads((tmp_path / "eval" / "run" / "results.json").read_text())
    binary = document["methods"]["binary"]
    assert binary["errors"] == 8 and binary["answered"] == 0
    assert binary["by_group"]["all"]["CHR"] is None and binary["by_group"]["all"]["HR"] is None  # not 0, not 1
    assert document["methods"]["nohelp"]["by_group"]["all"]["n"] == 8


@pytest.mark.parametrize("args", [["--method", "debate"], ["--method", "dialogue", "--user", "llm"]])
def test_an_unreachable_endpoint_exits_1_not_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    data = write_items_jsonl(tmp_path / "items.jsonl", ITEMS[:1])
    config = tmp_path / "ambiforge.toml"
    config.write_text(f'[paths]\nraw = "{tmp_path / "raw"}"\n\n[llm]\nrpm = 0\nmax_retries = 0\n', encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-unreachable")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # the discard port: nothing listens
    argv = ["eval", "--data", str(data), "--model", "m", "--out", str(tmp_path / "eval"), "--config", str(config)]
    code = main([*argv, "--calibration-size", "1", *args])
    captured = capsys.readouterr()
    assert code == 1, captured.out
    assert "ambiforge: error: " in captured.err
    assert "CHR 1.0" not in captured.out


def test_every_per_item_result_follows_the_documented_schema(tmp_path: Path) -> None:
    import jsonschema

    from tests.conftest import REPO

    schema = json.loads((REPO / "schemas" / "eval_result.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(NothingAnswered):
        run_eval(_options(tmp_path, ("knowno", "lap", "lofreecp", "binary", "nohelp")), model=NoLabel())
    lines = (tmp_path / "eval" / "run" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == 5 * 8 and any(r["error"] for r in rows) and any(not r["error"] for r in rows)
    for row in rows:
        jsonschema.validate(row, schema)
    knowno = [r for r in rows if r["method"] == "knowno"]
    assert all(len(r["correct"]) == len(r["options"]) for r in knowno)
