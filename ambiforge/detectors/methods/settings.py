"""Every method's settings from the two places a user sets them, read the same way for any method.

- ``[eval.methods.<name>]`` in ambiforge.toml: a table of that method's :attr:`Detector.Settings` fields
  (an unknown key, or a table for an unknown method, is an error naming it);
- the command line: a value given for a field name (``samples``, ``agents``, ...) applies to every
  method whose settings have that field, and wins over the file. A field's option name is
  ``--<name with dashes>`` unless the field declares another (``json_schema_extra={"option": "--persona"}``).

So a method with a new parameter declares it on its ``Settings`` model and nothing else changes: the file
reads it, the results record it (:func:`settings_record`).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from ambiforge.detectors.methods.base import MethodSettings, get, names
from ambiforge.errors import ConfigError

SECTION = "eval.methods"
#: the order ``results.json`` has listed the built-in methods' settings in since before each method had its
#: own; a field not named here follows them, in registry order
RECORD_ORDER = (
    "with_plan", "samples", "temperature", "lambda1", "lambda2", "top_logprobs", "seed", "agents", "rounds",
    "personas", "max_questions", "user",
)  # fmt: skip


def settings_class(method: str) -> type[MethodSettings]:
    return getattr(get(method), "Settings", MethodSettings)


def option_name(settings: type[MethodSettings], field: str) -> str:
    """The command-line option that sets ``field``."""
    extra = settings.model_fields[field].json_schema_extra
    declared = extra.get("option") if isinstance(extra, dict) else None
    return str(declared) if declared else "--" + field.replace("_", "-")


def option_error(option: str, message: str) -> str:
    """``--rounds must be at least 1, got 0`` or ``--persona: persona 2 is empty``."""
    return f"{option} {message}" if message.startswith("must ") else f"{option}: {message}"


def _message(exc: ValidationError) -> tuple[str, str]:
    first = exc.errors()[0]
    return ".".join(str(x) for x in first["loc"]), first["msg"].removeprefix("Value error, ")


def method_settings(
    tables: Mapping[str, Mapping[str, Any]] | None = None,
    options: Mapping[str, Any] | None = None,
    common: Mapping[str, Any] | None = None,
    source: str | None = None,
    methods: Iterable[str] | None = None,
    per_method: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, MethodSettings]:
    """Method name -> its settings, for ``methods`` (default: every registered one, so a bad value is found
    whatever ``--method`` says). ``common`` are the run's values every method shares (``with_plan``,
    ``seed``); ``source`` names the configuration file in errors. ``per_method``: one method's values
    (``--set METHOD.FIELD=VALUE``), which win over the file and over ``options``."""
    tables, options, common = tables or {}, options or {}, common or {}
    per_method = per_method or {}
    where = f"{source}: " if source else ""
    known = names()
    for name in tables:
        if name not in known:
            raise ConfigError(f"{where}{SECTION}.{name}: unknown method {name!r} (known: {', '.join(known)})")
    for name, values in per_method.items():
        if name not in known:
            raise ConfigError(f"--set {name}: unknown method {name!r} (known: {', '.join(known)})")
        fields = settings_class(name).model_fields
        for key in values:
            if key not in fields or key in MethodSettings.model_fields:
                own = ", ".join(f for f in fields if f not in MethodSettings.model_fields) or "none"
                raise ConfigError(f"--set {name}.{key}: {name} has no such setting (its settings: {own})")
    out: dict[str, MethodSettings] = {}
    for name in methods if methods is not None else known:
        cls = settings_class(name)
        table = dict(tables.get(name) or {})
        shared = set(MethodSettings.model_fields)
        for key in table.keys() & shared:  # the run's, not one method's: set on the command line
            raise ConfigError(f"{where}{SECTION}.{name}.{key}: a setting of the whole run, not of one method")
        try:  # strict, as the rest of the file: ``samples = "5"`` is refused, not read as 5
            cls.model_validate_json(json.dumps(table, default=str), strict=True)
        except ValidationError as exc:
            key, message = _message(exc)
            raise ConfigError(f"{where}{SECTION}.{name}{'.' + key if key else ''}: {message}") from None
        given = {k: v for k, v in options.items() if k in cls.model_fields}
        own = {k: _from_text(cls, k, v) for k, v in (per_method.get(name) or {}).items()}
        try:
            cls(**(table | given | own))
        except ValidationError as exc:
            key, message = _message(exc)
            if key in own:
                raise ConfigError(f"--set {name}.{key}: {message}") from None
        given |= own
        try:
            out[name] = cls(**(table | given | {k: v for k, v in common.items() if k in cls.model_fields}))
        except ValidationError as exc:
            key, message = _message(exc)
            if key in given:
                raise ConfigError(option_error(option_name(cls, key), message)) from None
            raise ConfigError(f"{where}{SECTION}.{name}{'.' + key if key else ''}: {message}") from None
    return out


def _from_text(cls: type[MethodSettings], field: str, value: Any) -> Any:
    """A command-line text for a tuple field is its comma-separated entries; pydantic reads the rest."""
    annotation = cls.model_fields[field].annotation
    if isinstance(value, str) and typing.get_origin(annotation) is tuple:
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


def settings_record(settings: Mapping[str, MethodSettings]) -> dict[str, Any]:
    """One flat record of the run's settings for ``results.json``: every field once (methods in registry
    order); a value that differs from the one already recorded under its name is kept as ``<method>.<field>``."""
    record: dict[str, Any] = {}
    for name, values in settings.items():
        for key, value in values.model_dump(mode="json").items():
            if key not in record:
                record[key] = value
            elif record[key] != value:
                record[f"{name}.{key}"] = value
    first = [key for key in RECORD_ORDER if key in record]
    return {key: record[key] for key in (*first, *(k for k in record if k not in RECORD_ORDER))}
