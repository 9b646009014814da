"""``[sampler]``: how scenes are drawn. The one model of the sampler's limits: the configuration reads it
and :func:`ambiforge.environment.sample_scene` takes it, so the defaults are declared once, here."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, field_validator


class SamplerConfig(BaseModel):
    """Per scene: how many food groups and kitchen-item groups, and how many objects of each group
    (``[low, high]``, both included)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    food_groups: tuple[int, int] = (2, 5)
    item_groups: tuple[int, int] = (2, 5)
    per_group: tuple[int, int] = (3, 5)

    @field_validator("food_groups", "item_groups", "per_group")
    @classmethod
    def _range(cls, value: tuple[int, int]) -> tuple[int, int]:
        low, high = value
        if low < 0 or low > high:
            raise ValueError(f"expected [low, high] with 0 <= low <= high, got [{low}, {high}]")
        if high > 1000:
            raise ValueError(f"at most 1000, got {high}")
        return value
