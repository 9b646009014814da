"""A multi-agent debate on whether a task is ambiguous in its scene (after the seed paper on LLM debate for
ambiguity detection).

Three agents (models, possibly different, optionally with persona text): one Leader and two Followers.
Each round the Leader gives a verdict (clear, or ambiguous with one clarifying question, reasoning in about
four sentences); each Follower answers Agree or Disagree with its reasoning and optionally an alternative
question. When every Follower agrees the debate has reached consensus and the Leader's verdict is final;
otherwise the Leader revises with all the feedback. A debate stops on consensus, at the round limit (no
consensus: no final verdict) or on an unusable reply (recorded as the debate's error).

:func:`rotate` runs one debate per leader, so every agent leads on every task, and the task's verdict is the
majority of those debates' final verdicts (:func:`majority`).

Every call goes through the :class:`~ambiforge.detectors.model.EvalModel` (the LLM client: cache, limits,
cost, call log) with the prompt's id and version and a deterministic seed per (task, leader, round, role),
so three copies of one model still give three debates, and a rerun is served from the cache.
Round limit and personas come from one :class:`~ambiforge.config.debate.DebateSettings`, the same model
for the ``[judge]`` configuration and ``eval --method debate`` (so its checks, one non-empty persona of at
most 500 characters per agent, are written once). Personas (``personas[i]`` for ``agents[i]``) go into
that agent's system prompt whatever its role, so an agent keeps its persona when the leader rotates.

A debate's ``tokens`` are the prompt plus completion tokens the provider reported for its calls (the
:class:`~ambiforge.detectors.model.Completion`'s usage, from the LLM client). A reply served from the
cache counts the usage recorded when it was made, so a rerun reports what the debate consumed, not 0
(``calls.jsonl`` tells paid and cached calls apart). Only a call whose provider reported no usage (a fake
model, a server without ``usage``) is *estimated* at prompt and reply characters / 4, and then the debate's
``tokens_estimated`` is True.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ambiforge.config.debate import DEFAULT_AGENTS, DebateSettings
from ambiforge.detectors import prompts
from ambiforge.detectors.model import CallTag, EvalModel, Messages, call_seed
from ambiforge.detectors.tasks import EvalTask
from ambiforge.errors import LLMCallError, LLMOutputError

AMBIGUOUS, CLEAR = "ambiguous", "clear"
LEAD_PROMPT, FOLLOW_PROMPT = "judge_debate_lead", "judge_debate_follow"
CHARS_PER_TOKEN = 4
#: every agent's sampling temperature and reply length (the seed paper's; not a setting of either caller)
TEMPERATURE = 0.5
MAX_TOKENS = 350

_VERDICT = re.compile(r"verdict\W{0,4}\s*(not\s+ambiguous|unambiguous|ambiguous|clear)\b", re.IGNORECASE)
_BARE_VERDICT = re.compile(r"^\W*(not\s+ambiguous|unambiguous|ambiguous|clear)\b", re.IGNORECASE)
_ANY_VERDICT = re.compile(r"\b(not\s+ambiguous|unambiguous|ambiguous|clear)\b", re.IGNORECASE)
_QUESTION = re.compile(r"^\W*(?:clarifying\s+)?question\W{0,4}\s*(.*)$", re.IGNORECASE | re.MULTILINE)
_ALTERNATIVE = re.compile(r"^\W*alternative(?:\s+question)?\W{0,4}\s*(.*)$", re.IGNORECASE | re.MULTILINE)
_REASONING = re.compile(r"^\W*reasoning\W{0,4}\s*(.*)", re.IGNORECASE | re.MULTILINE | re.DOTALL)
_ANSWER = re.compile(r"answer\W{0,4}\s*(disagree|agree)\b", re.IGNORECASE)
_BARE_ANSWER = re.compile(r"\b(disagree|agree)\b", re.IGNORECASE)
_NONE = {"", "none", "n/a", "na", "-", "no question", "nothing", "null"}
_ASKED = re.compile(r"[^.!?\n]*\?")


@dataclass(frozen=True)
class LeaderTurn:
    verdict: str  # AMBIGUOUS or CLEAR
    question: str | None
    reasoning: str


@dataclass(frozen=True)
class FollowerTurn:
    agrees: bool
    reasoning: str
    question: str | None


class Unusable(ValueError):
    """A reply the debate cannot use (no verdict, no Agree/Disagree, ambiguous without a question)."""


@dataclass
class Debate:
    """One debate on one task with one leader."""

    leader: int  # index into the agents
    leader_model: str
    rounds: int = 0
    consensus: bool = False
    verdict: str | None = None  # the Leader's verdict at consensus; None without consensus or on an error
    question: str | None = None  # the Leader's question at the end (ambiguous verdicts)
    verdicts: list[dict[str, Any]] = field(default_factory=list)  # one per round
    tokens: int = 0
    tokens_estimated: bool = False  # True when any call's tokens were estimated (no usage reported)
    seconds: float = 0.0
    error: str | None = None
    calls: list[str] = field(default_factory=list)
    cached_calls: int = 0

    def to_record(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "leader_model": self.leader_model,
            "rounds": self.rounds,
            "consensus": self.consensus,
            "verdict": self.verdict,
            "question": self.question,
            "verdicts": self.verdicts,
            "tokens": self.tokens,
            "tokens_estimated": self.tokens_estimated,
            "seconds": round(self.seconds, 3),
            "error": self.error,
        }


def _clean(text: str) -> str:
    return text.strip().strip("*_\"'` ").strip()


def _optional_question(raw: str | None) -> str | None:
    if raw is None:
        return None
    text = _clean(raw.splitlines()[0] if raw.strip() else "")
    return None if text.lower().rstrip(".") in _NONE else text


def _verdict_word(word: str) -> str:
    return AMBIGUOUS if word.lower() == AMBIGUOUS else CLEAR


def _reasoning(text: str) -> str:
    found = _REASONING.search(text)
    body = found.group(1) if found else text
    body = _ALTERNATIVE.split(body)[0] if found else body
    return " ".join(body.split())[:1200]


def _only_verdict(text: str) -> str | None:
    """The verdict when the reply's first sentences name one side only ("The task is ambiguous: ...")."""
    sides = {_verdict_word(m.group(1)) for m in _ANY_VERDICT.finditer(text[:200])}
    return sides.pop() if len(sides) == 1 else None


