"""``[validation]`` in ambiforge.toml: the item rules' thresholds and, per rule id, a severity.

Plain data: the rule ids a ``severity`` table names are checked against the rule registry before a command
works (:func:`ambiforge.engine.preflight.check_config`), since the rules live above this layer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Severity = Literal["error", "warning", "off"]

#: Measures, not objects, when a number precedes or "of" follows: "1 tablespoon of honey", "a cup of flour",
#: "2 slices of bread" name no tableware.
DEFAULT_UNITS: tuple[str, ...] = (
    "tablespoon", "teaspoon", "tbsp", "tsp", "cup", "ounce", "oz", "gram", "kilogram", "kg", "g", "ml",
    "milliliter", "millilitre", "liter", "litre", "pound", "lb", "pinch", "dash", "handful", "quart", "pint",
    "clove", "sprig", "stick", "slice", "piece", "drop", "splash", "scoop", "dollop", "drizzle", "sprinkle",
    "serving", "portion", "bunch", "head", "wedge", "layer", "glass", "bowl", "mug", "can", "jar", "bottle",
    "packet", "pack", "bag", "box", "sheet", "strip", "cube", "spoonful", "cupful",
)  # fmt: skip


class ValidationConfig(BaseModel):
    """The ``[validation]`` section of ambiforge.toml: thresholds of the item rules and, per rule id, its
    severity (``severity = { length = "error", answer = "off" }``). Defaults keep legitimate content (long
    recipes, long tasks, heavy rewrites) at warnings and reserve errors for defects."""

    # No nan or inf: every comparison with nan is false, so a nan threshold silently passes everything.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    max_plan_steps: int = Field(default=30, ge=1, strict=True, description="more steps than this: error (plan rule)")
    long_plan_steps: int = Field(default=13, ge=1, strict=True, description="more steps than this: plan_length warning")
    max_edit_ratio: float = Field(
        default=0.6, gt=0, le=1, description="new or replaced words / ambiguous task's words (rewrite warning)"
    )
    max_rewrite_ratio: float = Field(
        default=0.9, gt=0, le=1, description="more new words than this: not a rewrite at all (minimal_pair error)"
    )
    max_dropped_words: int = Field(
        default=6,
        ge=1,
        strict=True,
        description="content words of the clear task, beside the intent's, that the ambiguous task may drop "
        "(more, and a third of the task or more: a rewrite warning, the pair may change more than the open point)",
    )
    # Integers are integers: ``true`` is not 1.
    min_task_words: int = Field(default=3, ge=0, strict=True)
    max_task_words: int = Field(default=60, ge=1, strict=True)
    max_question_words: int = Field(default=60, ge=1, strict=True)
    max_answer_words: int = Field(default=60, ge=1, strict=True)
    near_duplicate_similarity: float = Field(default=97.0, ge=0, le=100, description="rapidfuzz ratio of content words")
    # Nouns every kitchen has without a scene object.
    ambient_nouns: tuple[str, ...] = ("water", "tap water")
    units: tuple[str, ...] = Field(default=DEFAULT_UNITS, description="measures: never grounded as objects")
    type_mix_tolerance: float = Field(default=0.03, ge=0, le=1)
    severity: dict[str, Severity] = Field(
        default_factory=dict, description="rule id -> 'error', 'warning' or 'off' (overrides the default)"
    )

    @model_validator(mode="after")
    def _ranges(self) -> ValidationConfig:
        """A lower bound above its upper bound fails every item (``min_task_words = 100`` with 3 at most)."""
        if self.min_task_words > self.max_task_words:
            raise ValueError(
                f"min_task_words ({self.min_task_words}) is more than max_task_words ({self.max_task_words})"
            )
        return self
