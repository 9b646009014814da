"""Debates driven by the scripted model: consensus in round 1 and in round k, no consensus at the limit, an
unusable reply; rotation makes each agent lead; the majority; tolerant but strict reply parsing."""

from __future__ import annotations

from collections import Counter

import pytest

from ambiforge.config.debate import DebateSettings
from ambiforge.detectors.debate import (
    AMBIGUOUS,
    CLEAR,
    Debate,
    Unusable,
    agents_for,
    debate,
    majority,
    parse_follower,
    parse_leader,
    rotate,
)
from ambiforge.detectors.tasks import halves
from ambiforge.testing.scripted_eval import DebateScript, ScriptedModel, Scripts
from tests.unit.detectors.fixtures import PAIRS, agents

ITEM = PAIRS["preferences"]
AMB, CLR = halves(ITEM)


def scripted(script: DebateScript) -> list[ScriptedModel]:
    return agents(Scripts(debates={AMB.task: script}))


def test_consensus_in_round_one() -> None:
    judged = rotate(AMB, scripted(DebateScript(verdicts=(AMBIGUOUS,))))
    assert judged.verdict == AMBIGUOUS
    for d in judged.debates:
        assert (d.rounds, d.consensus, d.verdict, d.error) == (1, True, AMBIGUOUS, None)
        assert d.question and d.question.endswith("?")
        assert d.verdicts == [
            {
                "round": 1,
                "verdict": AMBIGUOUS,
                "question": d.question,
                "agree": [True, True],
                "alternatives": [None, None],
            }
        ]
        assert len(d.calls) == 3 and d.tokens > 0 and d.tokens_estimated


def test_consensus_in_round_k_after_the_leader_revises() -> None:
    # the Leader says clear, is contradicted, revises to ambiguous in round 2; Followers agree from round 3
    d = debate(AMB, scripted(DebateScript(verdicts=(CLEAR, AMBIGUOUS), agree_from=3)), leader=0)
    assert (d.rounds, d.consensus, d.verdict) == (3, True, AMBIGUOUS)
    assert [r["verdict"] for r in d.verdicts] == [CLEAR, AMBIGUOUS, AMBIGUOUS]
    assert [r["agree"] for r in d.verdicts] == [[False, False], [False, False], [True, True]]
    assert d.verdicts[0]["question"] is None  # a clear verdict carries no question
    assert len(d.calls) == 9


def test_revision_prompt_carries_the_followers_feedback() -> None:
    models = scripted(DebateScript(verdicts=(CLEAR, AMBIGUOUS), agree_from=2))
    debate(AMB, models, leader=0)
    seen: list[str] = []
    original = models[0].complete

    def spy(messages, tag, **kw):  # type: ignore[no-untyped-def]
        seen.append(messages[-1][1])
        return original(messages, tag, **kw)

    models[0].complete = spy  # type: ignore[method-assign]
    debate(AMB, models, leader=0, seed=1)
    assert "Round: 1" in seen[0] and "The other judges answered" not in seen[0]
    assert "Round: 2" in seen[1] and "Judge 1: Disagree" in seen[1] and "Your verdict in round 1 was: clear" in seen[1]


def test_no_consensus_at_the_round_limit() -> None:
    judged = rotate(AMB, scripted(DebateScript(verdicts=(AMBIGUOUS,), agree_from=0)), DebateSettings(rounds=4))
    assert judged.verdict is None  # every debate abstains: undecided
    for d in judged.debates:
        assert (d.rounds, d.consensus, d.verdict, d.error) == (4, False, None, None)
        assert len(d.verdicts) == 4


@pytest.mark.parametrize(("role", "round_", "calls"), [("leader", 1, 1), ("follower", 2, 5)])
def test_an_unusable_reply_ends_the_debate_as_an_error(role: str, round_: int, calls: int) -> None:
    script = DebateScript(verdicts=(AMBIGUOUS,), agree_from=3, unusable=role, unusable_round=round_)
    d = debate(AMB, scripted(script), leader=0)
    assert d.error and ("Leader" if role == "leader" else "Follower") in d.error
    assert (d.rounds, d.consensus, d.verdict) == (round_, False, None)
    assert len(d.calls) == calls


