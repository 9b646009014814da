"""What rules need besides the item: the catalog (for grounding), thresholds, and earlier releases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from ambiforge.catalog import Catalog


class ValidationConfig(BaseModel):
    """Thresholds of the item rules (``[validation]`` in ambiforge.toml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_plan_steps: int = Field(default=13, ge=1)
    max_edit_ratio: float = Field(default=0.6, gt=0, le=1, description="token edits / longer task")
    min_task_words: int = 3
    max_task_words: int = 60
    max_question_words: int = 60
    max_answer_words: int = 60
    near_duplicate_similarity: float = Field(default=97.0, description="rapidfuzz ratio of content words")
    ambient_nouns: tuple[str, ...] = ("water",)  # group nouns every kitchen has without a scene object
    type_mix_tolerance: float = 0.03


@dataclass(frozen=True)
class RuleContext:
    catalog: Catalog | None = None
    config: ValidationConfig = field(default_factory=ValidationConfig)
    known_tasks: Mapping[str, str] = field(default_factory=dict)  # normalised task -> id in earlier releases
