"""reader: every item with a kitchen read by the independent reader (:mod:`ambiforge.validation.reader`).

The world rules check an item's claims with the same model of the kitchen the generator used; the reader
reads what the item says (plan text, task text) with a grammar of its own and runs it in the item's
kitchen, so a step that cannot happen as written ("Pour the water over the tea" with no cup), an object
used but never fetched, a cut with no knife in hand, an unheated "hot" pan, a greeting in the middle of a
request or a time contradiction is an error naming the step and the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.validation.reader import read_item
from ambiforge.validation.rules.base import family_rules

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

ORDER = 80  # after the world rules


def check_reader(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    found = read_item(item)
    return [(f"reader_{kind}", message) for kind, messages in found.items() for message in messages]


RULES = family_rules(
    check_reader,
    ("reader_plan", "error", "the plans as read run in the item's kitchen and agree with its actions"),
    (
        "reader_variants",
        "error",
        "every candidate that does the job is a variant or shortlisted; each one left out has a reason that holds",
    ),
    (
        "reader_speech",
        "error",
        "one speaker, one moment: a greeting opens a request; times, frame and number agree",
    ),
)