def parse_leader(text: str) -> LeaderTurn:
    """``Verdict: clear|ambiguous`` (or a reply that starts with the word, or whose first sentences name one
    side only), ``Question: ...``; an ambiguous verdict needs a question (a ``Question:`` line, else the first
    sentence ending in "?"). A reply naming both sides without a ``Verdict:`` is unusable."""
    found = _VERDICT.search(text) or _BARE_VERDICT.search(text)
    verdict = _verdict_word(found.group(1)) if found else _only_verdict(text)
    if verdict is None:
        raise Unusable(f"no verdict (clear or ambiguous) in the Leader's reply: {text[:80]!r}")
    line = _QUESTION.search(text)
    question = _optional_question(line.group(1)) if line else None
    if verdict == AMBIGUOUS and question is None:
        asked = _ASKED.search(text)
        question = _clean(asked.group(0)) if asked else None
        if not question:
            raise Unusable(f"an ambiguous verdict without a clarifying question: {text[:80]!r}")
    return LeaderTurn(verdict, question if verdict == AMBIGUOUS else None, _reasoning(text))


def parse_follower(text: str) -> FollowerTurn:
    """``Answer: Agree|Disagree`` (or the first Agree/Disagree in the reply), ``Alternative question: ...``."""
    found = _ANSWER.search(text) or _BARE_ANSWER.search(text)
    if found is None:
        raise Unusable(f"no Agree or Disagree in a Follower's reply: {text[:80]!r}")
    line = _ALTERNATIVE.search(text)
    return FollowerTurn(
        found.group(1).lower() == "agree", _reasoning(text), _optional_question(line.group(1) if line else None)
    )


