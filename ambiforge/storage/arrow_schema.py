"""The item as an Arrow table: an explicit schema so lists stay lists and types never depend on the data.

Inferring the schema from rows would type an all-empty ``amb_shortlist`` column as null and an all-None
attribute as null too, so a later file of the same dataset would not concatenate. Field descriptions from
the pydantic model travel as Arrow field metadata. ``review`` is kept as a JSON string: it nests
annotations with free-form corrections that a struct type would have to freeze.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from ambiforge.models import Item

_STR = pa.string()
_BOOL = pa.bool_()


def _described(name: str, type_: pa.DataType, nullable: bool = True) -> pa.Field:
    info = Item.model_fields.get(name)
    meta = {"description": info.description} if info is not None and info.description else None
    return pa.field(name, type_, nullable=nullable, metadata=meta)


ENV_OBJECT_TYPE = pa.struct(
    [
        ("name", _STR),
        ("group", _STR),
        ("kind", _STR),
        ("noun", _STR),
        ("material", _STR),
        ("microwave_safe", _BOOL),
        ("oven_safe", _BOOL),
        ("dishwasher_safe", _BOOL),
        ("heat_resistant", _BOOL),
        ("sharp", _BOOL),
        ("needs_refrigeration", _BOOL),
        ("clean", _BOOL),
    ]
)
PROVENANCE_TYPE = pa.struct(
    [
        ("generator", _STR),
        ("generator_version", _STR),
        ("run_id", _STR),
        ("seed", pa.int64()),
        ("index", pa.int64()),
        ("template", _STR),
        ("catalog_version", _STR),
        ("catalog_sha256", _STR),
        ("models", pa.list_(pa.struct([("step", _STR), ("provider", _STR), ("model", _STR)]))),
        ("prompts", pa.list_(pa.struct([("id", _STR), ("version", _STR)]))),
        ("call_ids", pa.list_(_STR)),
    ]
)
VALIDATION_TYPE = pa.struct(
    [
        ("passed", _BOOL),
        ("failed", pa.list_(pa.struct([("rule", _STR), ("severity", _STR), ("message", _STR)]))),
    ]
)

ITEM_ARROW_SCHEMA = pa.schema(
    [
        _described("id", _STR, nullable=False),
        _described("environment", pa.list_(ENV_OBJECT_TYPE)),
        _described("environment_short", _STR),
        _described("environment_full", _STR),
        _described("unambiguous_direct", _STR),
        _described("unambiguous_indirect", _STR),
        _described("ambiguous_task", _STR),
        _described("ambiguity_type", _STR),
        _described("amb_shortlist", pa.list_(_STR)),
        _described("question", _STR),
        _described("answer", _STR),
        _described("plan_for_clear_task", pa.list_(_STR)),
        _described("plan_for_amb_task", pa.list_(_STR)),
        _described("end_of_ambiguity", pa.int32()),
        _described("user_intent", pa.list_(_STR)),
        _described("variants", pa.list_(_STR)),
        _described("provenance", PROVENANCE_TYPE),
        _described("validation", VALIDATION_TYPE),
        pa.field("review", _STR, metadata={"description": "human review outcome as JSON (see Review model)"}),
        # A list of key/value structs rather than an Arrow map: Hugging Face datasets cannot load maps.
        _described("extra", pa.list_(pa.struct([("key", _STR), ("value", _STR)]))),
    ],
    metadata={"ambiforge.item_schema": "schemas/item.schema.json"},
)


def _to_row(record: dict[str, Any]) -> dict[str, Any]:
    row = dict(record)
    review = row.get("review")
    row["review"] = json.dumps(review, ensure_ascii=False, sort_keys=True) if review is not None else None
    row["extra"] = [{"key": k, "value": v} for k, v in (row.get("extra") or {}).items()]
    return row


def items_to_table(items: Iterable[Item | dict[str, Any]]) -> pa.Table:
    rows = [_to_row(i.to_record() if isinstance(i, Item) else i) for i in items]
    return pa.Table.from_pylist(rows, schema=ITEM_ARROW_SCHEMA)


def table_to_records(table: pa.Table) -> list[dict[str, Any]]:
    """Rows back to item records (the inverse of :func:`items_to_table`)."""
    records = []
    for row in table.to_pylist():
        if row.get("review") is not None:
            row["review"] = json.loads(row["review"])
        row["extra"] = {kv["key"]: kv["value"] for kv in row.get("extra") or []}
        records.append(row)
    return records
