"""The expectations' columns read off an item's record are those of the item itself (a build's worker reads
them so, without building the items again)."""

from __future__ import annotations

import json
from pathlib import Path

from ambiforge.models import RuleFailure
from ambiforge.storage import read_items
from ambiforge.validation.expectations import ItemColumns
from ambiforge.validation.stream import passes

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "release" / "run-a" / "items.jsonl"


def test_columns_of_records_are_the_items_columns() -> None:
    items = read_items(FIXTURE)[:20]
    # texts out of bounds and empty ones are kept as they are (the results' examples): both kinds are here
    items[0] = items[0].model_copy(update={"question": "", "answer": "a" * 500, "plan_for_amb_task": []})
    items[1] = items[1].model_copy(update={"unambiguous_direct": "Go"})
    from_items = ItemColumns().add_all(items).columns
    from_records = ItemColumns()
    for item in items:
        from_records.add_record(json.loads(json.dumps(item.to_record())))
    assert from_records.columns == from_items
    assert from_items["question"][0] == "" and from_items["answer"][0] == "a" * 500
    assert from_items["plan_steps_amb"][0] == 0 and from_items["unambiguous_direct"][1] == "Go"


def test_an_item_passes_unless_a_failure_is_an_error() -> None:
    warning = RuleFailure(rule="r", severity="warning", message="m")
    error = RuleFailure(rule="r", severity="error", message="m")
    assert passes([]) and passes([warning])
    assert not passes([warning, error])
