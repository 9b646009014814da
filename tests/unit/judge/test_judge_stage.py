"""The judge stage with a fake judge: verdicts on the items, ``judgements.jsonl``, error flags rejecting
like the validation gate, warnings kept, failures reported, reruns reusing what was judged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ambiforge.config.build import BuildOptions
from ambiforge.config.judge import JudgeConfig
from ambiforge.errors import ConfigError, LLMCallError
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.judge.pair import PairJudgement
from ambiforge.judge.summary import half_judgement, shown
from ambiforge.models import Item
from ambiforge.models.outcome import Outcome
from ambiforge.stages import StageContext, get
from tests.unit.judge.fakes import CLEAR_IS_AMBIGUOUS, FakeJudge, debates


def outcomes(catalog: Any, n: int = 4) -> list[Outcome]:  # type: ignore[no-untyped-def]
    gen = OfflineGenerator(catalog, 5, "r")
    types = ["preferences", "common_sense_knowledge", "safety", "preferences"][:n]
    made = [Outcome(i, t, gen.generate(i, t)[0]) for i, t in enumerate(types)]
    made.append(Outcome(n, "safety", None, stage="generate", reason="no pair"))  # rejected earlier: passes through
    return made


def options(tmp_path: Path, **judge: Any) -> BuildOptions:
    config = JudgeConfig(enabled=True, models=("m1", "m2", "m3"), **judge)
    return BuildOptions(run_id="r", pairs=5, out=str(tmp_path), judge=config)


def run(tmp_path: Path, catalog: Any, judge: Any, **config: Any) -> list[Outcome]:  # type: ignore[no-untyped-def]
    context = StageContext(options(tmp_path, **config), judge=judge, directory=tmp_path)
    return get("judge").run(outcomes(catalog), context)


def test_every_passed_pair_is_judged_and_stored(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    judge = FakeJudge()
    result = run(tmp_path, catalog, judge)
    assert len(judge.seen) == 4 and [o.stage for o in result] == [None, None, None, None, "generate"]
    flagged = result[1].item.judgement  # type: ignore[union-attr]
    assert flagged.clear_task.verdict == "ambiguous" and flagged.clear_task.judged_ambiguous == 2
    assert flagged.ambiguous_task.verdict == "ambiguous" and flagged.ambiguous_task.debates == 3
    assert [(f.check, f.severity) for f in flagged.flags] == [("clear_judged_ambiguous", "warning")]
    assert flagged.models == ["m1", "m2", "m3"] and flagged.rounds == 5
    assert result[0].item.judgement.flags == []  # type: ignore[union-attr]
    assert result[4].item is None
    records = [json.loads(line) for line in (tmp_path / "judgements.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [o.item.id for o in result[:4]]  # type: ignore[union-attr]
    assert records[1]["debate"]["clear"]["debates"][0]["verdict"] == "ambiguous"  # the transcripts stay in raw/
    assert records[1]["judgement"]["flags"][0]["check"] == "clear_judged_ambiguous"


def test_an_error_flag_rejects_the_pair_with_its_reason(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    result = run(tmp_path, catalog, FakeJudge(), severity={"clear_judged_ambiguous": "error"})
    assert [o.stage for o in result] == [None, "judge", None, None, "generate"]
    assert result[1].reason == "judge clear_judged_ambiguous: the clear task was judged ambiguous"
    assert result[1].item is not None and result[1].item.judgement is not None  # kept for the report
    assert result[1].rejection()["stage"] == "judge"


def test_a_failed_judge_call_is_a_debate_error_flag_not_a_lost_item(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    def failing(item: Item) -> PairJudgement:
        raise LLMCallError("openai m1: 500 after 4 retries")

    result = run(tmp_path, catalog, failing, severity={"debate_error": "error"})
    assert all(o.stage == "judge" for o in result[:4])
    assert all("debate_error" in (o.reason or "") and "500 after 4 retries" in (o.reason or "") for o in result[:4])


def test_a_configuration_error_stops_the_stage_instead_of_flagging_every_pair(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    def misconfigured(item: Item) -> PairJudgement:
        raise ConfigError("judge: the endpoint gives no log-probabilities")

    with pytest.raises(ConfigError, match="no log-probabilities"):
        run(tmp_path, catalog, misconfigured)
    assert not (tmp_path / "judgements.jsonl").exists()


def test_a_rerun_reuses_the_stored_judgements_with_the_severities_of_now(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run(tmp_path, catalog, FakeJudge())

    def must_not_run(item: Item) -> PairJudgement:
        raise AssertionError("judged again")

    result = run(tmp_path, catalog, must_not_run, severity={"clear_judged_ambiguous": "error"})
    assert [o.stage for o in result] == [None, "judge", None, None, "generate"]
    judge = FakeJudge()
    run(tmp_path, catalog, judge, rounds=3)  # another configuration: judged again
    assert len(judge.seen) == 4


def test_majority_and_the_text_annotators_read() -> None:
    assert half_judgement(debates("ambiguous", "clear", None)).verdict is None  # type: ignore[union-attr]
    assert half_judgement(debates("clear", "clear", "ambiguous")).verdict == "clear"  # type: ignore[union-attr]
    no_consensus = half_judgement(debates(None, None, "clear"))
    assert no_consensus.verdict == "clear" and no_consensus.consensus == 1 and no_consensus.debates == 3  # type: ignore[union-attr]
    from ambiforge.judge.summary import judgement_of

    text = shown(judgement_of(CLEAR_IS_AMBIGUOUS, JudgeConfig(enabled=True, models=("m1", "m2"))))
    assert text.startswith("Judge: ambiguous task judged ambiguous (3/3 debates, 3 in consensus); ")
    assert "clear task judged ambiguous (2/3 debates" in text
    assert "- warning: clear_judged_ambiguous: the clear task was judged ambiguous" in text
    assert shown(None) == "Judge: not run"


PERSONAS = ("a careful inspector", "a hurried cook", "a pedantic linguist")


def test_a_changed_persona_judges_again_and_the_judgement_names_the_personas(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    run(tmp_path, catalog, FakeJudge())

    def must_not_run(item: Item) -> PairJudgement:
        raise AssertionError("judged again")

    run(tmp_path, catalog, must_not_run)  # unchanged: reused
    judge = FakeJudge()
    result = run(tmp_path, catalog, judge, personas=PERSONAS)
    assert len(judge.seen) == 4  # personas set: judged again
    assert result[0].item.judgement.personas == list(PERSONAS)  # type: ignore[union-attr]
    run(tmp_path, catalog, must_not_run, personas=PERSONAS)  # the same personas: reused
    judge = FakeJudge()
    run(tmp_path, catalog, judge, personas=(*PERSONAS[:2], "a sceptical chemist"))
    assert len(judge.seen) == 4  # one persona changed: judged again


def test_the_built_judge_hands_its_personas_to_judge_pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ambiforge.judge.pair as pair
    from ambiforge.judge.stage import make_judge

    seen: dict[str, Any] = {}
    monkeypatch.setattr(
        pair, "judge_pair", lambda record, agents, settings, seed: seen.update(a=agents, s=settings) or {}
    )
    make_judge(options(tmp_path, personas=PERSONAS))({"id": "x"})
    assert seen["s"].personas == PERSONAS and [a.name for a in seen["a"]] == ["m1", "m2", "m3"]
