"""A clarification dialogue: a policy (any model) may ask the simulated user up to ``k`` questions before it
writes the next action (after the clarification benchmark with a provider agent).

Scored as that benchmark does, per task:
- success: for an ambiguous task of a type whose good agent asks (``good_agent == "ask"``), the policy asked
  and its action then satisfies the intent; for the other types' ambiguous tasks and for every clear task,
  it acted correctly (the intent holds) without asking;
- query discrepancy: questions asked minus questions needed (1 for an ambiguous task of an asking type, else 0);
- question length: words per question asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ambiforge import ambiguity
from ambiforge.detectors import prompts
from ambiforge.detectors.intent import satisfies
from ambiforge.detectors.model import CallTag, EvalModel, call_seed
from ambiforge.detectors.simulated_user import Hidden, answer
from ambiforge.detectors.tasks import EvalTask
from ambiforge.errors import LLMCallError, LLMOutputError

PROMPT = "eval_dialogue"
_TURN = re.compile(r"^\W*(question|action)\W{0,3}\s*(.+)$", re.IGNORECASE | re.MULTILINE)


@dataclass
class Conversation:
    turns: list[dict[str, str]] = field(default_factory=list)  # {"question", "reply", "kind"}
    action: str = ""
    calls: list[str] = field(default_factory=list)
    cached_calls: int = 0
    error: str | None = None

    @property
    def questions(self) -> list[str]:
        return [t["question"] for t in self.turns]


def hidden_from_task(task: EvalTask) -> Hidden:
    """What the simulated user knows of the task's pair (both halves share it)."""
    amb, clear = (task.task, task.twin) if task.ambiguous else (task.twin, task.task)
    return Hidden(
        ambiguous_task=amb,
        clear_task=clear,
        answer=task.answer,
        intent=task.intent,
        shortlist=task.pair_shortlist,
        variants=task.variants,
        clear_step=task.gold_step,
        scene=tuple(o.strip() for o in task.environment.split(",") if o.strip()),
    )


def parse_turn(text: str) -> tuple[str, str]:
    """``("question"|"action", text)``: a ``Question:``/``Action:`` line, else a reply ending in "?" is a
    question and any other non-empty first line an action; an empty reply is unusable (ValueError)."""
    found = _TURN.search(text)
    if found:
        return found.group(1).lower(), found.group(2).strip()
    line = next((s.strip() for s in text.splitlines() if s.strip()), "")
    if not line:
        raise ValueError("an empty reply from the dialogue policy")
    return ("question" if line.endswith("?") else "action"), line


def converse(
    task: EvalTask,
    model: EvalModel,
    *,
    max_questions: int = 1,
    user: str = "keyword",
    user_model: EvalModel | None = None,
    with_plan: bool = True,
    seed: int = 0,
) -> Conversation:
    """Ask-or-act turns until the policy acts (it must act once ``max_questions`` are used)."""
    prompt = prompts.prompt(PROMPT)
    hidden = hidden_from_task(task)
    talk = Conversation()
    try:
        for turn in range(max_questions + 1):
            may_ask = turn < max_questions
            _, messages = prompts.render(PROMPT, task, with_plan, may_ask=may_ask, dialogue=talk.turns)
            reply = model.complete(
                messages,
                CallTag("dialogue.policy", prompt.id, prompt.version, task.key),
                max_tokens=80,
                seed=call_seed(seed, task.key, "dialogue", turn),
            )
            talk.calls.append(reply.call_id)
            talk.cached_calls += int(reply.cached)
            kind, text = parse_turn(reply.text)
            if kind == "action" or not may_ask:
                talk.action = text if kind == "action" else ""
                if kind != "action":
                    talk.error = f"asked after its questions were used up: {text[:60]!r}"
                break
            said = answer(text, hidden, user, user_model or model, task.key, call_seed(seed, task.key, "user", turn))
            talk.calls += list(said.calls)
            talk.cached_calls += said.cached_calls
            talk.turns.append({"question": text, "reply": said.reply.text, "kind": said.reply.kind})
            if said.error:
                talk.error = f"simulated user: {said.error}"
                break
    except ValueError as exc:
        talk.error = str(exc)
    except (LLMCallError, LLMOutputError) as exc:
        talk.error = f"call failed: {exc}"
    return talk


def needed_questions(task: EvalTask) -> int:
    return int(task.ambiguous and ambiguity.get(task.ambiguity_type).good_agent == "ask")


def score(task: EvalTask, talk: Conversation) -> dict[str, Any]:
    """The benchmark's per-task figures (see the module)."""
    needed = needed_questions(task)
    asked = len(talk.turns)
    correct = bool(talk.action) and satisfies(talk.action, task.intent)
    success = (asked > 0 and correct) if needed else (asked == 0 and correct)
    lengths = [len(q.split()) for q in talk.questions]
    return {
        "success": success,
        "action_correct": correct,
        "questions": asked,
        "needed": needed,
        "query_discrepancy": asked - needed,
        "question_words": round(sum(lengths) / len(lengths), 2) if lengths else None,
        "gold_replies": sum(1 for t in talk.turns if t["kind"] == "gold"),
    }
