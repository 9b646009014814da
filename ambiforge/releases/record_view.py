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
    __slots__ = ("_record", "environment", "provenance", "review")

    def __init__(self, record: dict[str, Any]) -> None:
        self._record = record
        self.environment = [SimpleNamespace(**o) for o in record["environment"]]
        self.provenance = _ns(record["provenance"])
        review = record.get("review")
        self.review = Review.model_validate(review) if review is not None else None

    def __getattr__(self, name: str) -> Any:
        try:
            return self._record[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_record(self) -> dict[str, Any]:
        return self._record
