from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ambiforge.errors import InputError
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Review
from ambiforge.storage import ITEM_ARROW_SCHEMA, read_items, write_items_jsonl, write_items_parquet


def test_jsonl_and_parquet_round_trip_every_field(catalog, tmp_path: Path) -> None:
    gen = OfflineGenerator(catalog, 2, "t")
    items = [gen.generate(i, t)[0] for i, t in enumerate(["preferences", "safety", "common_sense_knowledge"])]
    items[1] = items[1].model_copy(update={"review": Review(status="pending"), "extra": {"take_amb": "1"}})
    write_items_jsonl(tmp_path / "i.jsonl", items)
    write_items_parquet(tmp_path / "i.parquet", items)
    assert read_items(tmp_path / "i.jsonl") == items
    assert read_items(tmp_path / "i.parquet") == items
    table = pq.read_table(tmp_path / "i.parquet")
    assert table.schema.field("plan_for_clear_task").type == ITEM_ARROW_SCHEMA.field("plan_for_clear_task").type
    assert b"description" in table.schema.field("ambiguous_task").metadata


def test_bad_jsonl_line_is_named(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text('{"id": "a"}\n{not json\n')
    with pytest.raises(InputError, match=r"bad.jsonl: line 2: not valid JSON"):
        read_items(p)


def test_invalid_record_is_named_with_its_id(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text('{"id": "x1", "ambiguity_type": "irony"}\n')
    with pytest.raises(InputError, match=r"record 1 \(id 'x1'\)"):
        read_items(p)


def test_failed_write_leaves_the_old_file(catalog, tmp_path: Path) -> None:
    target = tmp_path / "i.jsonl"
    target.write_text("old\n")

    def boom():  # type: ignore[no-untyped-def]
        yield OfflineGenerator(catalog, 1, "t").generate(0, "safety")[0]
        raise RuntimeError("crash mid-write")

    with pytest.raises(RuntimeError):
        write_items_jsonl(target, boom())
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["i.jsonl"]


def test_items_table_is_the_table_of_the_rows_and_drops_unnamed_keys(catalog) -> None:  # type: ignore[no-untyped-def]
    """Arrow's JSON reader builds the items' table: the same table ``pa.Table.from_pylist`` makes of the rows
    (review corrections and extra as key/value lists), keys the schema does not name left out at every level."""
    import pyarrow as pa

    from ambiforge.models import Annotation
    from ambiforge.storage.arrow_schema import _row, item_arrow_schema, items_to_table

    gen = OfflineGenerator(catalog, 2, "t")
    items = [gen.generate(i, t)[0] for i, t in enumerate(["preferences", "safety"])]
    annotation = Annotation(annotator="annotator-1", corrections={"question": "Which one?"})
    review = Review(status="adjudicated", annotations=[annotation])
    items[1] = items[1].model_copy(update={"review": review, "extra": {"take_amb": "1", "é": "ü"}})
    records = [i.to_record() for i in items]
    records[0] = records[0] | {"not_a_column": 1, "provenance": records[0]["provenance"] | {"stray": "x"}}
    names = ["preferences", "safety", "common_sense_knowledge"]
    table = items_to_table(records, names)
    expected = pa.Table.from_pylist([_row(r) for r in records], schema=item_arrow_schema(names))
    assert table.schema.equals(expected.schema, check_metadata=True)
    assert table.equals(expected)
    assert table.column(0).num_chunks == 1
    assert table.to_pylist()[1]["review"]["annotations"][0]["corrections"] == [
        {"field": "question", "value": "Which one?"}
    ]
    assert items_to_table([], names).num_rows == 0
