"""Per-item results read back with their schema (``schemas/eval_result.schema.json``).

``eval rescore`` recomputes tables from a file a user hands it, which may have been edited, truncated or
forged; a row the tables cannot be computed from ended in a Python traceback deep in the metrics, and some
(a ``half`` of 123, a prediction set pointing past the options) were scored silently. Every row is checked
against the schema the eval writes it by, then for what the schema cannot say (each index of the prediction
set names an option; one score and one verdict per option; a registered type), and the first bad row is
named with its line and field.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from ambiforge import ambiguity, inputs
from ambiforge.errors import InputError
from ambiforge.resources import schema_path

SCHEMA = "eval_result.schema.json"


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    schema = json.loads(schema_path(SCHEMA).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def row_problem(row: Any) -> str | None:
    """Why ``row`` is not a per-item result the tables can use (its field first), or None."""
    if not isinstance(row, dict):
        return f"a JSON {type(row).__name__ if row is not None else 'null'}, not an object (one result per line)"
    error = best_match(_validator().iter_errors(row))
    if error is not None:
        field = "/".join(str(p) for p in error.absolute_path)
        if error.validator == "required":
            return f"field {error.message.split(' ')[0]} is missing (see {SCHEMA})"
        if error.validator == "additionalProperties":
            return f"{error.message} (see {SCHEMA})"
        return f"field {field or '(the row)'}: {_shown(error.instance)} is not valid ({error.message})"
    options = row["options"]
    for index in row["prediction_set"] or ():
        if index >= len(options):
            return f"field prediction_set: index {index} names no option ({len(options)} options)"
    for name in ("scores", "correct"):
        if len(row[name]) != len(options):
            return f"field {name}: {len(row[name])} values for {len(options)} options"
    if row["ambiguity_type"] not in ambiguity.names():
        return f"field ambiguity_type: {_shown(row['ambiguity_type'])} is not a registered ambiguity type"
    return None


def read_rows(source: Path) -> list[dict[str, Any]]:
    """The rows of ``source`` (results.jsonl), each checked; InputError names the first bad one."""
    rows = []
    for number, line in inputs.lines(source, "per-item results"):
        if not line.strip():
            continue
        try:
            record = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError:
            raise InputError(str(source), f"line {number}", "not UTF-8 text (is this a results.jsonl?)") from None
        except json.JSONDecodeError as exc:
            raise InputError(str(source), f"line {number}", f"not JSON: {exc.msg}") from None
        except RecursionError:
            raise InputError(str(source), f"line {number}", "JSON nested too deeply") from None
        problem = row_problem(record)
        if problem is not None:
            raise InputError(str(source), f"line {number}", f"not a per-item result: {problem}")
        rows.append(record)
    if not rows:
        raise InputError(str(source), "", "no per-item results")
    return rows


def read_summary(path: Path) -> dict[str, Any]:
    """``results.json`` beside the rows (its name and what it was evaluated on), or {} when absent."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(inputs.read_text(path, inputs.MANIFEST, "results.json"))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InputError(str(path), "", f"not JSON ({getattr(exc, 'msg', 'nested too deeply')})") from None
    if not isinstance(data, dict):
        raise InputError(str(path), "", f"a JSON {type(data).__name__}, not the eval's summary object")
    for key in ("name", "evaluated_on"):
        if key in data and not isinstance(data[key], str):
            raise InputError(str(path), key, f"{_shown(data[key])} is not text")
    return data
