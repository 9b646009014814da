"""``ambiforge eval --metrics authors`` and ``ambiforge eval rescore RESULTS --metrics ...``: the tables from
the per-item results in either mode, without a model; bad input is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ambiforge.cli.main import main
from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.scripted_eval import ScriptedModel
from tests.unit.evaluation.fixtures import ITEMS

METHODS = ("knowno", "lap", "lofreecp", "binary", "nohelp")


def evaluated(tmp: Path, metrics: str) -> dict:
    data = write_items_jsonl(tmp / "items.jsonl", ITEMS)
    opts = EvalOptions(
        data=data,
        methods=METHODS,
        model="scripted",
        out=tmp / "eval",
        name=metrics,
        calibration_size=2,
        cache_dir=tmp / "cache",
        metrics=metrics,
        llm=LLMConfig(rpm=0),
    )
    return run_eval(opts, model=ScriptedModel())


def test_rescore_gives_the_evals_tables_in_each_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paper, authors = evaluated(tmp_path, "paper"), evaluated(tmp_path, "authors")
    assert paper["metrics"] == "paper" and authors["metrics"] == "authors"
    assert paper["methods"]["knowno"]["by_group"] != authors["methods"]["knowno"]["by_group"]
    for mode, document in (("paper", paper), ("authors", authors), ("authors", paper), ("paper", authors)):
        assert main(["eval", "rescore", document["folder"], "--metrics", mode]) == 0
        written = json.loads((Path(document["folder"]) / f"rescore-{mode}.json").read_text())
        expected = paper if mode == "paper" else authors
        for method in METHODS:  # the same tables, from the per-item results alone
            assert written["methods"][method]["by_group"] == expected["methods"][method]["by_group"], (mode, method)
            assert written["methods"][method]["ambdif"] == expected["methods"][method]["ambdif"], (mode, method)
    assert f"{mode} metrics" in capsys.readouterr().err  # the console (rich) writes to stderr


def test_bad_rescore_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "results.jsonl"
    bad.write_text('{"method": "knowno"}\n')
    assert main(["eval", "rescore", str(bad)]) == 2
    assert "line 1" in capsys.readouterr().err
    assert main(["eval", "rescore", str(tmp_path / "nope")]) == 2
    bad.write_text("not json\n")
    assert main(["eval", "rescore", str(bad), "--metrics", "paper"]) == 2
    assert main(["eval", "rescore", str(bad), "--metrics", "other"]) == 2
    err = capsys.readouterr().err
    assert "--metrics must be one of paper, authors" in err and "Traceback" not in err


def test_eval_still_needs_data_and_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--model", "m"]) == 2
    assert "--data" in capsys.readouterr().err
    with pytest.raises(Exception, match="--metrics"):
        EvalOptions(data=Path("x"), methods=("knowno",), model="m", metrics="both")


def test_rescore_writes_the_evals_report_page_with_the_rescored_tables(tmp_path: Path) -> None:
    paper = evaluated(tmp_path, "paper")
    assert main(["eval", "rescore", paper["folder"], "--metrics", "authors"]) == 0
    page = (Path(paper["folder"]) / "rescore-authors.html").read_text(encoding="utf-8")
    original = (Path(paper["folder"]) / "report.html").read_text(encoding="utf-8")
    # the same page: definitions first, the summary, calibration and plots, now in the authors' mode
    for needle in ('id="how-to-read"', "laid out like AmbiK", "Conformal calibration", "authors metrics"):
        assert needle in page
    assert "paper metrics" in original and "authors metrics" not in original
    assert page.count("data:image/png;base64") == original.count("data:image/png;base64") == 3
    assert "needs their 400 pairs" in page and "needs their 400 pairs" not in original
