"""SG-CoT (``--method sgcot``) end to end through the LLM client, the openai SDK and the scripted server:
tool-call replies, the JSON fallback, the seed's ablations, errored episodes and the cost table, on
hand-made pairs whose figures are worked out below (``sgcot_fixtures``; the scripted planner's policy is
in :mod:`ambiforge.testing.scripted_sgcot`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ambiforge.config.llm import LLMConfig
from ambiforge.detectors.methods.settings import method_settings
from ambiforge.detectors.sgcot import scoring
from ambiforge.detectors.sgcot.loop import Answer, json_calls
from ambiforge.detectors.sgcot.tools import episode_graph, run_retrieval
from ambiforge.detectors.success import text_success
from ambiforge.detectors.tasks import halves
from ambiforge.evaluation.command import EvalOptions, run_eval
from ambiforge.storage import write_items_jsonl
from ambiforge.testing import scripted_sgcot
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.testing.scripted_eval import ScriptedModel, server_responder
from ambiforge.testing.scripted_sgcot import SGCoTScript, SGCoTScripts
from tests.unit.evaluation.sgcot_fixtures import environment_types, items

# The unscripted planner queries the task's last word, then acts on the one node found, or asks
# (absence: none found; multiplicity: several):
# - P1 (preferences, two mugs in both halves): ambiguous asks "multiplicity" (SR 1, CQR 0); the clear half
#   ("... the ceramic mug.", last word "mug") finds two mugs and asks too (SR 0);
# - M1 (multiplicity): the perturbed kitchen has two mugs: asks "multiplicity" (SR 1, CQR 1); the clear
#   one has one: acts on glass_mug, the target (SR 1);
# - A1 (absence): no milk in the perturbed kitchen: asks "absence" (SR 1, CQR 1); clear: acts on whole_milk.
FULL_SR = {"absence": 1.0, "multiplicity": 1.0, "preferences": 1.0, "unambiguous": 0.6667, "all": 0.8333}
FULL_CQR = {"absence": 1.0, "multiplicity": 1.0, "preferences": 0.0, "all": 0.6667}


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    with environment_types(tmp_path):
        yield write_items_jsonl(tmp_path / "items.jsonl", items())


def evaluate(tmp: Path, data: Path, server: ScriptedLLMServer, name: str, **options: Any) -> dict[str, Any]:
    opts = EvalOptions(
        data=data,
        methods=("binary", "sgcot"),
        model="scripted",
        out=tmp / "eval",
        cache_dir=tmp / f"cache-{name}",
        name=name,
        llm=LLMConfig(rpm=0, max_retries=0, timeout_seconds=10),
        settings=method_settings({}, options),
    )
    return run_eval(opts)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedLLMServer]:
    with ScriptedLLMServer(server_responder, api_key="sk-sgcot") as running:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-sgcot")
        monkeypatch.setenv("OPENAI_BASE_URL", running.openai_url)
        yield running


def calls(tmp: Path, name: str) -> list[dict[str, Any]]:
    path = tmp / "eval" / name / "calls.jsonl"
    return [r for r in map(json.loads, path.read_text().splitlines()) if r["step"] == "sgcot.turn"]


def test_tool_calls_give_the_figures_worked_out_by_hand(tmp_path: Path, data: Path, server: ScriptedLLMServer) -> None:
    doc = run = evaluate(tmp_path, data, server, "tools")
    figures = run["methods"]["sgcot"]["method_figures"]
    assert figures["SR"] == FULL_SR and figures["CQR"] == FULL_CQR
    assert figures["SR_by_level"] == {"environment": 1.0, "instruction": 1.0, "unambiguous": 0.6667, "all": 0.8333}
    assert figures["CQR_by_level"] == {"environment": 1.0, "instruction": 0.0, "all": 0.6667}
    # grounded CQR beside CQR: the questions asked on the environment halves name what makes them ambiguous
    assert figures["grounded_CQR_by_level"] == {"environment": 1.0, "instruction": 0.0, "all": 0.6667}
    assert figures["errors"]["all"] == 0 and figures["n"]["all"] == 6 and figures["tool_mode"] == ["tools"]
    # the cost table: a query and an answer per episode; tokens per call as the API reported them
    records = calls(tmp_path, "tools")
    assert figures["calls_per_episode"] == 2.0 and figures["calls"] == len(records) == 12
    assert figures["input_tokens_per_call"] == round(sum(r["input_tokens"] for r in records) / 12, 4)
    assert figures["output_tokens_per_call"] == round(sum(r["output_tokens"] for r in records) / 12, 4)
    # through the tools API: the offered functions, the reply's tool_calls, the result as a tool message
    second = next(r for r in records if len(r["messages"]) > 2)
    offered = [t["function"]["name"] for t in second["params"]["tools"]]
    assert offered == ["retrieve_node", "retrieve_edge", "act", "ask", "ask_robot"]  # turns left: it may query again
    assistant, tool = second["messages"][2], second["messages"][3]
    assert assistant["tool_calls"][0]["function"]["name"] == "retrieve_node"
    assert tool["role"] == "tool" and tool["tool_call_id"] == assistant["tool_calls"][0]["id"]
    # AmbiK's metrics on the same rows, beside the other method's, in one document
    assert set(doc["methods"]) == {"binary", "sgcot"}
    assert doc["methods"]["sgcot"]["by_group"]["all"]["HR"] == round(4 / 6, 4)  # it asked on 4 of 6 halves
    rows = [json.loads(x) for x in (tmp_path / "eval" / "tools" / "results.jsonl").read_text().splitlines()]
    m1 = next(r for r in rows if r["method"] == "sgcot" and r["item_id"] == "M1" and r["half"] == "ambiguous")
    assert m1["details"]["answer"] == {
        "kind": "ask", "step": "", "object": "", "question": "Which mug do you mean?", "tag": "multiplicity",
        "to": "user",
    }  # fmt: skip
    assert m1["details"]["grounded_cqr"] == 1  # "mug": the noun both candidates answer to
    # every method reports SR, per type and per level: the text baseline beside SG-CoT
    assert doc["methods"]["binary"]["by_group"]["all"]["SR"] is not None
    assert set(doc["methods"]["binary"]["SR_by_level"]) == {"environment", "instruction", "unambiguous", "all"}
    assert m1["details"]["retrievals"][0]["result"].startswith("2 node(s):")
    report = (tmp_path / "eval" / "tools" / "report.html").read_text()
    assert "grounded CQR by level" in report
    # the SR table: every method by level, the text baseline beside SG-CoT
    table = report.split('id="sr"')[1].split("</table>")[0]
    for method in ("binary", "sgcot"):
        row = table.split(f"<tr><td>{method}</td>")[1].split("</tr>")[0]
        levels = doc["methods"][method]["SR_by_level"]
        expected = [levels[level] for level in ("instruction", "environment", "unambiguous", "all")]
        assert row == "".join(f'<td class="num">{round(v, 3)}</td>' for v in expected)
    # a rerun is served from the call cache, tool calls included: no request, the same figures
    asked = len(server.requests)
    again = evaluate(tmp_path, data, server, "tools")["methods"]["sgcot"]["method_figures"]
    assert len(server.requests) == asked and again == figures


def test_a_server_that_refuses_tools_is_told_apart_from_other_errors() -> None:
    from ambiforge.llm.providers.base import unsupported_feature

    assert unsupported_feature(500, "tools param requires --jinja flag") == "tools"
    assert unsupported_feature(400, "Unrecognized request argument supplied: tool_choice") == "tools"
    assert unsupported_feature(500, "response_format type json_schema is not supported") == "json_schema"
    assert unsupported_feature(500, "internal error") is None
    assert unsupported_feature(429, "tools param requires --jinja flag") is None


def test_the_json_fallback_gives_the_same_figures(
    tmp_path: Path, data: Path, server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    forced = evaluate(tmp_path, data, server, "json", tool_mode="json")["methods"]["sgcot"]["method_figures"]
    assert forced["SR"] == FULL_SR and forced["CQR"] == FULL_CQR and forced["tool_mode"] == ["json"]
    assert all("tools" not in r["params"] for r in calls(tmp_path, "json"))
    with ScriptedLLMServer(server_responder, api_key="sk-sgcot", refuse_tools=500) as refusing:
        monkeypatch.setenv("OPENAI_BASE_URL", refusing.openai_url)
        auto = evaluate(tmp_path, data, refusing, "auto")["methods"]["sgcot"]["method_figures"]
    assert auto["SR"] == FULL_SR and auto["CQR"] == FULL_CQR and auto["tool_mode"] == ["json"]
    refused = [r for r in calls(tmp_path, "auto") if r["error"]]
    assert refused and all(r["faults"] == ["unsupported_tools"] for r in refused)
    # an EvalModel without chat (the in-process scripted model) gets the JSON replies: the same figures
    opts = EvalOptions(data=data, methods=("sgcot",), model="scripted", out=tmp_path / "eval", name="local")
    local = run_eval(opts, model=ScriptedModel())["methods"]["sgcot"]["method_figures"]
    assert local["SR"] == FULL_SR and local["CQR"] == FULL_CQR and local["tool_mode"] == ["json"]


def test_ablations(tmp_path: Path, data: Path, server: ScriptedLLMServer) -> None:
    # the whole graph in the prompt, no retrieval: the planner acts on the task's first sentence at once; every
    # clear half's sentence names its target on the graph (P1 "the ceramic mug", M1 "the mug": the one mug of
    # the clear kitchen, A1 "milk"): SR 1 there, and no ask on an ambiguous half
    whole = evaluate(tmp_path, data, server, "whole", ablation="whole_graph")["methods"]["sgcot"]["method_figures"]
    assert whole["SR"] == {
        "absence": 0.0,
        "multiplicity": 0.0,
        "preferences": 0.0,
        "unambiguous": 1.0,
        "all": 0.5,
    }
    assert whole["CQR"]["all"] == 0.0 and whole["calls_per_episode"] == 1.0
    prompt = calls(tmp_path, "whole")[0]["messages"]
    assert (
        "Scene graph:" in prompt[1]["content"]
        and "glass_mug (glass mug, object; material glass" in prompt[1]["content"]
    )
    # without edges: retrieve_edge is not offered; the figures stay (the planner only looks nodes up)
    bare = evaluate(tmp_path, data, server, "bare", ablation="no_edges")["methods"]["sgcot"]["method_figures"]
    assert bare["SR"] == FULL_SR
    offered = {t["function"]["name"] for r in calls(tmp_path, "bare") for t in r["params"]["tools"]}
    assert offered == {"retrieve_node", "act", "ask", "ask_robot"}


def test_turn_limits_errors_and_one_retrieval(
    tmp_path: Path, data: Path, server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    three = tuple(("retrieve_node", {"name": n}) for n in ("mug", "milk", "shelf"))
    scripts = SGCoTScripts(
        {
            "Bring me the mug.": SGCoTScript(queries=three),  # then the unscripted answer on the last result
            "Pour the milk into a mug.": SGCoTScript(answer="none"),  # never answers: an errored episode
        }
    )
    server.responder = scripted_sgcot.responder(scripts, server_responder)
    full = evaluate(tmp_path, data, server, "limits", max_turns=2)["methods"]["sgcot"]
    figures = full["method_figures"]
    # P1's ambiguous half fails after 2 turns and the conclusion (3 calls); it is in no mean
    assert figures["errors"] == {"absence": 0, "multiplicity": 0, "preferences": 1, "unambiguous": 0, "all": 1}
    assert figures["SR"]["preferences"] is None and figures["CQR"]["preferences"] is None
    assert full["by_group"]["preferences"]["errors"] == 1 and full["first_error"].startswith("no final answer")
    # M1 queries twice (max_turns 2), then must conclude on "1 node(s): whole_milk": acts on the milk,
    # not what either half wants: ambiguous SR 0; clear SR 0 -> unambiguous 1/3 (A1 only)
    assert figures["SR"]["multiplicity"] == 0.0 and figures["SR"]["unambiguous"] == 0.3333
    # calls: P1 amb 3, M1 amb 3, M1 clear 3, P1 clear 2, A1 2 + 2 = 15 over 6 episodes
    assert figures["calls"] == 15 and figures["calls_per_episode"] == 2.5
    one = evaluate(tmp_path, data, server, "one", ablation="one_retrieval")["methods"]["sgcot"]["method_figures"]
    # one query ("mug"), then the conclusion: M1 behaves as unscripted again
    assert one["SR"]["multiplicity"] == 1.0 and one["SR"]["unambiguous"] == 0.6667
    assert one["calls"] == 2 * 5 + 2  # P1's ambiguous episode: the query turn and the failed conclusion


def test_a_server_without_usage_gives_no_token_figures(
    tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedLLMServer(server_responder, api_key="sk-sgcot", give_usage=False) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-sgcot")
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        figures = evaluate(tmp_path, data, server, "nousage")["methods"]["sgcot"]["method_figures"]
    assert figures["input_tokens_per_call"] is None and figures["output_tokens_per_call"] is None
    assert figures["calls_without_usage"] == figures["calls"] == 12


def test_the_cli_runs_sgcot_beside_ambik_methods(
    tmp_path: Path, data: Path, server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from ambiforge.cli.main import main

    monkeypatch.chdir(tmp_path)
    argv = ["eval", "--data", str(data), "--model", "scripted", "--method", "nohelp,sgcot", "--name", "cli"]
    assert main([*argv, "--max-turns", "3", "--tool-mode", "tools"]) == 0
    document = json.loads((tmp_path / "eval" / "cli" / "results.json").read_text())
    assert document["settings"]["max_turns"] == 3 and document["settings"]["tool_mode"] == "tools"
    assert document["methods"]["sgcot"]["method_figures"]["SR"] == FULL_SR
    assert "sgcot: SR 0.8333, CQR 0.6667" in capsys.readouterr().err.replace("\n", " ")
    assert main([*argv, "--ablation", "everything"]) == 2


def test_what_the_planner_sees_and_reads(tmp_path: Path) -> None:
    with environment_types(tmp_path):
        amb, clear = halves(items()[2])  # A1: the milk is gone from the perturbed kitchen, the robot sees it all
    seen = episode_graph(amb.world, amb.ambiguous)
    assert seen is not None and "whole_milk" not in {n.id for n in seen.nodes}
    assert run_retrieval(seen, "retrieve_node", {"name": "milk"}) == "No node matches."
    home = episode_graph(clear.world, clear.ambiguous, edges=False)
    assert home is not None and home.edges == () and "whole_milk" in {n.id for n in home.nodes}
    assert run_retrieval(home, "retrieve_edge", {"source": "whole_milk"}) == "No edge matches."
    full = episode_graph(clear.world, False)
    assert full is not None
    assert (
        run_retrieval(full, "retrieve_edge", {"source": "milk", "relation": "in"}) == "1 edge(s):\nwhole_milk in fridge"
    )
    assert run_retrieval(full, "retrieve_node", {"attr_key": "weight", "attr_val": 1}).startswith(
        "error: unknown attribute"
    )
    assert run_retrieval(full, "retrieve_edge", {"relation": "under"}).startswith("error: unknown relation")
    # JSON replies: the last line's object, other spellings of the function, text around it
    replies = json_calls('I look. {"function": "retrieve_node", "arguments": {"name": "mug"}} then {"x": 1}')
    assert [(c.name, c.arguments) for c in replies] == [("retrieve_node", {"name": "mug"})]
    spelled = json_calls('{"name": "ask", "question": "Which mug?", "tag": "multiplicity"}')
    assert spelled[0].name == "ask" and spelled[0].arguments == {"question": "Which mug?", "tag": "multiplicity"}
    assert json_calls("no call {broken") == []


def test_generated_items_carry_the_graphs_sgcot_queries(
    tmp_path: Path, server: ScriptedLLMServer, catalog: Any
) -> None:
    from ambiforge.generation.mix import type_sequence
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.world import retrieve_node

    mix = {"preferences": 0.5, "common_sense_knowledge": 0.25, "safety": 0.25}
    gen = OfflineGenerator(catalog, 5, "r1")
    generated = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(6, mix, 5))]
    data = write_items_jsonl(tmp_path / "generated.jsonl", generated)
    doc = evaluate(tmp_path, data, server, "generated")
    figures = doc["methods"]["sgcot"]["method_figures"]
    # every episode answered: one query (the task's last word), then the answer
    assert figures["n"]["all"] == 12 and figures["errors"]["all"] == 0 and figures["calls_per_episode"] == 2.0
    rows = [json.loads(x) for x in (tmp_path / "eval" / "generated" / "results.jsonl").read_text().splitlines()]
    by_id = {i.id: i for i in generated}
    for row in (r for r in rows if r["method"] == "sgcot"):
        query = row["details"]["retrievals"][0]
        world = by_id[row["item_id"]].world
        assert world is not None  # the AmbiK types' pairs: one kitchen for both halves
        found = retrieve_node(world.graph, name=query["arguments"]["name"])
        assert query["result"] == "No node matches." or query["result"].startswith(f"{len(found)} node(s):")
        # the answer follows the count: act on the one node found, else ask
        assert (row["details"]["answer"]["kind"] == "act") == (len(found) == 1)


def test_an_irrelevant_question_with_the_right_tag_is_a_correct_question_but_not_a_grounded_one() -> None:
    amb, _ = halves(next(i for i in items() if i.id == "M1"))
    relevant = Answer("ask", question="Which mug do you mean?", tag="multiplicity")
    irrelevant = Answer("ask", question="Should I preheat the oven first?", tag="multiplicity")
    assert scoring.correct_question(amb, relevant) == 1 and scoring.grounded_question(amb, relevant) == 1
    assert scoring.correct_question(amb, irrelevant) == 1 and scoring.grounded_question(amb, irrelevant) == 0
    absence, _ = halves(next(i for i in items() if i.id == "A1"))
    assert scoring.grounded_question(absence, Answer("ask", question="There is no milk: what now?", tag="absence")) == 1
    assert scoring.grounded_question(absence, Answer("ask", question="Which glass?", tag="absence")) == 0


def test_acting_on_another_object_on_a_clear_half_fails_even_where_the_words_match_the_intent() -> None:
    _, clear = halves(next(i for i in items() if i.id == "P1"))  # target: the ceramic mug
    right = Answer("act", step="Pour the milk into the ceramic mug.", object="ceramic_mug")
    assert scoring.success(clear, right, "ask", clear.world.graph) == 1
    # the step carries the intent ("ceramic mug") but the action's object is the glass mug
    wrong = Answer("act", step="Pour the milk into the ceramic mug.", object="glass_mug")
    assert scoring.success(clear, wrong, "ask", clear.world.graph) == 0
    # a text step naming another object of the kind (no node given): read on the graph, not by intent
    assert text_success(clear, ["Pour the milk into the glass mug."], False, "ask") == 0
    assert text_success(clear, ["Pour the milk into the ceramic mug."], False, "ask") == 1
    assert text_success(clear, ["Pour the milk into the ceramic mug or the glass mug."], False, "ask") == 0


def test_a_text_method_sees_the_changed_kitchen_on_the_ambiguous_half() -> None:
    item = next(i for i in items() if i.id == "M1")
    p = item.world.perturbation.model_copy(
        update={"environment_short": "glass mug, ceramic mug, whole milk", "environment_full": "a glass mug, ..."}
    )
    item = item.model_copy(update={"world": item.world.model_copy(update={"perturbation": p})})
    amb, clear = halves(item)
    assert amb.environment == "glass mug, ceramic mug, whole milk" and amb.environment_full == "a glass mug, ..."
    assert clear.environment == item.environment_short and amb.level == "environment"