def test_rotation_makes_each_agent_lead() -> None:
    models = scripted(DebateScript(verdicts=(AMBIGUOUS,)))
    judged = rotate(AMB, models)
    assert [(d.leader, d.leader_model) for d in judged.debates] == [(0, "a"), (1, "b"), (2, "c")]
    for model in models:
        steps = Counter(t.step for t in model.tags)
        assert steps == {"debate.lead": 1, "debate.follow": 2}  # leads once, follows the two others


def test_same_model_three_times_still_makes_three_debates() -> None:
    model = ScriptedModel("same", Scripts(debates={AMB.task: DebateScript(verdicts=(AMBIGUOUS,))}))
    judged = rotate(AMB, agents_for(model, ()))
    assert len(judged.debates) == 3 and model.requests == 9  # distinct seeds: no call repeats another


def test_majority_of_debates_per_leader() -> None:
    script = DebateScript(verdicts=(AMBIGUOUS,), leader_verdicts={"a": (CLEAR,)})
    judged = rotate(AMB, scripted(script))
    assert [d.verdict for d in judged.debates] == [CLEAR, AMBIGUOUS, AMBIGUOUS]
    assert judged.verdict == AMBIGUOUS


def _d(verdict: str | None, consensus: bool = True) -> Debate:
    return Debate(0, "m", consensus=consensus, verdict=verdict)


def test_majority_ties_and_abstentions() -> None:
    assert majority([_d(CLEAR), _d(AMBIGUOUS)]) is None
    assert majority([_d(CLEAR), _d(None, consensus=False), _d(None, consensus=False)]) == CLEAR
    assert majority([_d(None, consensus=False)]) is None
    assert majority([]) is None


@pytest.mark.parametrize(
    ("text", "verdict", "question"),
    [
        ("Verdict: ambiguous\nQuestion: Which mug?\nReasoning: Two mugs.", AMBIGUOUS, "Which mug?"),
        ("**Verdict:** Ambiguous\n**Question:** Which mug do you want?", AMBIGUOUS, "Which mug do you want?"),
        (
            "Ambiguous. There are two mugs, so: which mug do you want?",
            AMBIGUOUS,
            "There are two mugs, so: which mug do you want?",
        ),
        ("Verdict: clear\nQuestion: none\nReasoning: One mug.", CLEAR, None),
        ("Verdict: unambiguous\nReasoning: fine", CLEAR, None),
        ("Verdict - not ambiguous", CLEAR, None),
        ("The task is ambiguous: which mug?", AMBIGUOUS, "The task is ambiguous: which mug?"),
        ("I find it clear enough. One mug fits.", CLEAR, None),
    ],
)
def test_parse_leader_is_tolerant(text: str, verdict: str, question: str | None) -> None:
    turn = parse_leader(text)
    assert (turn.verdict, turn.question) == (verdict, question)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I think the mugs are nice.",
        "Verdict: ambiguous\nQuestion: none\nReasoning: two mugs.",
        "It is clear that the task is ambiguous?",  # both sides and no Verdict line
    ],
)
def test_parse_leader_refuses_unusable_replies(text: str) -> None:
    with pytest.raises(Unusable):
        parse_leader(text)


def test_parse_follower() -> None:
    assert (
        parse_follower("Answer: Disagree\nReasoning: one mug.\nAlternative question: Which cup?").question
        == "Which cup?"
    )
    assert parse_follower("Answer: Disagree").agrees is False
    assert parse_follower("**Agree** - yes.").agrees is True
    assert parse_follower("Answer: Agree\nAlternative question: none").question is None
    with pytest.raises(Unusable):
        parse_follower("Maybe.")


def test_clear_half_is_judged_too() -> None:
    models = agents(Scripts(debates={CLR.task: DebateScript(verdicts=(CLEAR,))}))
    judged = rotate(CLR, models)
    assert judged.verdict == CLEAR and all(d.question is None for d in judged.debates)
