"""Structured replies: parse a step's reply as JSON and check it against ``schemas/llm/<schema>.schema.json``.

The errors are written for the model as much as for the log: they go back verbatim in the repair prompt,
so they say where (the JSON path) and what (jsonschema's message). A client reads, checks and compiles each
schema once (:class:`ReplySchemas`, held for the client's lifetime: a run's).
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from ambiforge.errors import ConfigError

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def schemas_dir() -> Path:
    from ambiforge.resources import schema_path

    return schema_path("llm")


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` read from its file and checked as a schema."""
    path = schemas_dir() / f"{name}.schema.json"
    if not path.exists():
        raise ConfigError(f"{path}: schema for LLM step output not found")
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return schema


class ReplySchemas:
    """The step schemas a client has used, each loaded and compiled once. Under a lock: a build's pair
    threads reach the same step at the same moment, and each read and checked the schema itself before
    the first result was kept."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._validators: dict[str, Draft202012Validator] = {}

    def validator(self, name: str) -> Draft202012Validator:
        with self._lock:
            if name not in self._validators:
                self._validators[name] = Draft202012Validator(load_schema(name))
            return self._validators[name]

    def schema(self, name: str) -> dict[str, Any]:
        schema: dict[str, Any] = self.validator(name).schema
        return schema


def parse_reply(
    text: str, schema: str, schemas: ReplySchemas | None = None
) -> tuple[dict[str, Any] | None, str | None]:
    """``(parsed, None)`` or ``(None, why it is unusable)``. A ```json fence around the object is tolerated
    (models add one even in JSON mode). ``schemas``: the caller's loaded schemas (else ``schema`` is read)."""
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        return None, f"the reply is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
    validator = (schemas or ReplySchemas()).validator(schema)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        parts = []
        for error in errors[:5]:
            where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
            parts.append(f"{where}: {error.message}")
        return None, "the JSON does not match the schema: " + "; ".join(parts)
    return value, None


def response_format(mode: str, schema: str, schemas: ReplySchemas | None = None) -> dict[str, Any]:
    """The ``response_format`` a request carries: JSON schema mode (OpenAI structured outputs, Mistral
    ``json_schema``) or JSON mode with the schema in it (llama.cpp, llama-cpp-python and vLLM constrain
    the reply to it; a server that refuses the extra key gets plain JSON mode, see
    :func:`ambiforge.llm.client.fallback_format`)."""
    loaded = schemas.schema(schema) if schemas is not None else load_schema(schema)
    body = {k: v for k, v in loaded.items() if not k.startswith("$")}  # $schema/$id: ours only
    if mode == "json_object":
        return {"type": "json_object", "schema": body}
    return {"type": "json_schema", "json_schema": {"name": schema, "schema": body, "strict": True}}
