"""Sections that stages above validation add to the validation report, through a registry (entry-point
group ``ambiforge.report_sections``), so the report never imports them: the judge's section
(:mod:`ambiforge.judge.report`) is one.

A section sees every item the report sees (:meth:`SectionBuilder.add`) and gives, at the end, its block of
``report.json`` under its name (or None: the section is left out, e.g. no item was judged), the issues it
adds to ``issues`` and the keys it adds to the summary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ambiforge.models import Item
from ambiforge.registry import Registry


class SectionBuilder(Protocol):
    def add(self, item: Item) -> None: ...

    def result(self) -> SectionResult | None: ...


@dataclass(frozen=True)
class SectionResult:
    section: dict[str, Any]
    issues: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReportSection:
    """``name`` is the section's key in ``report.json``; ``builder`` makes a fresh builder per report."""

    name: str
    builder: Callable[[], SectionBuilder]


SECTIONS: Registry[ReportSection] = Registry("report section", "ambiforge.report_sections")
