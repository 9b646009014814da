"""``eval --method debate,dialogue``: the debate's figures (success per type, consensus, rounds, leaders) and
the dialogue's (success, query discrepancy, question length), in-process and through the scripted HTTP
server with the real openai SDK (ClientModel on the LLM client), where a rerun comes from the cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.methods.settings import method_settings
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.results import EvalResult
from ambiforge.storage import write_items_jsonl
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import DebateScript, DialogueScript, ScriptedModel, Scripts, make_responder
from tests.unit.detectors.fixtures import PAIRS

P, C, S = PAIRS["preferences"], PAIRS["common_sense_knowledge"], PAIRS["safety"]
SCRIPTS = Scripts(
    debates={
        P.ambiguous_task: DebateScript(verdicts=("ambiguous",)),
        P.unambiguous_direct: DebateScript(verdicts=("ambiguous", "clear"), agree_from=2),
        C.ambiguous_task: DebateScript(verdicts=("clear",)),  # wrong: the ambiguous task judged clear
        C.unambiguous_direct: DebateScript(verdicts=("clear",)),
        S.ambiguous_task: DebateScript(verdicts=("ambiguous",), agree_from=0),  # no consensus
        S.unambiguous_direct: DebateScript(verdicts=("clear",), leader_verdicts={"a": ("ambiguous",)}),
    },
    dialogues={
        P.ambiguous_task: DialogueScript(questions=(P.question,)),  # asks well, then acts on the answer
        C.ambiguous_task: DialogueScript(action="Beat the eggs with the whisk."),  # acts well without asking
        S.ambiguous_task: DialogueScript(questions=("What should I do?",)),  # a vague question: redirected
    },
)


#: the debate's token figures: the provider's usage through the server, estimated for a model without usage
TOKEN_FIGURES = ("mean_tokens", "debates_with_estimated_tokens")


def steady(figures: dict[str, Any], tokens: bool = True) -> dict[str, Any]:
    """Without the wall-clock figure (a debate's seconds), which differs from run to run, and without the
    token figures when ``tokens`` is False (comparing a model that reports usage with one that does not)."""
    dropped = ("mean_seconds",) if tokens else ("mean_seconds", *TOKEN_FIGURES)
    out = {k: v for k, v in figures.items() if k not in dropped}
    if "method_figures" in out:
        out["method_figures"] = steady(out["method_figures"], tokens)
    return out


def options(tmp: Path, **kw: Any) -> EvalOptions:
    """Options for an eval of the three pairs; the methods' settings (``agents``, ``user``, ...) as the
    command line gives them."""
    data = write_items_jsonl(tmp / "items.jsonl", [P, C, S])
    own = {k: kw.pop(k) for k in ("agents", "rounds", "personas", "max_questions", "user") if k in kw}
    defaults: dict[str, Any] = {
        "methods": ("debate", "dialogue"),
        "out": tmp / "eval",
        "cache_dir": tmp / "cache",
        "name": "run",
        "calibration_size": 3,
        "settings": method_settings(options={"rounds": 3} | own),
        "llm": LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
    }
    return EvalOptions(data=data, model="a", **(defaults | kw))


def test_debate_figures(tmp_path: Path) -> None:
    doc = run_eval(options(tmp_path, methods=("debate",), agents=("a", "b", "c")), model=ScriptedModel("a", SCRIPTS))
    figures = doc["methods"]["debate"]["method_figures"]
    assert figures["success"] == {
        "preferences": 1.0,
        "common_sense_knowledge": 0.0,
        "safety": 0.0,  # no consensus at the limit: undecided, not a success
        "unambiguous": 1.0,
        "all": 0.6667,
    }
    assert figures["debates"] == 18
    assert figures["consensus_rate"] == round(15 / 18, 4)
    assert figures["rounds_histogram"] == {"1": 12, "2": 3}
    assert figures["undecided"] == 1
    assert set(figures["leader_success"]) == {"0:a", "1:b", "2:c"}
    assert figures["leader_success"]["0:a"] == 0.5  # a leads the safety clear task to "ambiguous"
    rows = doc["methods"]["debate"]["by_group"]
    assert rows["all"]["HR"] == 0.1667  # asks on the one half judged ambiguous (P's ambiguous task)
    report = (tmp_path / "eval" / "run" / "report.html").read_text()
    assert "debate: its own figures" in report and "consensus rate" in report


def test_dialogue_figures(tmp_path: Path) -> None:
    doc = run_eval(options(tmp_path, methods=("dialogue",)), model=ScriptedModel("a", SCRIPTS))
    figures = doc["methods"]["dialogue"]["method_figures"]
    assert figures["success"] == {
        "preferences": 1.0,  # asked, got the gold answer, acted on it
        "common_sense_knowledge": 1.0,  # acted correctly without asking
        "safety": 0.0,  # asked though a good agent acts, and the redirect told it nothing
        "unambiguous": 1.0,
        "all": 0.8333,
    }
    assert figures["query_discrepancy"] == {
        "preferences": 0.0,
        "common_sense_knowledge": 0.0,
        "safety": 1.0,
        "unambiguous": 0.0,
        "all": 0.1667,
    }
    assert figures["mean_question_words"] == 6.0  # 8 and 4 words
    assert figures["gold_reply_rate"] == 0.5


def test_dialogue_without_questions_allowed_never_asks(tmp_path: Path) -> None:
    doc = run_eval(options(tmp_path, methods=("dialogue",), max_questions=0), model=ScriptedModel("a", SCRIPTS))
    figures = doc["methods"]["dialogue"]["method_figures"]
    assert figures["mean_questions"]["all"] == 0.0 and figures["success"]["preferences"] == 0.0


def test_through_the_server_with_the_openai_sdk_then_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedLLMServer(make_responder(SCRIPTS), api_key="sk-eval") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-eval")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        first = run_eval(options(tmp_path, agents=("a", "b", "c")))
        asked = len(server.requests)
        again = run_eval(options(tmp_path, agents=("a", "b", "c")))
        assert len(server.requests) == asked  # every call came from the cache
        models = {r.model for r in server.requests}
    local = run_eval(options(tmp_path, name="local", agents=("a", "b", "c")), model=ScriptedModel("a", SCRIPTS))
    for method in ("debate", "dialogue"):
        assert steady(first["methods"][method]["method_figures"], tokens=False) == steady(
            local["methods"][method]["method_figures"], tokens=False
        )
        assert steady(again["methods"][method]) == steady(first["methods"][method])  # tokens too: cached usage
    served, estimated = first["methods"]["debate"]["method_figures"], local["methods"]["debate"]["method_figures"]
    assert served["debates_with_estimated_tokens"] == 0 and served["mean_tokens"] > 0  # the server's usage
    assert estimated["debates_with_estimated_tokens"] == estimated["debates"] == 18  # no usage: estimated
    assert models == {"a", "b", "c"}  # each agent's calls went to its own model
    calls = (tmp_path / "eval" / "run" / "calls.jsonl").read_text().splitlines()
    assert any('"judge_debate_lead"' in line for line in calls) and any('"eval_dialogue"' in line for line in calls)


def test_unknown_user_or_too_few_agents_is_one_line(tmp_path: Path) -> None:
    from ambiforge.errors import ConfigError

    with pytest.raises(ConfigError, match="--user"):
        options(tmp_path, user="oracle")
    with pytest.raises(ConfigError, match="--agents"):
        options(tmp_path, agents=("a",))


PERSONAS = ("You are a cautious inspector.", "You are a hurried cook.", "You are a pedantic linguist.")


class Recording(ScriptedModel):
    """A scripted agent that records (model, system prompt) of each call in a list its siblings share."""

    def __init__(self, name: str, scripts: Scripts, seen: list[tuple[str, str]]) -> None:
        super().__init__(name, scripts)
        self.seen = seen

    def with_model(self, name: str) -> Recording:
        return Recording(name, self.scripts, self.seen)

    def complete(self, messages: Any, tag: Any, **kw: Any) -> Any:
        self.seen.append((self.name, dict(messages)["system"]))
        return super().complete(messages, tag, **kw)


def test_personas_reach_each_debate_agent_and_the_results(tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []
    doc = run_eval(
        options(tmp_path, methods=("debate",), agents=("a", "b", "c"), personas=PERSONAS),
        model=Recording("a", SCRIPTS, seen),
    )
    assert {name for name, _ in seen} == {"a", "b", "c"}
    for name, system in seen:
        mine = PERSONAS["abc".index(name)]
        assert mine in system and not any(p in system for p in PERSONAS if p != mine)
    assert tuple(doc["settings"]["personas"]) == PERSONAS
    results = json.loads((tmp_path / "eval" / "run" / "results.json").read_text())
    assert results["settings"]["personas"] == list(PERSONAS)  # the run's settings name its personas


def test_the_persona_option_is_repeatable_and_reads_at_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ambiforge import api
    from ambiforge.cli.main import main

    got: dict[str, Any] = {}

    def fake_evaluate(opts: EvalOptions, *, prefect: bool = False) -> EvalResult:
        got["opts"] = opts
        return EvalResult.from_document({"name": "x", "evaluated_on": "items", "methods": {}, "folder": str(tmp_path)})

    monkeypatch.setattr(api, "evaluate", fake_evaluate)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-eval-0123456789")
    (tmp_path / "cook.txt").write_text("You are a hurried cook.\n", encoding="utf-8")
    data = write_items_jsonl(tmp_path / "items.jsonl", [P, C, S])
    argv = ["eval", "--data", str(data), "--model", "m", "--method", "debate", "--out", str(tmp_path / "eval")]
    personas = ["--persona", PERSONAS[0], "--persona", f"@{tmp_path / 'cook.txt'}", "--persona", PERSONAS[2]]
    assert main([*argv, *personas]) == 0
    assert got["opts"].settings["debate"].personas == PERSONAS
    assert main(argv) == 0 and got["opts"].settings["debate"].personas == ()
    # one method's setting by name, and the call limits, reach the options
    assert (
        main([*argv, "--set", "debate.rounds=2", "--set", "debate.agents=a,b", "--rpm", "0", "--concurrency", "3"]) == 0
    )
    assert got["opts"].settings["debate"].rounds == 2 and got["opts"].settings["debate"].agents == ("a", "b")
    assert (got["opts"].llm.rpm, got["opts"].llm.concurrency) == (0, 3)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--set", "debate.rounds"], "--set: expected METHOD.FIELD=VALUE, got 'debate.rounds'"),
        (["--set", "nosuch.rounds=2"], "--set nosuch: unknown method 'nosuch'"),
        (["--set", "debate.samples=2"], "--set debate.samples: debate has no such setting"),
        (["--set", "debate.rounds=many"], "--set debate.rounds: Input should be a valid integer"),
        (["--set", "debate.rounds=2", "--set", "debate.rounds=3"], "--set debate.rounds: given twice"),
        (["--rpm", "-1"], "--rpm must be 0 (no limit) or more, got -1"),
        (["--concurrency", "0"], "--concurrency must be at least 1, got 0"),
        (["--agents", ",,"], "--agents: no model in ',,'"),
        (["--method", "debate,nosuch"], "--method: unknown method(s) nosuch"),
    ],
)
def test_bad_method_settings_are_one_line(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ambiforge.cli.main import main

    monkeypatch.setenv("OPENAI_API_KEY", "sk-eval-0123456789")
    data = write_items_jsonl(tmp_path / "items.jsonl", [P, C, S])
    argv = ["eval", "--data", str(data), "--model", "m", "--method", "debate", "--out", str(tmp_path / "eval")]
    assert main([*argv, *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"ambiforge: error: {message}"), err
    assert not (tmp_path / "eval").exists()
