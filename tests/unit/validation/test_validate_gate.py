"""``validate`` is a gate (issue 30): failed dataset expectations exit 1; an input with no item (an empty
.jsonl, a header-only .csv) is "empty input", exit 2 with no report; one field may be as long in an AmbiK
CSV as in a JSONL line (``ambiforge.inputs``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge import inputs
from ambiforge.ambik import AMBIK_COLUMNS, read_ambik_csv, write_ambik_csv
from ambiforge.cli.main import main
from ambiforge.errors import InputError
from ambiforge.storage import read_items, write_items_jsonl
from tests.unit.release.test_release import make_items


@pytest.mark.parametrize(("name", "text"), [("empty.jsonl", ""), ("header-only.csv", ",".join(AMBIK_COLUMNS) + "\n")])
def test_an_input_without_items_is_empty_input(tmp_path: Path, capsys, name: str, text: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path), "--out", str(tmp_path / "v")]) == 2
    err = capsys.readouterr().err
    message = "empty input: no items to validate (an empty file, or a header only)"
    assert err.strip() == f"ambiforge: error: {path}: {message}"
    assert not (tmp_path / "v").exists()


def test_the_exit_code_follows_errors_and_expectations(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    from ambiforge import api

    path = write_items_jsonl(tmp_path / "i.jsonl", make_items(catalog, 3, 40, "g"))
    done = api.validate(path, out=tmp_path / "api", mix=False)
    record = done.to_dict()
    failed = bool(record["report"]["summary"]["with_errors"] or record["expectations"]["failed"])
    assert done.ok is not failed and done.items == 40
    assert main(["validate", str(path), "--out", str(tmp_path / "v"), "--no-mix"]) == int(failed)


def test_a_long_field_fits_in_csv_as_in_jsonl(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    item = make_items(catalog, 3, 1, "long")[0]
    # 280,000 characters; no world, so the export writes this text (a graph's item gets its places in words)
    long = item.model_copy(update={"environment_full": "a long scene. " * 20_000, "world": None})
    jsonl = write_items_jsonl(tmp_path / "l.jsonl", [long])
    csv_path = write_ambik_csv(read_items(jsonl), tmp_path / "l.csv")
    assert read_ambik_csv(csv_path, catalog)[0].environment_full == long.environment_full
    too_long = tmp_path / "too-long.csv"
    too_long.write_text(",".join(AMBIK_COLUMNS) + "\n" + "x" * (inputs.MAX_CELL + 1) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="too-long.csv"):
        read_ambik_csv(too_long, catalog)
