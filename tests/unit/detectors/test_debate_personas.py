"""Personas: each agent's persona text reaches that agent's prompts (as Leader and as Follower, whichever
agent leads), the one rule for them, and the judge's settings carrying them into both halves' debates."""

from __future__ import annotations

from typing import Any

import pytest

from ambiforge.config.debate import MAX_PERSONA_CHARS, DebateSettings, persona_problem
from ambiforge.config.judge import JudgeConfig
from ambiforge.detectors.debate import AMBIGUOUS, CLEAR, debate, rotate
from ambiforge.detectors.model import CallTag, Completion, Messages
from ambiforge.detectors.tasks import halves
from ambiforge.errors import ConfigError
from ambiforge.judge.pair import judge_pair
from ambiforge.testing.scripted_eval import DebateScript, ScriptedModel, Scripts
from tests.unit.detectors.fixtures import PAIRS, agents

ITEM = PAIRS["preferences"]
AMB, CLR = halves(ITEM)
PERSONAS = (
    "You are a cautious safety inspector.",
    "You are a busy home cook who hates questions.",
    "You are a linguist who reads every word.",
)


class Spy:
    """Wraps a scripted agent and records, per call, its step and system prompt."""

    def __init__(self, model: ScriptedModel) -> None:
        self.model, self.name = model, model.name
        self.seen: list[tuple[str, str]] = []

    def complete(self, messages: Messages, tag: CallTag, **kw: Any) -> Completion:
        self.seen.append((tag.step, dict(messages)["system"]))
        return self.model.complete(messages, tag, **kw)

    def next_token_logprobs(self, *args: Any, **kw: Any) -> Any:
        raise AssertionError("a debate asks for no log-probabilities")


def spies(script: DebateScript, task: str = AMB.task) -> list[Spy]:
    return [Spy(m) for m in agents(Scripts(debates={task: script}))]


def test_each_agent_gets_its_own_persona_whoever_leads() -> None:
    models = spies(DebateScript(verdicts=(CLEAR, AMBIGUOUS), agree_from=2))  # two rounds: a revision too
    judged = rotate(AMB, models, DebateSettings(personas=PERSONAS))
    assert [d.leader for d in judged.debates] == [0, 1, 2] and judged.verdict == AMBIGUOUS
    for n, spy in enumerate(models):
        steps = [step for step, _ in spy.seen]
        assert steps.count("debate.lead") == 2 and steps.count("debate.follow") == 4  # leads once, follows twice
        for _, system in spy.seen:
            assert PERSONAS[n] in system
            assert not any(p in system for k, p in enumerate(PERSONAS) if k != n)


def test_without_personas_no_persona_text_is_sent() -> None:
    models = spies(DebateScript(verdicts=(AMBIGUOUS,)))
    debate(AMB, models, leader=1)
    assert all(not any(p in system for p in PERSONAS) for spy in models for _, system in spy.seen)


def test_personas_change_the_prompt_so_a_persona_is_its_own_cache_key() -> None:
    model = ScriptedModel("same", Scripts(debates={AMB.task: DebateScript(verdicts=(AMBIGUOUS,))}))
    rotate(AMB, [model] * 3)
    first = model.requests
    rotate(AMB, [model] * 3)
    assert model.requests == first  # the same debates: served from the memo
    rotate(AMB, [model] * 3, DebateSettings(personas=PERSONAS))
    assert model.requests == 2 * first  # other prompts: asked again


@pytest.mark.parametrize(
    ("personas", "agents_", "fragment"),
    [
        ((), 3, None),
        (PERSONAS, 3, None),
        (PERSONAS[:2], 2, None),
        (PERSONAS[:2], 3, "2 persona(s) for 3 agents"),
        (("a", " ", "c"), 3, "persona 2 is empty"),
        (("a", "b", "x" * (MAX_PERSONA_CHARS + 1)), 3, f"at most {MAX_PERSONA_CHARS}"),
    ],
)
def test_persona_rule(personas: tuple[str, ...], agents_: int, fragment: str | None) -> None:
    problem = persona_problem(personas, agents_)
    assert problem is None if fragment is None else fragment in (problem or "")


def test_judge_pair_passes_the_personas_to_both_halves() -> None:
    scripts = Scripts(
        debates={AMB.task: DebateScript(verdicts=(AMBIGUOUS,)), CLR.task: DebateScript(verdicts=(CLEAR,))}
    )
    models = [Spy(m) for m in agents(scripts)]
    out = judge_pair(ITEM, models, JudgeConfig(methods=("debate",), personas=PERSONAS))
    assert out.flags == ()
    for n, spy in enumerate(models):
        assert len(spy.seen) == 6  # three debates per half
        assert all(PERSONAS[n] in system for _, system in spy.seen)


def test_judge_pair_refuses_personas_that_do_not_fit_the_agents() -> None:
    with pytest.raises(ConfigError, match="judge personas: 2 persona"):
        judge_pair(
            ITEM,
            agents(Scripts()),
            JudgeConfig(methods=("debate",), models=("m1", "m2"), personas=PERSONAS[:2]),
        )
