"""variants: when an item lists variants (the options open before the question), one of them is the intended
option, i.e. matches an intent concept (error), and for types with a shortlist they cover the shortlist
(warning: AmbiK often lists only the plausible few)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ambiforge.models import Item
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.shortlist import has_shortlist
from ambiforge.validation.rules.text import has, intent_concepts

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext


def _matches(a: str, b: str) -> bool:
    return has(a, b) or has(b, a)


def check_variants(item: Item, ctx: RuleContext) -> list[str]:
    variants = [v.strip() for v in item.variants if v.strip() and not v.strip().startswith("-")]
    if not variants:
        return []
    positives, _ = intent_concepts(item.user_intent)
    wanted = [a for alternatives in positives for a in alternatives]
    if wanted and not any(_matches(v, a) for v in variants for a in wanted):
        return [f"variants: none is the intended option ({', '.join(wanted)})"]
    return []


def check_cover(item: Item, ctx: RuleContext) -> list[str]:
    variants = [v.strip() for v in item.variants if v.strip() and not v.strip().startswith("-")]
    if not variants or not has_shortlist(item.ambiguity_type):
        return []
    missing = [s for s in item.amb_shortlist if s.strip() and not any(_matches(s, v) for v in variants)]
    return [f"variants: miss shortlisted option(s) {', '.join(repr(m) for m in missing)}"] if missing else []


ORDER = 70  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = (
    Rule("variants", "error", check_variants, "variants, when present, include the intended option"),
    Rule("variants_shortlist", "warning", check_cover, "variants cover the shortlist (types with a shortlist)"),
)