def _tokens(messages: Messages, reply: str) -> int:
    return (sum(len(c) for _, c in messages) + len(reply) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def _persona(personas: Sequence[str], index: int) -> str:
    return personas[index] if index < len(personas) else ""


def debate(
    task: EvalTask,
    agents: Sequence[EvalModel],
    leader: int,
    settings: DebateSettings = DebateSettings(),  # noqa: B008 - frozen model, safe default
    seed: int = 0,
    *,
    max_tokens: int = MAX_TOKENS,
) -> Debate:
    """One debate on ``task`` led by ``agents[leader]``; the others follow, in agent order after the leader.
    ``settings`` give the round limit and the personas (``settings.agents`` are the caller's to resolve)."""
    if len(agents) < 2:
        raise ValueError("a debate needs at least two agents (the paper uses three)")
    n = len(agents)
    followers = [(leader + k) % n for k in range(1, n)]
    result = Debate(leader, agents[leader].name)
    start = time.monotonic()
    common = {"appliances": list(task.appliances), "environment": task.environment, "task": task.task}
    lead_prompt, follow_prompt = prompts.prompt(LEAD_PROMPT), prompts.prompt(FOLLOW_PROMPT)
    feedback: list[dict[str, Any]] = []
    previous: LeaderTurn | None = None

    def ask(agent: int, role: str, round_: int, messages: Messages, prompt_id: str, version: str) -> str:
        reply = agents[agent].complete(
            messages,
            CallTag(f"debate.{role}", prompt_id, version, task.key),
            temperature=TEMPERATURE,
            max_tokens=max_tokens,
            seed=call_seed(seed, task.key, "debate", leader, round_, role, agent),
        )
        result.calls.append(reply.call_id)
        result.cached_calls += int(reply.cached)
        reported = reply.tokens
        if reported is None:
            result.tokens += _tokens(messages, reply.text)
            result.tokens_estimated = True
        else:
            result.tokens += reported
        return reply.text

    try:
        for round_ in range(1, settings.rounds + 1):
            result.rounds = round_
            messages = lead_prompt.render(
                {
                    **common,
                    "round": round_,
                    "persona": _persona(settings.personas, leader),
                    "feedback": feedback,
                    "previous_verdict": previous.verdict if previous else "",
                    "previous_question": (previous.question or "") if previous else "",
                }
            )
            turn = parse_leader(ask(leader, "lead", round_, messages, lead_prompt.id, lead_prompt.version))
            record: dict[str, Any] = {"round": round_, "verdict": turn.verdict, "question": turn.question}
            result.verdicts.append(record)
            result.question = turn.question
            answers: list[FollowerTurn] = []
            for agent in followers:
                messages = follow_prompt.render(
                    {
                        **common,
                        "round": round_,
                        "persona": _persona(settings.personas, agent),
                        "verdict": turn.verdict,
                        "question": turn.question or "",
                        "reasoning": turn.reasoning,
                    }
                )
                answers.append(
                    parse_follower(ask(agent, "follow", round_, messages, follow_prompt.id, follow_prompt.version))
                )
                record["agree"] = [a.agrees for a in answers]
            record["alternatives"] = [a.question for a in answers]
            if all(a.agrees for a in answers):
                result.consensus, result.verdict = True, turn.verdict
                break
            previous = turn
            feedback = [
                {"answer": "Agree" if a.agrees else "Disagree", "reasoning": a.reasoning, "question": a.question or ""}
                for a in answers
            ]
    except Unusable as exc:
        result.error = str(exc)
    except (LLMCallError, LLMOutputError) as exc:
        result.error = f"call failed: {exc}"
    result.seconds = time.monotonic() - start
    return result


def majority(debates: Sequence[Debate]) -> str | None:
    """The task's verdict from its debates. Only debates that reached consensus vote (a debate without
    consensus, or with an error, has no final verdict and abstains); the verdict with more votes wins, and a
    tie, or no vote at all, gives None (undecided)."""
    votes = [d.verdict for d in debates if d.consensus and d.verdict is not None]
    amb, clear = votes.count(AMBIGUOUS), votes.count(CLEAR)
    if amb == clear:
        return None
    return AMBIGUOUS if amb > clear else CLEAR


@dataclass
class Judged:
    """A task judged by rotating debates: one per leader, every agent leads once."""

    verdict: str | None
    debates: list[Debate]

    def to_record(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "debates": [d.to_record() for d in self.debates]}

    @property
    def calls(self) -> list[str]:
        return [c for d in self.debates for c in d.calls]

    @property
    def errors(self) -> list[str]:
        return [f"leader {d.leader} ({d.leader_model}): {d.error}" for d in self.debates if d.error]


def rotate(
    task: EvalTask,
    agents: Sequence[EvalModel],
    settings: DebateSettings = DebateSettings(),  # noqa: B008 - frozen model, safe default
    seed: int = 0,
) -> Judged:
    """One debate per leader (sequentially: callers run tasks in parallel), then :func:`majority`."""
    debates = [debate(task, agents, leader, settings, seed) for leader in range(len(agents))]
    return Judged(majority(debates), debates)


def agents_for(model: EvalModel, names: Sequence[str], count: int = DEFAULT_AGENTS) -> list[EvalModel]:
    """The debate's agents: ``names`` (models on the eval model's provider and client, through its
    ``with_model``), or ``count`` times the eval's model (the seeds still differ per role and leader)."""
    from ambiforge.errors import ConfigError

    if not names:
        return [model] * count
    agents: list[EvalModel] = []
    for name in names:
        if name == model.name:
            agents.append(model)
            continue
        other = getattr(model, "with_model", None)
        if other is None:
            raise ConfigError(f"--agents: model {model.name!r} cannot lend its client to {name!r}")
        agents.append(other(name))
    if len(agents) < 2:
        raise ConfigError(f"--agents: a debate needs at least two agents, got {len(agents)}")
    return agents
