"""What the judge said about a pair, in the item's terms: a :class:`~ambiforge.judge.pair.PairJudgement`
-> :class:`Judgement`,
and the one-paragraph text annotators and the report read.

The item keeps a summary (majority verdict per half, how many debates agreed, the simulated user's
reply kind, the flags with their configured severity); the transcripts stay in ``judgements.jsonl``.
"""

from __future__ import annotations

from collections import Counter

from ambiforge.config.judge import JudgeConfig
from ambiforge.detectors.debate import Judged
from ambiforge.judge.pair import PairJudgement
from ambiforge.models import DialogueCheck, HalfJudgement, JudgeFlag, Judgement

HALVES = {"ambiguous_task": "ambiguous", "clear_task": "clear"}  # item field -> key in judge_pair's debate


def half_judgement(half: Judged | None) -> HalfJudgement | None:
    """The debates over one task; the verdict is judge_pair's (the majority of the debates that reached
    consensus; None, undecided, on a tie or when none did)."""
    if half is None:
        return None
    verdicts = Counter(d.verdict for d in half.debates if d.verdict in ("ambiguous", "clear"))
    return HalfJudgement(
        verdict=half.verdict if half.verdict in ("ambiguous", "clear") else None,
        debates=len(half.debates),
        judged_ambiguous=verdicts.get("ambiguous", 0),
        judged_clear=verdicts.get("clear", 0),
        consensus=sum(1 for d in half.debates if d.consensus),
    )


def judgement_of(result: PairJudgement, config: JudgeConfig) -> Judgement:
    debate = result.debate or {}
    dialogue = result.dialogue
    return Judgement(
        methods=list(config.methods),
        provider=config.provider,
        models=list(config.agents),
        personas=list(config.personas),
        rounds=config.rounds,
        ambiguous_task=half_judgement(debate.get("ambiguous")),
        clear_task=half_judgement(debate.get("clear")),
        dialogue=DialogueCheck(
            reply_kind=dialogue.reply_kind, gets_gold=dialogue.gets_gold, resolves_step=dialogue.resolves_step
        )
        if dialogue is not None
        else None,
        flags=[JudgeFlag(check=f.check, severity=config.severity_of(f.check), message=f.message) for f in result.flags],
    )


def _half_text(label: str, half: HalfJudgement | None) -> str:
    if half is None or half.debates == 0:
        return f"{label}: not debated"
    verdict = half.verdict or "undecided"
    agreeing = half.judged_ambiguous if half.verdict == "ambiguous" else half.judged_clear
    return f"{label} judged {verdict} ({agreeing}/{half.debates} debates, {half.consensus} in consensus)"


def shown(judgement: Judgement | None) -> str:
    """``Judge: ambiguous task judged ambiguous (3/3 debates, 3 in consensus); clear task judged ambiguous
    (2/3 ...)`` plus the simulated user and the flags: what an annotator reads as information."""
    if judgement is None:
        return "Judge: not run"
    parts = []
    if "debate" in judgement.methods:
        parts.append(_half_text("ambiguous task", judgement.ambiguous_task))
        parts.append(_half_text("clear task", judgement.clear_task))
    lines = ["Judge: " + "; ".join(parts)] if parts else ["Judge:"]
    d = judgement.dialogue
    if d is not None:
        gold = "gets the answer" if d.gets_gold else "does not get the answer"
        lines.append(f"Simulated user: the item's question {gold} (reply: {d.reply_kind or 'none'})")
    lines += [f"- {f.severity}: {f.check}: {f.message}" for f in judgement.flags]
    if not judgement.flags:
        lines.append("No judge flags.")
    return "\n".join(lines)
