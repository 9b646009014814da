"""``[validation]`` in ambiforge.toml: the item rules' thresholds and, per rule id, a severity.

Plain data: the rule ids a ``severity`` table names are checked against the rule registry before a command
works (:func:`ambiforge.engine.preflight.check_config`), since the rules live above this layer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_plan_steps: int = Field(default=30, ge=1, description="more steps than this: error (plan rule)")
    long_plan_steps: int = Field(default=13, ge=1, description="more steps than this: plan_length warning")
    max_edit_ratio: float = Field(
        default=0.6, gt=0, le=1, description="new or replaced words / ambiguous task's words (rewrite warning)"
    )
    max_rewrite_ratio: float = Field(
        default=0.9, gt=0, le=1, description="more new words than this: not a rewrite at all (minimal_pair error)"
    )
    min_task_words: int = 3
    max_task_words: int = 60
    max_question_words: int = 60
    max_answer_words: int = 60
    near_duplicate_similarity: float = Field(default=97.0, description="rapidfuzz ratio of content words")
    # Nouns every kitchen has without a scene object.
    ambient_nouns: tuple[str, ...] = ("water", "ice", "tap water", "ice cube")
    units: tuple[str, ...] = Field(default=DEFAULT_UNITS, description="measures: never grounded as objects")
    type_mix_tolerance: float = 0.03
    severity: dict[str, Severity] = Field(
        default_factory=dict, description="rule id -> 'error', 'warning' or 'off' (overrides the default)"
    )
