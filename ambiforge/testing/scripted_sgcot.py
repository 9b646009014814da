"""A deterministic SG-CoT planner for the scripted server, so an eval's SR and CQR can be worked out by hand.

It plays the ``eval_sgcot`` prompt in both of the method's ways: with ``tools`` in the request it replies
with ``tool_calls``; without, with a JSON object on the reply's last line. What it does, per task text:

- scripted (:class:`SGCoTScript`): the script's queries in order while it may query, then its answer
  (``answer="none"``: it never answers, an episode that fails);
- unscripted: it queries ``retrieve_node(name=<the task's last word>)`` (when it may), then acts on the one
  node found (``act(<the task's first sentence>, <node id>)``), or asks with the tag ``absence`` when none
  is found and ``multiplicity`` when several are; without queries (the whole-graph ablation) it acts on
  the task's first sentence with no node.

:func:`responder` answers the SG-CoT prompts and hands every other request to ``fallback`` (the eval's
scripted model, :func:`ambiforge.testing.scripted_eval.server_responder`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ambiforge.testing.replies import ScriptedReply

MARKER = "You are the SG-CoT planner of a kitchen robot"
_TASK = re.compile(r"^Task: (.*)$", re.MULTILINE)
_COUNT = re.compile(r"^(\d+) node\(s\):\n(\S+)", re.MULTILINE)


@dataclass(frozen=True)
class SGCoTScript:
    queries: tuple[tuple[str, dict[str, Any]], ...] = ()  # (function, arguments) in order
    answer: str = ""  # "act", "ask", "none" (never answers) or "" (the unscripted policy after the queries)
    step: str = ""
    object: str = ""
    question: str = ""
    tag: str = ""


@dataclass(frozen=True)
class SGCoTScripts:
    by_task: Mapping[str, SGCoTScript] = field(default_factory=dict)


def is_sgcot(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    return bool(messages) and MARKER in str(messages[0].get("content") or "")


def _first_sentence(text: str) -> str:
    head = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    return head if head.endswith((".", "!", "?")) else head + "."


def _results(messages: list[dict[str, Any]]) -> list[str]:
    return [
        str(m.get("content") or "")
        for m in messages
        if m.get("role") == "tool" or (m.get("role") == "user" and str(m.get("content") or "").startswith("Result of "))
    ]


def _may_query(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    if body.get("tools") is not None:
        return any(t.get("function", {}).get("name") == "retrieve_node" for t in body["tools"])
    system = str(messages[0].get("content") or "")
    concluded = messages[-1].get("role") == "user" and "no query turns left" in str(messages[-1].get("content"))
    return "You do not see the graph" in system and not concluded


def decide(body: dict[str, Any], scripts: SGCoTScripts) -> tuple[str, dict[str, Any]] | None:
    """The next call: ``(function, arguments)``, or None for a reply without any."""
    messages = body.get("messages") or []
    found = _TASK.findall(str(messages[1].get("content") or "")) if len(messages) > 1 else []
    task = found[-1].strip() if found else ""
    script = scripts.by_task.get(task, SGCoTScript())
    results = _results(messages)
    may_query = _may_query(body)
    if may_query and len(results) < len(script.queries):
        return script.queries[len(results)]
    if script.answer == "none":
        return None
    if script.answer == "act":
        return "act", {"step": script.step or _first_sentence(task), "object": script.object}
    if script.answer == "ask":
        return "ask", {"question": script.question or "Which one do you mean?", "tag": script.tag}
    words = re.findall(r"[a-z]+", _first_sentence(task).lower())
    referent = words[-1] if words else "object"
    if may_query and not results:
        return "retrieve_node", {"name": referent}
    last = results[-1] if results else ""
    count = _COUNT.search(last)
    if count and int(count.group(1)) == 1:
        return "act", {"step": _first_sentence(task), "object": count.group(2)}
    if results:
        tag = "absence" if not count else "multiplicity"
        return "ask", {"question": f"Which {referent} do you mean?", "tag": tag}
    return "act", {"step": _first_sentence(task), "object": ""}


def respond(body: dict[str, Any], scripts: SGCoTScripts | None = None) -> ScriptedReply:
    call = decide(body, scripts or SGCoTScripts())
    if call is None:
        return ScriptedReply("I am not sure what to do.")
    name, arguments = call
    text = json.dumps(arguments, ensure_ascii=False)
    turn = len(body.get("messages") or [])
    if body.get("tools") is not None:
        return ScriptedReply(f"I call {name}.", finish_reason="tool_calls", tool_calls=[(f"call_{turn}", name, text)])
    return ScriptedReply(f"I call {name}.\n" + json.dumps({"function": name, "arguments": arguments}))


def responder(scripts: SGCoTScripts, fallback: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
    """The scripted server's responder: SG-CoT prompts by ``scripts``, everything else by ``fallback``."""
    return lambda body: respond(body, scripts) if is_sgcot(body) else fallback(body)
