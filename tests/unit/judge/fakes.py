"""A fake judge for the stage's tests: ``judge_pair``'s result, decided by the item's index, so a test
knows which pair is flagged for what."""

from __future__ import annotations

from typing import Any

from ambiforge.detectors.debate import Debate, Judged
from ambiforge.judge.pair import DialogueResult, Flag, PairJudgement
from ambiforge.models import Item


def debates(*verdicts: str | None) -> Judged:
    """A half as judge_pair judges it: the debates' verdicts (None: no consensus) and their majority."""
    amb, clear = verdicts.count("ambiguous"), verdicts.count("clear")
    majority = None if amb == clear else "ambiguous" if amb > clear else "clear"
    return Judged(
        majority, [Debate(n, f"m{n + 1}", rounds=1, consensus=v is not None, verdict=v) for n, v in enumerate(verdicts)]
    )


def result(ambiguous: tuple[str | None, ...], clear: tuple[str | None, ...], gets_gold: bool = True) -> PairJudgement:
    flags = []
    if sum(v == "ambiguous" for v in clear) * 2 > len(clear):
        flags.append(Flag("clear_judged_ambiguous", "the clear task was judged ambiguous"))
    if sum(v == "clear" for v in ambiguous) * 2 > len(ambiguous):
        flags.append(Flag("ambiguous_judged_clear", "the ambiguous task was judged clear"))
    if not gets_gold:
        flags.append(Flag("question_not_answered", "the user redirected the question"))
    dialogue = DialogueResult(
        question="q",
        reply_kind="gold" if gets_gold else "redirect",
        reply="a",
        gets_gold=gets_gold,
        resolves_step=gets_gold,
        resolves_reason="",
        user="keyword",
    )
    halves = {"ambiguous": debates(*ambiguous), "clear": debates(*clear)}
    return PairJudgement(halves, dialogue, tuple(flags), ("c1",))


GOOD = result(("ambiguous",) * 3, ("clear",) * 3)
CLEAR_IS_AMBIGUOUS = result(("ambiguous",) * 3, ("ambiguous", "ambiguous", "clear"))


class FakeJudge:
    """Pair index 1 has a clear task the debates find ambiguous; every other pair is fine."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, item: Item) -> PairJudgement:
        self.seen.append(item.id)
        return CLEAR_IS_AMBIGUOUS if item.provenance.index == 1 else GOOD  # type: ignore[union-attr]


def judged(item: Item, outcome: PairJudgement = GOOD, **config: Any) -> Item:
    from ambiforge.config.judge import JudgeConfig
    from ambiforge.judge.summary import judgement_of

    cfg = JudgeConfig(enabled=True, models=("m1", "m2", "m3"), **config)
    return item.model_copy(update={"judgement": judgement_of(outcome, cfg)})
