"""A deterministic stand-in model for the eval prompts, for tests and benchmarks.

:func:`respond` answers a chat-completions body (the scripted server's responder signature) and
:func:`first_token_logprobs` gives the first token's top log-probabilities for it; :class:`ScriptedModel`
serves both in-process as an :class:`~ambiforge.evaluation.model.EvalModel`. Replies depend only on the
prompt (and the seed for sampled calls), so expected numbers can be worked out by hand:

- options: A) the task's first sentence, B)-D) "Pick up the <k-th scene object>."
- choice: letter log-probabilities A = -(0.1 + 2u), B = -1.5, C = -2.5, D = -3.5, with u in [0, 1) a hash of
  the task text (so sets differ between tasks);
- affordance: True -0.2 / False -1.8 (P(True) = 0.832);
- next action: the task's first sentence at temperature 0; sampled calls alternate with seed parity between
  it and "Pick up the <first scene object>.";
- certainty: "Uncertain" when u < 0.5, else "Certain".
"""

from __future__ import annotations

import hashlib
import re
import threading
from typing import Any

from ambiforge.evaluation.model import CallTag, Completion, Messages, TokenLogprobs

_FIELD = re.compile(r"^(Scene|Task): (.*)$", re.MULTILINE)


def _last(messages: list[dict[str, Any]], label: str) -> str:
    text = str(messages[-1].get("content", "")) if messages else ""
    found = [m.group(2).strip() for m in _FIELD.finditer(text) if m.group(1) == label]
    return found[-1] if found else ""


def unit(text: str) -> float:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16) / 2**32


def first_sentence(text: str) -> str:
    head = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    return head if head.endswith((".", "!", "?")) else head + "."


def _kind(messages: list[dict[str, Any]]) -> str:
    system = str(messages[0].get("content", "")) if messages else ""
    for marker, kind in (
        ("possible next actions", "options"),
        ("Answer with one letter", "choose"),
        ("possible with the objects in the scene", "affordance"),
        ("Certain or Uncertain", "certainty"),
        ("write the next action", "action"),
    ):
        if marker in system:
            return kind
    return "unknown"


def respond(body: dict[str, Any]) -> str:
    messages = body.get("messages", [])
    kind = _kind(messages)
    task, scene = _last(messages, "Task"), _last(messages, "Scene")
    objects = [o.strip() for o in scene.split(",") if o.strip()] or ["sponge"]
    if kind == "options":
        others = [f"Pick up the {objects[k % len(objects)]}." for k in range(3)]
        return "\n".join(
            f"{letter}) {text}" for letter, text in zip("ABCD", [first_sentence(task), *others], strict=True)
        )
    if kind == "choose":
        return "A"
    if kind == "affordance":
        return "True"
    if kind == "certainty":
        return "Uncertain" if unit(task) < 0.5 else "Certain"
    if kind == "action":
        if float(body.get("temperature", 0)) > 0 and int(body.get("seed", 0)) % 2:
            return f"Pick up the {objects[0]}."
        return first_sentence(task)
    return "I cannot help with that."


def first_token_logprobs(body: dict[str, Any]) -> dict[str, float]:
    messages = body.get("messages", [])
    kind = _kind(messages)
    if kind == "choose":
        u = unit(_last(messages, "Task"))
        return {"A": -(0.1 + 2 * u), "B": -1.5, "C": -2.5, "D": -3.5, " A": -6.0}
    if kind == "affordance":
        return {"True": -0.2, "False": -1.8}
    return {respond(body)[:1] or " ": -0.01}


class ScriptedModel:
    """In-process :class:`EvalModel` over :func:`respond`; counts calls and serves repeats from a memo
    (as the LLM client's cache would), so a test can check that a rerun makes no new request."""

    def __init__(self, name: str = "scripted") -> None:
        self.name = name
        self.requests = 0
        self._memo: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _body(self, messages: Messages, temperature: float, seed: int) -> dict[str, Any]:
        return {
            "messages": [{"role": r, "content": c} for r, c in messages],
            "temperature": temperature,
            "seed": seed,
        }

    def _key(self, kind: str, body: dict[str, Any]) -> str:
        return hashlib.sha256(repr((kind, body)).encode()).hexdigest()

    def complete(
        self, messages: Messages, tag: CallTag, *, temperature: float = 0.0, max_tokens: int = 128, seed: int = 0
    ) -> Completion:
        body = self._body(messages, temperature, seed)
        key = self._key("complete", body)
        with self._lock:
            cached = key in self._memo
            if not cached:
                self.requests += 1
                self._memo[key] = respond(body)
            return Completion(self._memo[key], key, cached)

    def next_token_logprobs(self, messages: Messages, tag: CallTag, *, top: int = 20, seed: int = 0) -> TokenLogprobs:
        body = self._body(messages, 0.0, seed)
        key = self._key("logprobs", body)
        with self._lock:
            cached = key in self._memo
            if not cached:
                self.requests += 1
                self._memo[key] = (respond(body), first_token_logprobs(body))
            text, tops = self._memo[key]
            return TokenLogprobs(text, dict(tops), key, cached)


def server_responder(body: dict[str, Any]) -> Any:
    """:func:`respond` for :class:`ambiforge.testing.llm_server.ScriptedLLMServer`, with the first token's
    log-probabilities of :func:`first_token_logprobs` on the calls that ask for them."""
    from ambiforge.testing.llm_server import ScriptedReply

    text = respond(body)
    if not body.get("logprobs"):
        return text
    tops = sorted(first_token_logprobs(body).items(), key=lambda kv: -kv[1])
    token, logprob = tops[0]
    return ScriptedReply(token, logprobs=[(token, logprob, tops)])
