"""type: the ambiguity type fits what is asked. A safety item asks about a hazard; when its question, answer
and intent name none (no heat, blade, dirt, spoilage, electricity, unsafe material or "safe" itself: "Should
I peel the onion?" "Yes."), the item is another type. Registered with the hygiene family (see there)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.validation.rules.base import Rule

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

#: Word stems that name a kitchen hazard or its protection; one of them in the question, answer or intent
#: makes a safety item plausible.
_HAZARD = re.compile(
    r"safe|hazard|danger|injur|careful|caution|hot|heat|warm|burn|scald|steam|boil|fire|flame|smok|°|degree"
    r"|temperature|cool|cold|freez|fridge|refrigerat|mitt|potholder|pot holder|glove|sharp|knife|knives|blade"
    r"|cut|grater|slic|chop|microwave|oven|stove|electric|shock|unplug|plug|water"
    r"|dirty|clean|wash|rinse|wipe|sanit|hygien|bacteri|contamin|raw|undercook|spoil|expire|mold|rotten|fresh"
    r"|allerg|spill|slip|grease|oil|melt|pressure|lid|cover",
    re.I,
)


def check_type(item: Item, ctx: RuleContext) -> list[str]:
    if item.ambiguity_type != "safety":
        return []
    said = " ".join((item.question, item.answer, *item.user_intent))
    if not said.strip() or _HAZARD.search(said):
        return []
    return [f"ambiguity_type: 'safety', but the question and answer name no hazard: {item.question.strip()[:80]!r}"]


RULES = (Rule("type", "error", check_type, "a safety item asks about a hazard (heat, blades, hygiene, ...)"),)
