"""What the public API's functions return: frozen records with the paths, counts and figures a caller reads
first, typed, plus ``to_dict()`` for the whole record as JSON-ready data (the summary, report or results
document the run wrote, the same the CLI prints from).

Why records and not the dicts the engine builds: a caller (a notebook, a flow, a type checker) sees which
figures exist and what they are, and the engine stays free to add keys to its documents. Nothing here
imports anything of ambiforge: the records are filled by :mod:`ambiforge.api`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _plain(record: Mapping[str, Any]) -> dict[str, Any]:
    """A copy the caller may change without changing the record."""
    return copy.deepcopy(dict(record))


@dataclass(frozen=True)
class BuildResult:
    """A finished build: its run folder and files, how many pairs were asked and items written."""

    run_id: str
    folder: Path
    items_jsonl: Path
    items_parquet: Path | None
    pairs_requested: int
    items_written: int
    rejected_count: int
    per_type: Mapping[str, int]
    seconds: float
    record: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_summary(cls, summary: Mapping[str, Any]) -> BuildResult:
        files = summary.get("files") or {}
        items = Path(files["items_jsonl"])
        parquet = files.get("items_parquet")
        seconds = (summary.get("seconds") or {}).get("total", 0.0)
        return cls(
            run_id=str(summary.get("run_id") or items.parent.name),
            folder=items.parent,
            items_jsonl=items,
            items_parquet=Path(parquet) if parquet else None,
            pairs_requested=int(summary["pairs_requested"]),
            items_written=int(summary["items_written"]),
            rejected_count=int(summary.get("rejected_count", 0)),
            per_type=dict(summary.get("per_type") or {}),
            seconds=float(seconds),
            record=summary,
        )

    def to_dict(self) -> dict[str, Any]:
        """The run's ``summary.json`` content (plus what the call added, such as the reference's diversity)."""
        return _plain(self.record)


@dataclass(frozen=True)
class ValidationResult:
    """A validated items file: the report's files and the counts that decide the exit code."""

    report_json: Path
    report_html: Path
    items: int
    passed: int
    with_errors: int
    with_warnings: int
    expectations_failed: int
    formula_cells: int
    record: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """No error-severity rule and no dataset expectation failed (the CLI's exit 0)."""
        return not self.with_errors and not self.expectations_failed

    def to_dict(self) -> dict[str, Any]:
        """``report``, ``expectations``, ``report_json``, ``report_html`` and ``formula_cells``."""
        return _plain(self.record)


@dataclass(frozen=True)
class ReleaseResult:
    """A written release folder, its item count and the manifest's sha256 to publish."""

    folder: Path
    version: str
    items: int
    manifest_sha256: str
    record: Mapping[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The release's ``manifest.json`` content."""
        return _plain(self.record)


@dataclass(frozen=True)
class VerifyResult:
    """A verified release: how many files and rows matched its manifest, and the manifest's sha256."""

    folder: Path
    files: int
    rows: int
    manifest_sha256: str
    record: Mapping[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return _plain(self.record)


@dataclass(frozen=True)
class EvalResult:
    """An eval's folder and the methods it scored; ``to_dict()`` is ``results.json`` (plus ``folder``)."""

    name: str
    folder: Path | None
    methods: tuple[str, ...]
    ambdif: Mapping[str, float | None]
    record: Mapping[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> EvalResult:
        methods = document.get("methods") or {}
        folder = document.get("folder")
        return cls(
            name=str(document.get("name", "")),
            folder=Path(folder) if folder else None,
            methods=tuple(methods),
            ambdif={m: (r.get("ambdif") or {}).get("all") for m, r in methods.items()},
            record=document,
        )

    def to_dict(self) -> dict[str, Any]:
        return _plain(self.record)


@dataclass(frozen=True)
class ReviewResult:
    """A review push (``imported``, ``already_there``) or pull (``items``, agreement): the counts as a record."""

    run_id: str
    record: Mapping[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return _plain(self.record)


@dataclass(frozen=True)
class EstimateResult:
    """What a build would cost before it runs (:func:`ambiforge.api.estimate`): per step and model
    (``steps``: step, provider, model, calls, input_tokens, output_tokens, cost_usd; ``cost_usd`` None for
    a model without a price), the totals, the models without a price and the assumptions the figures rest
    on. An offline build has no steps and costs nothing."""

    provider: str
    pairs: int
    candidates: int
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    models_without_price: tuple[str, ...]
    assumptions: tuple[str, ...]
    record: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def offline(self) -> bool:
        return self.calls == 0

    def to_dict(self) -> dict[str, Any]:
        """The whole estimate: ``steps``, ``per_model``, ``totals``, ``with_repairs`` (calls and cost if some
        calls are asked again), ``models_without_price``, ``assumptions``."""
        return _plain(self.record)
