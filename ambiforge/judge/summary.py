"""What the judge said about a pair, in the item's terms: ``judge_pair``'s result -> :class:`Judgement`,
and the one-paragraph text annotators and the report read.

The item keeps a summary (majority verdict per half, how many debates agreed, the simulated user's
reply kind, the flags with their configured severity); the transcripts stay in ``judgements.jsonl``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ambiforge.config.judge import JudgeConfig
from ambiforge.models import DialogueCheck, HalfJudgement, JudgeFlag, Judgement

HALVES = {"ambiguous_task": "ambiguous", "clear_task": "clear"}  # item field -> key in judge_pair's debate


def half_judgement(half: dict[str, Any] | None) -> HalfJudgement | None:
    """The debates over one task; the verdict is judge_pair's (the majority of the debates that reached
    consensus; None, undecided, on a tie or when none did)."""
    if not half:
        return None
    debates = [d for d in half.get("debates") or [] if isinstance(d, dict)]
    verdicts = Counter(d.get("verdict") for d in debates if d.get("verdict") in ("ambiguous", "clear"))
    verdict = half.get("verdict") if half.get("verdict") in ("ambiguous", "clear") else None
    return HalfJudgement(
        verdict=verdict,
        debates=len(debates),
        judged_ambiguous=verdicts.get("ambiguous", 0),
        judged_clear=verdicts.get("clear", 0),
        consensus=sum(1 for d in debates if d.get("consensus")),
    )


def judgement_of(result: dict[str, Any], config: JudgeConfig) -> Judgement:
    debate = result.get("debate") or {}
    dialogue = result.get("dialogue")
    return Judgement(
        methods=list(config.methods),
        provider=config.provider,
        models=list(config.agents),
        personas=list(config.personas),
        rounds=config.rounds,
        ambiguous_task=half_judgement(debate.get("ambiguous")),
        clear_task=half_judgement(debate.get("clear")),
        dialogue=DialogueCheck(
            reply_kind=dialogue.get("reply_kind"),
            gets_gold=dialogue.get("gets_gold"),
            resolves_step=dialogue.get("resolves_step"),
        )
        if dialogue
        else None,
        flags=[
            JudgeFlag(check=str(f["check"]), severity=config.severity_of(str(f["check"])), message=str(f["message"]))
            for f in result.get("flags") or []
        ],
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
