"""The JSON Schema of the item, generated from the pydantic model.

``schemas/item.schema.json`` is the published contract for researchers and other tools; it is generated
from :class:`ambiforge.models.Item` (``ambiforge schema --write``) and a test fails when the file and the
model drift apart.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs

from ambiforge import ambiguity
from ambiforge.models.item import Item

SCHEMA_ID = "https://ambiforge.dev/schemas/item.schema.json"


def item_json_schema() -> dict[str, Any]:
    """The schema as of now: ``ambiguity_type`` is an enum of the registered types (built-in ones for the
    published file; a build that registers a type's folder validates against a schema that knows it)."""
    schema = Item.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def render_item_schema() -> str:
    return json.dumps(item_json_schema(), indent=2, ensure_ascii=False) + "\n"


def repo_schema_path() -> Path:
    from ambiforge.resources import schema_path

    return schema_path("item.schema.json")


#: Held while a validator is looked up or compiled: an LLM build's pair threads reach their first check at
#: about the same moment, and each compiled its own (0.1 s of CPU each) before the first was cached.
_COMPILING = threading.Lock()


def item_validator() -> Any:
    """Validator over the schema for the types registered now (compiled once per set of types)."""
    names = ambiguity.names()
    with _COMPILING:
        return _validator(names)


@lru_cache(maxsize=8)
def _validator(type_names: tuple[str, ...]) -> Any:
    """Validator over the generated schema (the same text as the file, which a test keeps in step).

    jsonschema-rs (Rust) rather than the pure-Python ``jsonschema``: the build and the release gate check
    every record, and a release may hold 100,000.
    """
    return jsonschema_rs.validator_for(_schema_for(type_names))


def _schema_for(type_names: tuple[str, ...]) -> dict[str, Any]:
    """The published file when it lists exactly these types (a test keeps it equal to the model's schema,
    and reading it costs a millisecond where generating it costs a third of a second a process), else the
    schema generated for them."""
    path = repo_schema_path()
    if path.is_file():
        published: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        if tuple(published.get("properties", {}).get("ambiguity_type", {}).get("enum", ())) == type_names:
            return published
    return item_json_schema()


def item_errors(item: Item) -> list[str]:
    """Every way ``item`` breaks the item schema (the ``path: message`` lines of :func:`schema_errors`)."""
    return schema_errors(item.to_record())


def schema_errors(record: dict[str, Any]) -> list[str]:
    """Every way ``record`` breaks the item schema, as 'path: message' lines (empty when valid)."""
    validator = item_validator()
    if validator.is_valid(record):
        return []
    return [
        f"{'/'.join(str(p) for p in e.instance_path) or '(item)'}: {e.message}" for e in validator.iter_errors(record)
    ]
