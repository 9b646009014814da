"""A deterministic stand-in model for the eval prompts, for tests and benchmarks.

:func:`respond` answers a chat-completions body (the scripted server's responder signature) and
:func:`first_token_logprobs` gives the first token's top log-probabilities for it; :class:`ScriptedModel`
serves both in-process as an :class:`~ambiforge.detectors.model.EvalModel`. Replies depend only on the
prompt (and the seed for sampled calls), so expected numbers can be worked out by hand:

- options: A) the task's first sentence, B)-D) "Pick up the <k-th scene object>."
- choice: letter log-probabilities A = -(0.1 + 2u), B = -1.5, C = -2.5, D = -3.5, with u in [0, 1) a hash of
  the task text (so sets differ between tasks);
- affordance: True -0.2 / False -1.8 (P(True) = 0.832);
- next action: the task's first sentence at temperature 0; sampled calls alternate with seed parity between
  it and "Pick up the <first scene object>.";
- certainty: "Uncertain" when u < 0.5, else "Certain".

The judge's prompts (debate, simulated user) and the dialogue method answer as :class:`Scripts` says, per
task text, so tests can drive each path (consensus in round 1 or k, none at the limit, an unusable reply):

- debate Leader: ``Verdict: <v>`` with a question "Which one do you mean for: <task>?" when ambiguous;
  the verdict of round r is the script's r-th (the last repeats; ``leader_verdicts`` per leader model),
  unscripted: ambiguous when u < 0.5, else clear;
- debate Follower: Disagree before round ``agree_from`` (never when it is 0), then Agree;
- an unusable reply (no verdict, no Agree/Disagree) from the ``unusable`` role in round ``unusable_round``;
- simulated user (LLM): ``classify[question]`` when scripted, else ADDRESSES when the question names a word
  of what is left open or of the options, CONFIRMATION when it opens with an auxiliary verb, else VAGUE;
- dialogue policy: the script's questions in order while it may ask, then ``Action: <action>`` (unscripted:
  no question; the action is the last non-redirect answer the user gave, else the task's first sentence).
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from ambiforge.detectors.model import CallTag, Completion, Messages, TokenLogprobs
from ambiforge.testing import scripted_sgcot
from ambiforge.testing.replies import ScriptedReply

_FIELD = re.compile(r"^(Scene|Task): (.*)$", re.MULTILINE)
_ARTICLE = re.compile(r"^(?:a|an|the|some)\s+", re.IGNORECASE)


def _user_text(messages: list[dict[str, Any]]) -> str:
    """The last user turn (the options request ends with a prefilled assistant turn)."""
    users = [m for m in messages if m.get("role") == "user"]
    return str(users[-1].get("content", "")) if users else ""


def _last(messages: list[dict[str, Any]], label: str) -> str:
    text = _user_text(messages)
    found = [m.group(2).strip() for m in _FIELD.finditer(text) if m.group(1) == label]
    return found[-1] if found else ""


def unit(text: str) -> float:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16) / 2**32


def first_sentence(text: str) -> str:
    head = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    return head if head.endswith((".", "!", "?")) else head + "."


@dataclass(frozen=True)
class DebateScript:
    verdicts: tuple[str, ...] = ()  # the Leader's verdict per round ("ambiguous"/"clear"); the last repeats
    agree_from: int = 1  # Followers disagree before this round; 0: they never agree
    unusable: str = ""  # "leader" or "follower": that role's reply in ``unusable_round`` is unusable
    unusable_round: int = 1
    leader_verdicts: dict[str, tuple[str, ...]] = field(default_factory=dict)  # per leader model name


@dataclass(frozen=True)
class DialogueScript:
    questions: tuple[str, ...] = ()  # asked in order while the policy may ask
    action: str = ""  # the final action ("": the last useful answer, else the task's first sentence)


@dataclass(frozen=True)
class Scripts:
    """How the scripted model plays the judge's and the dialogue's prompts, per task text."""

    debates: dict[str, DebateScript] = field(default_factory=dict)
    dialogues: dict[str, DialogueScript] = field(default_factory=dict)
    classify: dict[str, str] = field(default_factory=dict)  # question -> the LLM user's raw reply


DEFAULT_SCRIPTS = Scripts()
_ROUND = re.compile(r"^Round: (\d+)$", re.MULTILINE)
_LINE = re.compile(
    r"^(Instruction|What it leaves open|The options|The robot's question|You asked|The user answered): (.*)$",
    re.MULTILINE,
)
_AUX = ("should", "shall", "can", "could", "may", "do", "does", "did", "is", "are", "will", "would", "must")


def _lines(messages: list[dict[str, Any]], label: str) -> list[str]:
    text = str(messages[-1].get("content", "")) if messages else ""
    return [m.group(2).strip() for m in _LINE.finditer(text) if m.group(1) == label]


def _round(messages: list[dict[str, Any]]) -> int:
    found = _ROUND.search(str(messages[-1].get("content", ""))) if messages else None
    return int(found.group(1)) if found else 1


def _debate_reply(kind: str, body: dict[str, Any], task: str, scripts: Scripts) -> str:
    script = scripts.debates.get(task, DebateScript())
    round_ = _round(body.get("messages", []))
    role = "debate_lead" if script.unusable == "leader" else "debate_follow"
    if script.unusable and kind == role and round_ == script.unusable_round:
        return "I would rather not take part in this."
    if kind == "debate_follow":
        agrees = script.agree_from > 0 and round_ >= script.agree_from
        word = "Agree" if agrees else "Disagree"
        return f"Answer: {word}\nReasoning: The scene decides it.\nAlternative question: none"
    verdicts = script.leader_verdicts.get(str(body.get("model", "")), script.verdicts)
    unscripted = "ambiguous" if unit(task) < 0.5 else "clear"
    verdict = verdicts[min(round_, len(verdicts)) - 1] if verdicts else unscripted
    question = f"Which one do you mean for: {task}" if verdict == "ambiguous" else "none"
    return f"Verdict: {verdict}\nQuestion: {question.rstrip('.?')}?\nReasoning: Looking at the scene. It is {verdict}."


def _classify(messages: list[dict[str, Any]], scripts: Scripts) -> str:
    question = " ".join(_lines(messages, "The robot's question"))
    if question in scripts.classify:
        return scripts.classify[question]
    known = {
        w
        for text in _lines(messages, "What it leaves open") + _lines(messages, "The options")
        for w in re.findall(r"[a-z]{3,}", text.lower())
    }
    if known & set(re.findall(r"[a-z]{3,}", question.lower())):
        return "ADDRESSES"
    return "CONFIRMATION" if question.lower().startswith(_AUX) else "VAGUE"


def _dialogue(body: dict[str, Any], task: str, scripts: Scripts) -> str:
    from ambiforge.detectors.simulated_user import CONFIRM_TEXT, REDIRECT_TEXT

    messages = body.get("messages", [])
    script = scripts.dialogues.get(task, DialogueScript())
    asked = len(_lines(messages, "You asked"))
    may_ask = "cannot ask any more questions" not in str(messages[0].get("content", ""))
    if may_ask and asked < len(script.questions):
        return f"Question: {script.questions[asked]}"
    if script.action:
        return f"Action: {script.action}"
    useful = [r for r in _lines(messages, "The user answered") if r not in (REDIRECT_TEXT, CONFIRM_TEXT)]
    return f"Action: {useful[-1] if useful else first_sentence(task)}"


def _kind(messages: list[dict[str, Any]]) -> str:
    system = str(messages[0].get("content", "")) if messages else ""
    for marker, kind in (
        ("You lead a debate", "debate_lead"),
        ("Another judge leads the debate", "debate_follow"),
        ("Classify the question with one word", "user_classify"),
        ('"Question: ..." or "Action: ..."', "dialogue"),
        ("you cannot ask any more questions", "dialogue"),
        ("possible next actions", "options"),
        ("Answer with one letter", "choose"),
        ("possible with the objects in the scene", "affordance"),
        ("Certain or Uncertain", "certainty"),
        ("write the next action", "action"),
    ):
        if marker in system:
            return kind
    return "unknown"


def respond(body: dict[str, Any], scripts: Scripts = DEFAULT_SCRIPTS) -> str:
    if scripted_sgcot.is_sgcot(body):  # in process (no tools): SG-CoT's JSON replies
        return scripted_sgcot.respond(body).content
    messages = body.get("messages", [])
    kind = _kind(messages)
    task, scene = _last(messages, "Task"), _last(messages, "Scene")
    if kind in ("debate_lead", "debate_follow"):
        return _debate_reply(kind, body, task, scripts)
    if kind == "user_classify":
        return _classify(messages, scripts)
    if kind == "dialogue":
        return _dialogue(body, task, scripts)
    # the prompts show the scene as AmbiK's environment_full ("a whisk, sea salt"): objects without articles
    objects = [_ARTICLE.sub("", o.strip()) for o in scene.split(",") if o.strip()] or ["sponge"]
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

    def __init__(self, name: str = "scripted", scripts: Scripts = DEFAULT_SCRIPTS) -> None:
        self.name = name
        self.scripts = scripts
        self.requests = 0
        self.tags: list[CallTag] = []  # every request's tag (not the memo's repeats), for tests
        self._memo: dict[str, Any] = {}
        self._lock = threading.Lock()

    def with_model(self, name: str) -> ScriptedModel:
        """Another agent on the same scripts (a debate with different models)."""
        return ScriptedModel(name, self.scripts)

    def _body(self, messages: Messages, temperature: float, seed: int) -> dict[str, Any]:
        return {
            "model": self.name,
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
                self.tags.append(tag)
                self._memo[key] = respond(body, self.scripts)
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


def server_responder(body: dict[str, Any], scripts: Scripts = DEFAULT_SCRIPTS) -> Any:
    """:func:`respond` for :class:`ambiforge.testing.llm_server.ScriptedLLMServer`, with the first token's
    log-probabilities of :func:`first_token_logprobs` on the calls that ask for them."""
    if scripted_sgcot.is_sgcot(body):  # SG-CoT's prompt: its own scripted planner (unscripted policy)
        return scripted_sgcot.respond(body)
    text = respond(body, scripts)
    if not body.get("logprobs"):
        return text
    tops = sorted(first_token_logprobs(body).items(), key=lambda kv: -kv[1])
    token, logprob = tops[0]
    return ScriptedReply(token, logprobs=[(token, logprob, tops)])


def make_responder(scripts: Scripts) -> Any:
    """:func:`server_responder` playing ``scripts`` (for the judge's and the dialogue's prompts)."""
    return lambda body: server_responder(body, scripts)


def is_eval_prompt(body: dict[str, Any]) -> bool:
    """Whether the request is one of the eval's (or the judge's) prompts, which :func:`respond` plays."""
    return _kind(body.get("messages") or []) != "unknown" or scripted_sgcot.is_sgcot(body)


def either(build: Any, scripts: Scripts = DEFAULT_SCRIPTS) -> Any:
    """One responder for the project's scripted server: the eval's and the judge's prompts are answered
    by :func:`server_responder`, every other request (a build's steps) by ``build``, so one server stands in
    for the model of a build and of an eval (a build responder given an eval prompt finds no ambiguity
    type in it and fails the request)."""
    return lambda body: server_responder(body, scripts) if is_eval_prompt(body) else build(body)
