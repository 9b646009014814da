"""AmbiK's published files as they are: the test split whose only id is pandas' unnamed index column
(``ambik_test_900.csv``), the one with the index and an ``id`` (``ambik_test_400.csv``), the calibration split
with two index columns and ``take_amb``; and every method on them through the project's own scripted server
(the one ``python -m ambiforge.testing.llm_server`` starts), which answers a build's and an eval's prompts."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ambiforge.ambik.csv_io import read_ambik_csv, write_ambik_csv
from ambiforge.config.llm import LLMConfig
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.evaluation.data import load_dataset
from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import either, is_eval_prompt
from tests.unit.evaluation.fixtures import ITEMS

EVERY_METHOD = ("knowno", "lap", "lofreecp", "binary", "nohelp", "debate", "dialogue")


def published(tmp: Path, name: str, layout: str, take_amb: str = "") -> Path:
    """The four pairs in one of AmbiK's published layouts (the index counts from 0, the id from 1, as there)."""
    ambik = write_ambik_csv(ITEMS, tmp / "ambik.csv")
    with ambik.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    path = tmp / name
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        body = [c for c in rows[0] if c != "id"]
        if layout == "test_900":  # ,environment_short,... : the index is the id
            out.writerow(["", *body])
            out.writerows([r["id"], *(r[c] for c in body)] for r in rows)
        elif layout == "test_400":  # ,id,environment_short,...
            out.writerow(["", "id", *body])
            out.writerows([str(n), r["id"], *(r[c] for c in body)] for n, r in enumerate(rows))
        else:  # calibration: ,Unnamed: 0,id,...,take_amb
            out.writerow(["", "Unnamed: 0", "id", *body, "take_amb"])
            out.writerows(
                [str(n + 10), str(n), r["id"], *(r[c] for c in body), take_amb[n]] for n, r in enumerate(rows)
            )
    return path


@pytest.mark.parametrize("layout", ["test_900", "test_400", "calib"])
def test_each_published_layout_loads_with_its_ids(tmp_path: Path, layout: str) -> None:
    path = published(tmp_path, f"{layout}.csv", layout, take_amb="1001")
    items = read_ambik_csv(path)
    assert [i.id for i in items] == [i.id for i in ITEMS]
    assert [i.plan_for_clear_task for i in items] == [i.plan_for_clear_task for i in ITEMS]


def test_the_unnamed_index_is_an_ordinary_column_when_there_is_an_id(tmp_path: Path) -> None:
    items = read_ambik_csv(published(tmp_path, "t.csv", "test_400"))
    assert [i.extra[""] for i in items] == ["0", "1", "2", "3"]


def test_published_test_split_with_published_calibration(tmp_path: Path) -> None:
    data = published(tmp_path, "ambik_test_900.csv", "test_900")
    calibration = published(tmp_path, "ambik_calib_100.csv", "calib", take_amb="1001")
    ds = load_dataset(data, calibration)
    assert [i.id for i in ds.items] == ["P1", "P2", "C1", "S1"]
    assert [(t.item_id, t.ambiguous) for t in ds.calibration] == [
        ("P1", True),
        ("P2", False),
        ("C1", False),
        ("S1", True),
    ]


def test_the_servers_default_responder_tells_eval_prompts_from_build_steps() -> None:
    build = {"messages": [{"role": "user", "content": 'Reply with JSON; its only key is "task".'}]}
    choose = {"messages": [{"role": "system", "content": "Answer with one letter."}, {"role": "user", "content": ""}]}
    assert not is_eval_prompt(build) and is_eval_prompt(choose)
    responder = either(lambda body: "built")
    assert responder(build) == "built"
    assert responder(choose) != "built"


def test_every_method_on_the_published_test_split_through_the_scripted_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = published(tmp_path, "ambik_test_900.csv", "test_900")
    calibration = published(tmp_path, "ambik_calib_100.csv", "calib", take_amb="1001")
    with ScriptedLLMServer(either(KitchenResponder()), api_key="sk-eval") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        document = run_eval(
            EvalOptions(
                data=data,
                calibration=calibration,
                methods=EVERY_METHOD,
                model="scripted",
                out=tmp_path / "eval",
                cache_dir=tmp_path / "cache",
                name="run",
                llm=LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
            )
        )
        assert all(r.status == 200 for r in server.requests)
    assert document["evaluated_on"] == "every item" and document["pairs"] == 4
    assert set(document["methods"]) == set(EVERY_METHOD)
    assert all(m["errors"] == 0 for m in document["methods"].values())
