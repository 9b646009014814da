"""A read-only attribute view of an item record that already passed ``schemas/item.schema.json``.

The release gate checks every row with the JSON Schema (jsonschema-rs). Building a pydantic ``Item`` from
each row afterwards would validate it a second time, against a schema generated from that same model, and
at 100,000 rows that second pass is a third of the release's time. The writers only read attributes, so a
view is enough; review outcomes, the one nested structure they interpret, are still built as models.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ambiforge.models import Review


def _ns(value: Any) -> Any:
    if isinstance(value, dict):
        return SimpleNamespace(**{k: _ns(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_ns(v) for v in value]
    return value


class RecordView:
    """The record read like an item. ``environment`` and ``provenance`` become namespaces when first read
    (the statistics read one, the provenance summary the other), ``review`` a model at once (every reader
    asks for the review state)."""

    __slots__ = ("_environment", "_provenance", "_record", "review")

    def __init__(self, record: dict[str, Any]) -> None:
        self._record = record
        self._environment: list[SimpleNamespace] | None = None
        self._provenance: Any = None
        review = record.get("review")
        self.review = Review.model_validate(review) if review is not None else None

    @property
    def environment(self) -> list[SimpleNamespace]:
        if self._environment is None:
            self._environment = [SimpleNamespace(**o) for o in self._record["environment"]]
        return self._environment

    @property
    def provenance(self) -> Any:
        if self._provenance is None:
            self._provenance = _ns(self._record["provenance"])
        return self._provenance

    def __getattr__(self, name: str) -> Any:
        try:
            return self._record[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_record(self) -> dict[str, Any]:
        return self._record
