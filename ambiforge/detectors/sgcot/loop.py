"""One SG-CoT episode: the model reasons and calls a retrieval function or gives its final answer; each
call's result joins the history; after the retrieval turns run out (``max_turns``; none when the whole
graph is in the prompt, one for the one-retrieval ablation) it is asked to conclude.

Two ways to talk to the model, the same loop:
- ``tools``: OpenAI's function calling (``tools`` in the request; the reply's ``tool_calls``; each result a
  ``tool`` message naming the call's id);
- ``json``: for servers without tool calling: the prompt asks for one JSON object
  ``{"function": ..., "arguments": {...}}`` on the last line, results come back as user messages.
A tools-mode reply without ``tool_calls`` is read as JSON too (templates that write calls as text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ambiforge.detectors import prompts
from ambiforge.detectors.model import CallTag, EvalModel, call_seed
from ambiforge.detectors.sgcot.tools import FINAL, RETRIEVAL, graph_text, parse_arguments, run_retrieval, tool_specs
from ambiforge.detectors.tasks import EvalTask
from ambiforge.models.scene_graph import SceneGraph

PROMPT = "eval_sgcot"
CONCLUDE = (
    "You have no query turns left. Give your final answer now: act(step, object), ask(question, tag) or "
    "ask_robot(question)."
)
NUDGE = "Call one function: a retrieval function, or act / ask / ask_robot for your final answer."
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Answer:
    kind: str  # "act" or "ask"
    step: str = ""
    object: str = ""
    question: str = ""
    tag: str = ""
    to: str = "user"  # whom the question is put to: the user, or ("robot") the other robot (ask_robot)

    def to_record(self) -> dict[str, str]:
        return {
            "kind": self.kind,
            "step": self.step,
            "object": self.object,
            "question": self.question,
            "tag": self.tag,
            "to": self.to,
        }


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    arguments: dict[str, Any] | None  # None: not a JSON object
    raw: str  # the arguments as the model wrote them


@dataclass
class Episode:
    mode: str  # "tools" or "json"
    answer: Answer | None = None
    calls: list[str] = field(default_factory=list)  # call ids, one per model turn
    cached: int = 0
    input_tokens: list[int | None] = field(default_factory=list)  # per call, as the API reported (None: not)
    output_tokens: list[int | None] = field(default_factory=list)
    retrievals: list[dict[str, Any]] = field(default_factory=list)  # {"function", "arguments", "result"}
    error: str | None = None


@dataclass(frozen=True)
class Plan:
    """How an episode runs (from the method's settings)."""

    mode: str  # "tools" or "json"
    turns: int  # retrieval turns before the model must conclude (0: the whole graph is in the prompt)
    max_calls: int | None  # retrieval calls in all (the one-retrieval ablation: 1)
    whole_graph: bool
    edges: bool
    max_tokens: int
    with_plan: bool
    seed: int


def json_calls(text: str) -> list[Call]:
    """Every ``{"function": name, "arguments": {...}}`` object in a reply, in order (``name`` or ``tool`` for
    ``function`` and the other keys for ``arguments`` are read too: small models write them so)."""
    found: list[Call] = []
    position = text.find("{")
    while position != -1:
        try:
            value, end = _DECODER.raw_decode(text, position)
        except json.JSONDecodeError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict):
            name = next((value[k] for k in ("function", "name", "tool") if isinstance(value.get(k), str)), None)
            if name in RETRIEVAL + FINAL:
                arguments = value.get("arguments")
                if not isinstance(arguments, dict):
                    arguments = {k: v for k, v in value.items() if k not in ("function", "name", "tool")}
                found.append(Call(f"json_{len(found)}", name, arguments, json.dumps(arguments, ensure_ascii=False)))
        position = text.find("{", end)
    return found


def reply_calls(text: str, tool_calls: tuple[Any, ...]) -> list[Call]:
    if tool_calls:
        return [Call(c.id, c.name, parse_arguments(c.arguments), c.arguments) for c in tool_calls]
    return json_calls(text)


