"""An item as a Label Studio task (data to show) and the pipeline's own judgement as a prediction."""

from __future__ import annotations

from typing import Any

from ambiforge.models import Item

TO_NAME = "ambiguous_task"
CORRECTION_FIELDS = {
    "fix_ambiguous_task": "ambiguous_task",
    "fix_question": "question",
    "fix_answer": "answer",
    "fix_amb_shortlist": "amb_shortlist",
    "fix_user_intent": "user_intent",
}


def _plan(steps: list[str], marked: int | None) -> str:
    return "\n".join(f"{'>> ' if i == marked else ''}{i + 1}. {s}" for i, s in enumerate(steps))


def task_data(item: Item) -> dict[str, Any]:
    warnings = [f"{f.rule}: {f.message}" for f in (item.validation.failed if item.validation else [])]
    return {
        "item_id": item.id,
        "environment_full": item.environment_full or item.environment_short,
        "unambiguous_direct": item.unambiguous_direct,
        "unambiguous_indirect": item.unambiguous_indirect or "(none)",
        "ambiguous_task": item.ambiguous_task,
        "question": item.question,
        "answer": item.answer,
        "plan_for_clear_task": _plan(item.plan_for_clear_task, item.end_of_ambiguity),
        "plan_for_amb_task": _plan(item.plan_for_amb_task, item.end_of_ambiguity),
        "amb_shortlist": ", ".join(item.amb_shortlist) or "(none)",
        "user_intent": ", ".join(item.user_intent) or "(none)",
        "warnings": "; ".join(warnings) or "none",
        "ambiguity_type": item.ambiguity_type,
    }


def choice(name: str, values: list[str]) -> dict[str, Any]:
    return {"from_name": name, "to_name": TO_NAME, "type": "choices", "value": {"choices": values}}


def textarea(name: str, text: str) -> dict[str, Any]:
    to_name = CORRECTION_FIELDS[name]
    return {"from_name": name, "to_name": to_name, "type": "textarea", "value": {"text": [text]}}


def prediction(item: Item) -> dict[str, Any]:
    """The pipeline's view as a pre-annotation: accept, with its type (warnings are in the task data)."""
    return {
        "model_version": "ambiforge",
        "result": [choice("verdict", ["accept"]), choice("ambiguity_type", [item.ambiguity_type])],
    }


def ls_task(item: Item) -> dict[str, Any]:
    return {"data": task_data(item), "predictions": [prediction(item)]}


def parse_result(result: list[dict[str, Any]]) -> dict[str, Any]:
    """Label Studio result regions -> verdict, ambiguity_type, failed_checks, corrections."""
    parsed: dict[str, Any] = {"verdict": None, "ambiguity_type": None, "failed_checks": [], "corrections": {}}
    for region in result:
        name, value = region.get("from_name"), region.get("value", {})
        if name in ("verdict", "ambiguity_type"):
            parsed[name] = (value.get("choices") or [None])[0]
        elif name == "failed_checks":
            parsed["failed_checks"] = sorted(value.get("choices") or [])
        elif name in CORRECTION_FIELDS:
            text = " ".join(value.get("text") or []).strip()
            if text:
                parsed["corrections"][CORRECTION_FIELDS[name]] = text
    return parsed
