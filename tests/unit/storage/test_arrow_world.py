"""The Arrow item schema follows the models field for field, so no field is dropped on the way to Parquet.

``pa.Table.from_pylist`` silently leaves out any key its struct type does not name: that is how the
``world`` column was first lost. These tests walk every model (nested ones included) against its Arrow
type, and read a world back from Parquet as the same Item.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel

from ambiforge.generation.offline import OfflineGenerator
from ambiforge.models import Item, World
from ambiforge.models.action import Action
from ambiforge.storage import ITEM_ARROW_SCHEMA, read_items, write_items_parquet
from ambiforge.storage.arrow_schema import items_to_table, table_to_records


def _inner(annotation: object) -> tuple[object, bool]:
    """The annotation without None, and whether it is a list/tuple (its element type then)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _inner(args[0]) if len(args) == 1 else (annotation, False)
    if origin is typing.Annotated:
        return _inner(typing.get_args(annotation)[0])
    if origin in (list, tuple):
        return typing.get_args(annotation)[0], True
    return annotation, False


def _model_vs_arrow(model: type[BaseModel], struct: pa.StructType | pa.Schema, path: str) -> list[str]:
    problems = []
    names = [f.name for f in struct]
    if names != list(model.model_fields):
        problems.append(f"{path}: arrow {names} vs model {list(model.model_fields)}")
        return problems
    for name, info in model.model_fields.items():
        inner, is_list = _inner(info.annotation)
        arrow = struct.field(name).type
        if is_list:
            if not pa.types.is_list(arrow):
                problems.append(f"{path}.{name}: a list in the model, {arrow} in Arrow")
                continue
            arrow = arrow.value_type
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            if not pa.types.is_struct(arrow):
                problems.append(f"{path}.{name}: a model, {arrow} in Arrow")
            else:
                problems += _model_vs_arrow(inner, arrow, f"{path}.{name}")
    return problems


def test_every_item_field_has_an_arrow_column_all_the_way_down() -> None:
    """A new field on Item or on any model inside it (World, SceneGraph, Node, Action, Review...) fails
    here until the Arrow schema has it; mappings (stored as key/value lists) are the only exception."""
    assert [f.name for f in ITEM_ARROW_SCHEMA] == list(Item.model_fields)
    assert _model_vs_arrow(Item, ITEM_ARROW_SCHEMA, "item") == []


def test_the_walk_notices_a_missing_nested_field() -> None:
    world = ITEM_ARROW_SCHEMA.field("world").type
    plan = world.field("clear_plan").type.value_type
    short_plan = pa.struct([f for f in plan if f.name != "program"])
    fields = [pa.field(f.name, pa.list_(short_plan)) if f.name == "clear_plan" else f for f in world]
    assert _model_vs_arrow(World, pa.struct(fields), "world") == [
        f"world.clear_plan: arrow {[f.name for f in short_plan]} vs model {list(Action.model_fields)}"
    ]


def test_a_world_round_trips_through_parquet(catalog, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 4, "t")
    items = [gen.generate(i, t)[0] for i, t in enumerate(["preferences", "safety", "common_sense_knowledge"])]
    assert all(i.world is not None and i.world.graph.edges for i in items)
    plan = [Action(verb="open", obj="fridge"), Action(verb="pour", obj="fridge", target="sink", quantity="half")]
    items[0] = items[0].model_copy(update={"world": items[0].world.model_copy(update={"clear_plan": plan})})  # type: ignore[union-attr]
    items.append(items[2].model_copy(update={"id": "no-world", "world": None}))
    write_items_parquet(tmp_path / "i.parquet", items)
    assert read_items(tmp_path / "i.parquet") == items
    table = pq.read_table(tmp_path / "i.parquet")
    assert table.schema.field("world").type == ITEM_ARROW_SCHEMA.field("world").type
    nodes = table.column("world").combine_chunks().field("graph").field("nodes")
    assert nodes[0].as_py() == [n.model_dump(mode="json") for n in items[0].world.graph.nodes]  # type: ignore[union-attr]
    assert table_to_records(items_to_table(items)) == [i.to_record() for i in items]


def test_json_lines_make_the_table_the_records_make(catalog) -> None:  # type: ignore[no-untyped-def]
    """The release parses kept rows' JSON lines with Arrow: the same table as ``items_to_table`` makes of the
    decoded records, mappings turned into key/value lists and keys the schema does not name left out at every
    level, whole-number floats in integer columns made integers."""
    import orjson

    from ambiforge.storage.arrow_schema import item_arrow_schema, json_lines_to_table, mapped_columns

    gen = OfflineGenerator(catalog, 3, "lines")
    records = [gen.generate(i, t)[0].to_record() for i, t in enumerate(["preferences", "safety", "preferences"])]
    records[0]["extra"] = {"source": "kitchen-7", "note": "é"}
    records[1]["review"] = {
        "status": "majority",
        "verdict": "accept_with_fixes",
        "annotations": [{"annotator": "annotator-1", "corrections": {"ambiguous_task": "Get the cup."}}],
    }
    records[2]["world"]["graph"]["nodes"][0]["not_in_the_schema"] = {"deep": [1, 2]}
    schema = item_arrow_schema()
    lines = [orjson.dumps(r) + b"\n" for r in records]
    got = json_lines_to_table(lines, [mapped_columns(r) for r in records], schema)
    want = items_to_table(records)
    assert got.equals(want) and got.schema.metadata == want.schema.metadata
    assert got.column("extra").to_pylist()[0] == [
        {"key": "source", "value": "kitchen-7"},
        {"key": "note", "value": "é"},
    ]
    # a whole-number float in an integer column (the item schema's "integer" allows it): the same table
    records[1]["end_of_ambiguity"] = float(records[1]["end_of_ambiguity"])
    lines = [orjson.dumps(r) + b"\n" for r in records]
    assert json_lines_to_table(lines, [mapped_columns(r) for r in records], schema).equals(want)
    assert items_to_table(records).equals(want)
