"""An independent reader of items: plan text read back into steps with its own grammar (not the generator's
step specs or renderer), run in the item's kitchen against the preconditions table; task text read for one
speaker at one moment. See docs/world-model.md ("The reader")."""

from ambiforge.validation.reader.grammar import Step, read_plan, read_sentence
from ambiforge.validation.reader.read import read_item, variants_problems
from ambiforge.validation.reader.speech import (
    frame_conflict,
    greeting_inside,
    later_at_once,
    number_problems,
    time_contradiction,
)

__all__ = [
    "Step",
    "frame_conflict",
    "greeting_inside",
    "later_at_once",
    "number_problems",
    "read_item",
    "read_plan",
    "read_sentence",
    "time_contradiction",
    "variants_problems",
]