def answer_of(call: Call, tags: tuple[str, ...]) -> tuple[Answer | None, str | None]:
    args = call.arguments or {}

    def text(key: str) -> str:
        value = args.get(key)
        return value.strip() if isinstance(value, str) else ""

    if call.arguments is None:
        return None, f"{call.name}: arguments are not a JSON object: {call.raw[:60]!r}"
    if call.name == "act":
        if not text("step"):
            return None, "act without a step"
        return Answer("act", step=text("step"), object=text("object")), None
    if not text("question"):
        return None, f"{call.name} without a question"
    if call.name == "ask_robot":  # asking the other robot is the clarifying act of partial observability
        return Answer("ask", question=text("question"), tag="observation", to="robot"), None
    tag = text("tag").lower().replace(" ", "_").replace("-", "_")
    return Answer("ask", question=text("question"), tag=tag), None


def _assistant(mode: str, text: str, calls: list[Call]) -> tuple[str, ...]:
    if mode != "tools" or not calls:
        return ("assistant", text)
    tool_calls = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.raw}} for c in calls]
    return ("assistant", text, json.dumps({"tool_calls": tool_calls}, ensure_ascii=False))


def _result(mode: str, call: Call, result: str) -> tuple[str, ...]:
    if mode == "tools" and not call.id.startswith("json_"):
        return ("tool", result, json.dumps({"tool_call_id": call.id}))
    return ("user", f"Result of {call.name}({call.raw}):\n{result}")


def run_episode(
    task: EvalTask, model: EvalModel, graph: SceneGraph, plan: Plan, tags: tuple[str, ...], view: str = ""
) -> Episode:
    """``view``: what the planner is told it sees when it sees part of the kitchen (observation)."""
    prompt, first = prompts.render(
        PROMPT,
        task,
        plan.with_plan,
        view=view,
        graph=graph_text(graph) if plan.whole_graph else "",
        may_retrieve=plan.turns > 0,
        edges=plan.edges and bool(graph.edges),
        max_turns=plan.turns,
        tags=list(tags),
        json_mode=plan.mode == "json",
    )
    messages: list[tuple[str, ...]] = list(first)
    episode = Episode(plan.mode)
    used = 0
    for turn in range(plan.turns + 1):
        may_retrieve = turn < plan.turns and (plan.max_calls is None or used < plan.max_calls)
        if not may_retrieve and turn > 0:
            messages.append(("user", CONCLUDE))
        tag = CallTag("sgcot.turn", prompt.id, prompt.version, task.key)
        seed = call_seed(plan.seed, task.key, "sgcot", turn)
        if plan.mode == "tools":
            specs = tool_specs(may_retrieve, plan.edges and bool(graph.edges), tags)
            reply = model.chat(  # type: ignore[attr-defined]
                tuple(messages), tag, tools=json.dumps(specs), max_tokens=plan.max_tokens, seed=seed
            )
        else:
            reply = model.complete(tuple(messages), tag, max_tokens=plan.max_tokens, seed=seed)  # type: ignore[arg-type]
        episode.calls.append(reply.call_id)
        episode.cached += int(reply.cached)
        episode.input_tokens.append(reply.input_tokens)
        episode.output_tokens.append(reply.output_tokens)
        calls = reply_calls(reply.text, getattr(reply, "tool_calls", ()))
        final = next((c for c in calls if c.name in FINAL), None)
        if final is not None:
            episode.answer, episode.error = answer_of(final, tags)
            return episode
        retrievals = [c for c in calls if c.name in RETRIEVAL]
        if not retrievals or not may_retrieve:
            if turn == plan.turns:
                break
            messages += [("assistant", reply.text), ("user", NUDGE)]
            continue
        messages.append(_assistant(plan.mode, reply.text, retrievals))
        for call in retrievals:
            if call.arguments is None:
                result = f"error: the arguments are not a JSON object: {call.raw[:80]!r}"
            elif plan.max_calls is not None and used >= plan.max_calls:
                result = "not run: only one retrieval is allowed"
            else:
                used += 1
                result = run_retrieval(graph, call.name, call.arguments)
            episode.retrievals.append({"function": call.name, "arguments": call.arguments, "result": result})
            messages.append(_result(plan.mode, call, result))
    episode.error = f"no final answer (act or ask) after {len(episode.calls)} call(s): {reply.text[:60]!r}"
    return episode
