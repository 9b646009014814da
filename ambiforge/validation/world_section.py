"""The ``world`` block of the validation report: how many items the world rules could check, and why the
others were skipped (no world model, relations unknown, plan not known as actions), so a maintainer sees
what the checks rest on instead of reading silence as a pass."""

from __future__ import annotations

from collections import Counter

from ambiforge.models import Item
from ambiforge.validation.report_sections import ReportSection, SectionResult
from ambiforge.validation.rules.world import skip_reason


class WorldSection:
    def __init__(self) -> None:
        self.items = 0
        self.with_world = 0
        self.skipped: dict[str, Counter[str]] = {"all": Counter(), "plan": Counter()}

    def add(self, item: Item) -> None:
        self.items += 1
        self.with_world += item.world is not None
        for need, counts in self.skipped.items():
            reason = skip_reason(item.world, need)
            if reason is not None:
                counts[reason] += 1

    def result(self) -> SectionResult | None:
        if not self.with_world:
            return None
        plan_checked = self.items - sum(self.skipped["plan"].values())
        section = {
            "items": self.items,
            "with_world": self.with_world,
            "checked": self.items - sum(self.skipped["all"].values()),
            "plans_checked": plan_checked,
            "skipped": {need: dict(sorted(c.items())) for need, c in self.skipped.items() if c},
        }
        return SectionResult(section, summary={"world_plans_checked": plan_checked})


SECTION = ReportSection("world", WorldSection)
