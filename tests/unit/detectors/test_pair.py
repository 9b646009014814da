"""judge_pair, the judge stage's contract: both halves' verdicts stored, the flags, the dialogue check."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from ambiforge.config.judge import FLAGS, JudgeConfig
from ambiforge.detectors.debate import AMBIGUOUS, CLEAR
from ambiforge.detectors.resolves import resolves_step
from ambiforge.errors import ConfigError, InputError
from ambiforge.judge.pair import PairJudgement, as_item, judge_pair
from ambiforge.testing.scripted_eval import DebateScript, Scripts
from tests.unit.detectors.fixtures import PAIRS, agents, record

GOOD = DebateScript(verdicts=(AMBIGUOUS,))
SAYS_CLEAR = DebateScript(verdicts=(CLEAR,))


def scripts_for(kind: str, amb: DebateScript = GOOD, clear: DebateScript = SAYS_CLEAR) -> Scripts:
    item = PAIRS[kind]
    return Scripts(debates={item.ambiguous_task: amb, item.unambiguous_direct: clear})


def judge(item: dict, models: list, settings: JudgeConfig) -> dict:  # type: ignore[type-arg]
    """judge_pair on a stored item record, as the transcript ``judgements.jsonl`` keeps."""
    judgement = judge_pair(as_item(item), models, settings)
    assert isinstance(judgement, PairJudgement)
    return judgement.to_record()


def checks(judgement: dict) -> list[str]:  # type: ignore[type-arg]
    return [f["check"] for f in judgement["flags"]]


@pytest.mark.parametrize("kind", sorted(PAIRS))
def test_a_good_pair_has_both_verdicts_and_no_flag(kind: str) -> None:
    judgement = judge(record(kind), agents(scripts_for(kind)), JudgeConfig())
    assert judgement["debate"]["ambiguous"]["verdict"] == AMBIGUOUS
    assert judgement["debate"]["clear"]["verdict"] == CLEAR
    assert [d["leader"] for d in judgement["debate"]["clear"]["debates"]] == [0, 1, 2]
    assert judgement["dialogue"]["reply_kind"] == "gold" and judgement["dialogue"]["gets_gold"]
    assert judgement["dialogue"]["reply"] == PAIRS[kind].answer
    assert judgement["dialogue"]["resolves_step"] and judgement["dialogue"]["error"] is None
    assert judgement["flags"] == []
    assert len(judgement["calls"]) == 2 * 3 * 3
    assert json.loads(json.dumps(judgement)) == judgement


def test_clear_task_judged_ambiguous_is_flagged() -> None:
    judgement = judge(record("preferences"), agents(scripts_for("preferences", clear=GOOD)), JudgeConfig())
    assert checks(judgement) == ["clear_judged_ambiguous"]
    assert "Pour the milk into the ceramic mug." in judgement["flags"][0]["message"]


def test_ambiguous_task_judged_clear_is_flagged() -> None:
    judgement = judge(record("safety"), agents(scripts_for("safety", amb=SAYS_CLEAR)), JudgeConfig())
    assert checks(judgement) == ["ambiguous_judged_clear"]


def test_an_unusable_reply_is_a_debate_error_flag_and_the_half_stays_decided_by_the_others() -> None:
    broken = DebateScript(verdicts=(AMBIGUOUS,), unusable="follower")
    judgement = judge(record("preferences"), agents(scripts_for("preferences", amb=broken)), JudgeConfig())
    assert checks(judgement) == ["debate_error"] * 3
    assert judgement["debate"]["ambiguous"]["verdict"] is None  # every debate errored: undecided
    assert all(d["error"] for d in judgement["debate"]["ambiguous"]["debates"])


def test_question_not_answered_and_answer_does_not_resolve() -> None:
    item = record("preferences", question="What should I do?", answer="Whatever you like.")
    judgement = judge(item, agents(Scripts()), JudgeConfig(methods=("dialogue",)))
    assert judgement["debate"] is None
    assert checks(judgement) == ["question_not_answered", "answer_does_not_resolve"]
    assert judgement["dialogue"]["reply_kind"] == "redirect"


def test_only_the_methods_run_have_results() -> None:
    judgement = judge(record("safety"), agents(scripts_for("safety")), JudgeConfig(methods=("debate",), rounds=2))
    assert judgement["dialogue"] is None and judgement["debate"] is not None


def test_llm_user_in_the_judge() -> None:
    judgement = judge(record("preferences"), agents(Scripts()), JudgeConfig(methods=("dialogue",), user="llm"))
    assert judgement["dialogue"]["reply_kind"] == "gold" and len(judgement["calls"]) == 1


def test_extra_keys_of_a_stored_item_are_ignored_and_a_bad_item_is_one_line() -> None:
    # a key the item model does not know ("judgement" is an item field since the judge stage stores it there)
    item = record("preferences") | {"scores": {"old": True}}
    assert judge(item, agents(Scripts()), JudgeConfig(methods=("dialogue",)))["flags"] == []
    with pytest.raises(InputError, match="P1"):
        judge(record("preferences") | {"end_of_ambiguity": -1}, agents(Scripts()), JudgeConfig())


def test_bad_settings() -> None:
    with pytest.raises(ValidationError, match="unknown method 'vote'"):
        JudgeConfig(methods=("vote",))
    with pytest.raises(ValidationError, match="rounds"):
        JudgeConfig(rounds=0)
    with pytest.raises(ValidationError, match="unknown user 'oracle'"):
        JudgeConfig(user="oracle")
    with pytest.raises(ConfigError, match="two agents"):
        judge(record("preferences"), agents(Scripts())[:1], JudgeConfig())
    assert set(FLAGS) >= {"clear_judged_ambiguous", "ambiguous_judged_clear", "debate_error"}


def test_resolves_step_needs_the_intent_in_the_step_and_the_answer() -> None:
    item = PAIRS["preferences"]
    assert resolves_step(item).ok
    assert not resolves_step(item.model_copy(update={"answer": "The other one."})).ok
    wrong_step = item.model_copy(update={"plan_for_clear_task": ["Take the whole milk.", "Pour the milk into a cup."]})
    assert "does not carry the intent" in resolves_step(wrong_step).reason
    safety = PAIRS["safety"]
    assert resolves_step(safety).ok
    update = {"user_intent": ["-metal bowl"], "question": "Which bowl?", "answer": "Not that one."}
    only_negated = safety.model_copy(update=update)
    assert not resolves_step(only_negated).ok
