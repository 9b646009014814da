"""Judging one pair: the contract the build's ``judge`` stage calls (:func:`judge_pair`).

- ``debate``: both halves are judged by rotating debates (:mod:`.debate`); the ambiguous task must come
  out ambiguous and the clear task clear.
- ``dialogue``: the item's own question is put to the simulated user (:mod:`.simulated_user`), which must
  answer with the gold answer, and the answer must resolve the clear plan's step (:mod:`.resolves`).

The judgement is a :class:`PairJudgement` (``to_record`` is the transcript of ``judgements.jsonl``);
problems are ``flags`` without a severity (the stage maps each check to a warning or an error from its
configuration):

- ``clear_judged_ambiguous`` / ``ambiguous_judged_clear``: a half's majority verdict is the wrong one (an
  undecided half, verdict None, is not flagged: see ``debate_error`` and the debates' records);
- ``question_not_answered``: the simulated user does not give the gold answer to the item's question;
- ``answer_does_not_resolve``: the gold answer does not resolve the clear plan's step;
- ``debate_error``: a debate ended on an unusable reply or a failed call (or the LLM user's call failed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pydantic import ValidationError

from ambiforge.config.debate import persona_problem
from ambiforge.config.judge import JudgeConfig
from ambiforge.detectors.debate import AMBIGUOUS, CLEAR, Judged, rotate
from ambiforge.detectors.model import EvalModel, call_seed
from ambiforge.detectors.resolves import resolves_step
from ambiforge.detectors.simulated_user import answer, hidden_from_item
from ambiforge.detectors.tasks import halves
from ambiforge.errors import ConfigError, InputError
from ambiforge.models import Item


def as_item(item: dict[str, Any] | Item) -> Item:
    """An item record (keys the model does not know, such as a stored judgement, are ignored)."""
    if isinstance(item, Item):
        return item
    try:
        return Item.model_validate({k: v for k, v in item.items() if k in Item.model_fields})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InputError("judge", f"item {item.get('id')!r}", f"{where}: {first['msg']}") from None


@dataclass(frozen=True)
class Flag:
    """A check the pair failed, without a severity (the stage gives it the configured one)."""

    check: str
    message: str

    def to_record(self) -> dict[str, str]:
        return {"check": self.check, "message": self.message}


@dataclass(frozen=True)
class DialogueResult:
    """The item's own question put to the simulated user, and whether the gold answer resolves the step."""

    question: str
    reply_kind: str | None
    reply: str | None
    gets_gold: bool
    resolves_step: bool
    resolves_reason: str
    user: str
    error: str | None = None

    def to_record(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PairJudgement:
    """What :func:`judge_pair` found: per half the rotating debates (None: not debated), the dialogue check
    (None: not run), the flags and the ids of every call made."""

    debate: dict[str, Judged] | None = None
    dialogue: DialogueResult | None = None
    flags: tuple[Flag, ...] = ()
    calls: tuple[str, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """The transcript as ``judgements.jsonl`` stores it."""
        return {
            "debate": None if self.debate is None else {half: j.to_record() for half, j in self.debate.items()},
            "dialogue": None if self.dialogue is None else self.dialogue.to_record(),
            "flags": [f.to_record() for f in self.flags],
            "calls": list(self.calls),
        }


def judge_pair(item: Item, agents: Sequence[EvalModel], settings: JudgeConfig, seed: int = 0) -> PairJudgement:
    """Judge one pair with ``settings.methods`` (the ``[judge]`` section: its debate settings, its user);
    ``agents`` are the debate's agents (every one leads once; ``settings.agents`` names their models) and
    ``agents[0]`` classifies questions for the LLM user; ``seed`` is the build's."""
    flags: list[Flag] = []
    calls: list[str] = []
    judged: dict[str, Judged] | None = None
    dialogue: DialogueResult | None = None
    if "debate" in settings.methods:
        if len(agents) < 2:
            raise ConfigError(f"judge: a debate needs at least two agents, got {len(agents)}")
        if problem := persona_problem(settings.personas, len(agents)):
            raise ConfigError(f"judge personas: {problem}")
        amb_task, clear_task = halves(item)
        judged = {
            AMBIGUOUS: rotate(amb_task, agents, settings, seed),
            CLEAR: rotate(clear_task, agents, settings, seed),
        }
        for j in judged.values():
            calls += j.calls
        if judged[CLEAR].verdict == AMBIGUOUS:
            flags.append(
                Flag("clear_judged_ambiguous", f"the debates judge the clear task ambiguous: {clear_task.task!r}")
            )
        if judged[AMBIGUOUS].verdict == CLEAR:
            flags.append(
                Flag("ambiguous_judged_clear", f"the debates judge the ambiguous task clear: {amb_task.task!r}")
            )
        for half, j in judged.items():
            for error in j.errors:
                flags.append(Flag("debate_error", f"{half} task, {error}"))
    if "dialogue" in settings.methods:
        hidden = hidden_from_item(item)
        model = agents[0] if agents else None
        asked = answer(
            item.question,
            hidden,
            settings.user,
            model,
            f"{item.id}:dialogue",
            call_seed(seed, item.id, "user"),
        )
        resolution = resolves_step(item)
        calls += list(asked.calls)
        dialogue = DialogueResult(
            question=item.question,
            reply_kind=asked.reply.kind,
            reply=asked.reply.text,
            gets_gold=asked.reply.gets_gold,
            resolves_step=resolution.ok,
            resolves_reason=resolution.reason,
            user=settings.user,
            error=asked.error,
        )
        if asked.error:
            flags.append(Flag("debate_error", f"simulated user: {asked.error}"))
        elif not asked.reply.gets_gold:
            flags.append(
                Flag(
                    "question_not_answered",
                    f"the simulated user answers the item's question with a {asked.reply.kind}: {item.question!r}",
                )
            )
        if not resolution.ok:
            flags.append(Flag("answer_does_not_resolve", resolution.reason))
    return PairJudgement(judged, dialogue, tuple(flags), tuple(calls))
