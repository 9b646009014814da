"""The item as an Arrow table: an explicit schema so lists stay lists and types never depend on the data.

Inferring the schema from rows would type an all-empty ``amb_shortlist`` column as null and an all-None
attribute as null too, so a later file of the same dataset would not concatenate. Field descriptions from
the pydantic model travel as Arrow field metadata.

``review``, ``judgement`` and ``world`` are structs like ``provenance`` (an annotator's corrections, a mapping,
become a list of field/value pairs); the world is typed all the way down (graph nodes with attribute and
state structs, edges, the clear plan as action structs), never a JSON string, so DuckDB and ``datasets``
query it (``select len(world.graph.nodes)``). ``pa.Table.from_pylist`` drops any key its struct type does
not name, so these types must follow the models field for field (a test walks both).

``ambiguity_type`` is stored as its name (a string column, dictionary-encoded in the Parquet file), so
pandas and DuckDB show names. The Hugging Face ``datasets`` features in the schema metadata (key
``huggingface``) keep the class names of the ``ClassLabel`` (the registered types, ``ambiforge.ambiguity``,
in registry order); the release card declares the same ``ClassLabel``, and ``datasets`` turns the names
into it when it loads the release folder. Loading a bare Parquet file, ``datasets`` keeps the strings: it
takes a metadata feature only when the Arrow type matches it (a ClassLabel is int64).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.json as pa_json

from ambiforge import ambiguity
from ambiforge.models import Item

_STR = pa.string()
_BOOL = pa.bool_()


#: descriptions of fields the model leaves undescribed (the card lists every field)
DESCRIPTIONS = {
    "ambiguity_type": "how the ambiguous task is ambiguous: a class label over the registered types "
    "(see 'Ambiguity types'); stored as the name everywhere (JSONL, CSV, Parquet); datasets loads it as a "
    "ClassLabel",
    "world": "the item's kitchen as a scene graph (objects and places with their attributes and state, and "
    "the relations between them) and what the item claims about it as node ids: target, candidates, fitting "
    "and the clear plan as actions (see 'The world'); null for an item made without a world model",
    "provenance": "how the item was made: generator and version, run id, seed, position, template, catalog "
    "version and sha256, models, prompt ids and versions, LLM call ids",
    "validation": "the item rules' verdict: passed, and each failed rule with its severity and message",
    "judgement": "the judge stage's verdicts (None when not judged): methods, provider, models and round "
    "limit; per half the majority verdict of the debates, debates run, judged ambiguous and in consensus; the "
    "simulated user's reply to the item's question; and the flags with their severity",
    "review": "human review: status (unanimous, majority, adjudicated...), verdict, majority type, each "
    "annotation by pseudonym (annotator-1...), corrections applied and who made them",
}
CLASS_LABEL_COLUMN = "ambiguity_type"
HF_METADATA_KEY = b"huggingface"


def _described(name: str, type_: pa.DataType, nullable: bool = True) -> pa.Field:
    info = Item.model_fields.get(name)
    description = DESCRIPTIONS.get(name) or (info.description if info is not None else None)
    meta = {"description": description} if description else None
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

ATTRIBUTES_TYPE = pa.struct(
    [
        ("material", _STR),
        ("colour", _STR),
        ("size", _STR),
        ("microwave_safe", _BOOL),
        ("oven_safe", _BOOL),
        ("dishwasher_safe", _BOOL),
        ("heat_resistant", _BOOL),
        ("sharp", _BOOL),
        ("needs_refrigeration", _BOOL),
    ]
)
STATE_TYPE = pa.struct(
    [("open", _BOOL), ("switched_on", _BOOL), ("clean", _BOOL), ("full", _BOOL), ("temperature", _STR)]
)
NODE_TYPE = pa.struct(
    [
        ("id", _STR),
        ("type", _STR),
        ("name", _STR),
        ("noun", _STR),
        ("group", _STR),
        ("kind", _STR),
        ("modifier", _STR),
        ("mass", _BOOL),
        ("plural", _BOOL),
        ("tags", pa.list_(_STR)),
        ("uses", pa.list_(_STR)),
        ("holds", _STR),
        ("attributes", ATTRIBUTES_TYPE),
        ("state", STATE_TYPE),
    ]
)
EDGE_TYPE = pa.struct([("source", _STR), ("relation", _STR), ("target", _STR)])
GRAPH_TYPE = pa.struct(
    [
        ("version", pa.int32()),
        ("seed", pa.int64()),
        ("relations_known", _BOOL),
        ("nodes", pa.list_(NODE_TYPE)),
        ("edges", pa.list_(EDGE_TYPE)),
    ]
)
ACTION_TYPE = pa.struct(
    [
        ("verb", _STR),
        ("obj", _STR),
        ("target", _STR),
        ("tool", _STR),
        ("how", _STR),
        ("quantity", _STR),
        ("program", _STR),
        ("duration", _STR),
        ("person", _STR),
        ("question", _STR),
    ]
)
PERTURBATION_TYPE = pa.struct(
    [
        ("kind", _STR),
        ("graph", GRAPH_TYPE),
        ("added", pa.list_(_STR)),
        ("removed", pa.list_(_STR)),
        ("moved", pa.list_(_STR)),
        ("referent", _STR),
        ("views", pa.list_(pa.struct([("agent", _STR), ("nodes", pa.list_(_STR))]))),
        ("environment_short", _STR),
        ("environment_full", _STR),
    ]
)
WORLD_TYPE = pa.struct(
    [
        ("graph", GRAPH_TYPE),
        ("target", _STR),
        ("candidates", pa.list_(_STR)),
        ("affordance", _STR),
        ("fitting", pa.list_(_STR)),
        ("left_out", pa.list_(pa.struct([("node", _STR), ("reason", _STR), ("detail", _STR)]))),
        ("rationale", _STR),
        ("clear_plan", pa.list_(ACTION_TYPE)),
        ("perturbation", PERTURBATION_TYPE),
    ]
)

KEY_VALUE = pa.list_(pa.struct([("field", _STR), ("value", _STR)]))
REVIEW_TYPE = pa.struct(
    [
        ("status", _STR),
        ("verdict", _STR),
        ("ambiguity_type", _STR),
        (
            "annotations",
            pa.list_(
                pa.struct(
                    [
                        ("annotator", _STR),
                        ("verdict", _STR),
                        ("ambiguity_type", _STR),
                        ("failed_checks", pa.list_(_STR)),
                        ("corrections", KEY_VALUE),
                        ("task_id", pa.int64()),
                        ("annotation_id", pa.int64()),
                    ]
                )
            ),
        ),
        (
            "applied_corrections",
            pa.list_(pa.struct([("field", _STR), ("value", _STR), ("annotators", pa.list_(_STR))])),
        ),
        ("queued_for_adjudication", _BOOL),
        ("adjudicated_by", _STR),
    ]
)

HALF_JUDGEMENT_TYPE = pa.struct(
    [
        ("verdict", _STR),
        ("debates", pa.int64()),
        ("judged_ambiguous", pa.int64()),
        ("judged_clear", pa.int64()),
        ("consensus", pa.int64()),
    ]
)
JUDGEMENT_TYPE = pa.struct(
    [
        ("methods", pa.list_(_STR)),
        ("provider", _STR),
        ("models", pa.list_(_STR)),
        ("personas", pa.list_(_STR)),
        ("rounds", pa.int64()),
        ("ambiguous_task", HALF_JUDGEMENT_TYPE),
        ("clear_task", HALF_JUDGEMENT_TYPE),
        ("dialogue", pa.struct([("reply_kind", _STR), ("gets_gold", _BOOL), ("resolves_step", _BOOL)])),
        ("flags", pa.list_(pa.struct([("check", _STR), ("severity", _STR), ("message", _STR)]))),
    ]
)

FRAME_TYPE = pa.struct([("time", _STR), ("occasion", _STR), ("speaker", _STR), ("needed", _STR)])

_FIELDS = [
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
    _described("world", WORLD_TYPE),
    _described("frame", FRAME_TYPE),
    _described("provenance", PROVENANCE_TYPE),
    _described("validation", VALIDATION_TYPE),
    _described("review", REVIEW_TYPE),
    _described("judgement", JUDGEMENT_TYPE),
    # A list of key/value structs rather than an Arrow map: Hugging Face datasets cannot load maps.
    _described("extra", pa.list_(pa.struct([("key", _STR), ("value", _STR)]))),
]


def hf_feature(type_: pa.DataType) -> dict[str, Any]:
    """An Arrow type as a Hugging Face ``datasets`` feature (``Features.to_dict`` form)."""
    if pa.types.is_struct(type_):
        return {type_.field(k).name: hf_feature(type_.field(k).type) for k in range(type_.num_fields)}
    if pa.types.is_list(type_):
        return {"feature": hf_feature(type_.value_type), "_type": "List"}
    return {"dtype": "bool" if pa.types.is_boolean(type_) else str(type_), "_type": "Value"}


def hf_features(schema: pa.Schema, class_names: Sequence[str]) -> dict[str, Any]:
    features = {f.name: hf_feature(f.type) for f in schema}
    features[CLASS_LABEL_COLUMN] = {"names": list(class_names), "_type": "ClassLabel"}
    return features


def item_arrow_schema(class_names: Sequence[str] | None = None) -> pa.Schema:
    """The item schema with the ``datasets`` features (``ambiguity_type`` a ClassLabel over
    ``class_names``, by default the registered types) in its metadata."""
    names = list(class_names if class_names is not None else ambiguity.names())
    bare = pa.schema(_FIELDS)
    features = hf_features(bare, names)
    return bare.with_metadata(
        {
            "ambiforge.item_schema": "schemas/item.schema.json",
            HF_METADATA_KEY: json.dumps({"info": {"features": features}}),
        }
    )


ITEM_ARROW_SCHEMA = item_arrow_schema()


def _pairs(mapping: dict[str, str] | None, key: str = "field") -> list[dict[str, str]]:
    return [{key: k, "value": v} for k, v in (mapping or {}).items()]


def _review_row(review: dict[str, Any]) -> dict[str, Any]:
    row = dict(review)
    row["annotations"] = [a | {"corrections": _pairs(a.get("corrections"))} for a in review.get("annotations") or []]
    return row


def _review_record(row: dict[str, Any]) -> dict[str, Any]:
    review = dict(row)
    review["annotations"] = [
        a | {"corrections": {kv["field"]: kv["value"] for kv in a.get("corrections") or []}}
        for a in row.get("annotations") or []
    ]
    return review


def class_names_of(records: Sequence[dict[str, Any]]) -> list[str]:
    """The registered types, then any other type the records use (sorted)."""
    names = list(ambiguity.names())
    return names + sorted({r["ambiguity_type"] for r in records} - set(names))


def items_to_table(items: Iterable[Item | dict[str, Any]], class_names: Sequence[str] | None = None) -> pa.Table:
    """The items as a table; ``class_names`` (default: those of these records) fixes the ClassLabel in the
    metadata, so the batches of a streamed release share one schema."""
    records = [i.to_record() if isinstance(i, Item) else i for i in items]
    names = list(class_names) if class_names is not None else class_names_of(records)
    schema = item_arrow_schema(names)
    if not records:
        return schema.empty_table()
    try:
        return read_json_lines([json.dumps(_row(record)).encode("ascii") + b"\n" for record in records], schema)
    except pa.ArrowInvalid:
        return _converted(records, schema)


def _row(record: dict[str, Any]) -> dict[str, Any]:
    return record | mapped_columns(record)


def _converted(records: Iterable[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """The records converted from Python values: only for a value Arrow's JSON reader will not cast but
    ``from_pylist`` does, such as 3.0 in an integer column (the item schema's "integer" allows it)."""
    return pa.Table.from_pylist([_row(record) for record in records], schema=schema)


def read_json_lines(lines: Sequence[bytes], schema: pa.Schema) -> pa.Table:
    """JSON lines (each one row, ending in a newline) read by Arrow's JSON reader as the columns of
    ``schema``; keys the schema does not name are left out at every level, as ``from_pylist`` leaves them.

    Not ``pa.Table.from_pylist``: Arrow's conversion of Python objects imports pandas on its first use (0.4 s
    of CPU in a process that needs no pandas: a build's). A block must hold whole lines; one block (up to
    Arrow's 2 GiB) keeps the table in one chunk, as ``from_pylist`` made it, so the Parquet bytes stay the
    same. Raises ``pa.ArrowInvalid`` for a value the reader will not cast."""
    data = b"".join(lines)
    block = max(max(len(line) for line in lines), min(len(data), 2**31 - 1))
    table = pa_json.read_json(
        pa.BufferReader(data),
        read_options=pa_json.ReadOptions(use_threads=False, block_size=block),
        parse_options=pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
    )
    if table.column(0).num_chunks > 1:
        table = table.combine_chunks()
    # the reader keeps the types but not the fields' descriptions and nullability: the same columns, typed
    return pa.Table.from_arrays(table.columns, schema=schema)


#: The columns whose Arrow form is not their JSON form: mappings become lists of key/value structs.
MAPPED_COLUMNS = ("review", "extra")


def mapped_columns(record: dict[str, Any]) -> dict[str, Any]:
    """The record's :data:`MAPPED_COLUMNS` as their Arrow rows (a few small values, not the record)."""
    review = record.get("review")
    return {
        "review": _review_row(review) if review is not None else None,
        "extra": [{"key": k, "value": v} for k, v in (record.get("extra") or {}).items()],
    }


def json_lines_to_table(lines: Sequence[bytes], mapped: Sequence[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """The table :func:`items_to_table` makes of these records, from their JSON lines (``lines``, each one
    item record) and :func:`mapped_columns` of each (``mapped``), with ``schema`` (:func:`item_arrow_schema`).

    Arrow parses the lines into the schema's columns itself (:func:`read_json_lines`), so the rows' scene
    graphs never become Python objects here; the mapped columns, a few small values, are converted from
    Python (a release imports pandas anyway: its expectations run over a pandas frame)."""
    plain = pa.schema([f for f in schema if f.name not in MAPPED_COLUMNS])
    try:
        parsed = read_json_lines(lines, plain)
    except pa.ArrowInvalid:
        return _converted((orjson.loads(line) for line in lines), schema)
    mapped_table = pa.Table.from_pylist(list(mapped), schema=pa.schema([schema.field(n) for n in MAPPED_COLUMNS]))
    columns = [(mapped_table if f.name in MAPPED_COLUMNS else parsed).column(f.name) for f in schema]
    return pa.Table.from_arrays(columns, schema=schema)


def class_names_in(schema: pa.Schema) -> list[str] | None:
    raw = (schema.metadata or {}).get(HF_METADATA_KEY)
    if raw is None:
        return None
    return json.loads(raw)["info"]["features"][CLASS_LABEL_COLUMN]["names"]


def table_to_records(table: pa.Table) -> list[dict[str, Any]]:
    """Rows back to item records (the inverse of :func:`items_to_table`)."""
    records = []
    for row in table.to_pylist():
        if row.get("review") is not None:
            row["review"] = _review_record(row["review"])
        row["extra"] = {kv["key"]: kv["value"] for kv in row.get("extra") or []}
        world = row.get("world")
        if world is not None and world.get("left_out") is None:
            world["left_out"] = []  # rows written from records made before the field hold null
        records.append(row)
    return records
