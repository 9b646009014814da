"""What rules need besides the item: the catalog (for grounding), the ``[validation]`` section (thresholds,
severities: :class:`~ambiforge.config.validation.ValidationConfig`), earlier releases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ambiforge.catalog import Catalog
from ambiforge.config.validation import ValidationConfig


@dataclass(frozen=True)
class RuleContext:
    catalog: Catalog | None = None
    config: ValidationConfig = field(default_factory=ValidationConfig)
    known_tasks: Mapping[str, str] = field(default_factory=dict)  # normalised task -> id in earlier releases

    def severity(self, rule_id: str, default: str) -> str:
        """The rule's severity: the configured one, else the rule's own."""
        return self.config.severity.get(rule_id, default)
