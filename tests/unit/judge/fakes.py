"""A fake judge for the stage's tests: ``judge_pair``'s result shape, decided by the item's index, so a
test knows which pair is flagged for what."""

from __future__ import annotations

from typing import Any

from ambiforge.models import Item


def debates(*verdicts: str | None) -> dict[str, Any]:
    """A half as judge_pair records it: the debates' verdicts (None: no consensus) and their majority."""
    amb, clear = verdicts.count("ambiguous"), verdicts.count("clear")
    majority = None if amb == clear else "ambiguous" if amb > clear else "clear"
    return {
        "verdict": majority,
        "debates": [{"verdict": v, "consensus": v is not None, "rounds": 1} for v in verdicts],
    }


def result(ambiguous: tuple[str | None, ...], clear: tuple[str | None, ...], gets_gold: bool = True) -> dict[str, Any]:
    flags = []
    if sum(v == "ambiguous" for v in clear) * 2 > len(clear):
        flags.append({"check": "clear_judged_ambiguous", "message": "the clear task was judged ambiguous"})
    if sum(v == "clear" for v in ambiguous) * 2 > len(ambiguous):
        flags.append({"check": "ambiguous_judged_clear", "message": "the ambiguous task was judged clear"})
    if not gets_gold:
        flags.append({"check": "question_not_answered", "message": "the user redirected the question"})
    return {
        "debate": {"ambiguous": debates(*ambiguous), "clear": debates(*clear)},
        "dialogue": {
            "question": "q",
            "reply_kind": "gold" if gets_gold else "redirect",
            "reply": "a",
            "gets_gold": gets_gold,
            "resolves_step": gets_gold,
            "error": None,
        },
        "flags": flags,
        "calls": ["c1"],
    }


GOOD = result(("ambiguous",) * 3, ("clear",) * 3)
CLEAR_IS_AMBIGUOUS = result(("ambiguous",) * 3, ("ambiguous", "ambiguous", "clear"))


class FakeJudge:
    """Pair index 1 has a clear task the debates find ambiguous; every other pair is fine."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, record: dict[str, Any]) -> dict[str, Any]:
        self.seen.append(record["id"])
        return CLEAR_IS_AMBIGUOUS if record["provenance"]["index"] == 1 else GOOD


def judged(item: Item, outcome: dict[str, Any] = GOOD, **config: Any) -> Item:
    from ambiforge.config.judge import JudgeConfig
    from ambiforge.judge.summary import judgement_of

    cfg = JudgeConfig(enabled=True, models=("m1", "m2", "m3"), **config)
    return item.model_copy(update={"judgement": judgement_of(outcome, cfg)})
