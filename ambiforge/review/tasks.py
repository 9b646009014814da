"""An item as a Label Studio task: the data to show, and what a result says.

The pipeline's own judgement (its type, the automatic checks' warnings, the judge stage's debates and
simulated user) is task data shown as
information, never a prediction: a pre-selected verdict anchors reviewers and makes one-click
rubber-stamping the default. The correction boxes start with the current text (``value="$field"``), so a
result carries every box; a box counts as a correction only when its text differs from what was shown,
after normalising whitespace and case.
"""

from __future__ import annotations

from typing import Any

from ambiforge import ambiguity
from ambiforge.judge.summary import shown as judge_shown
from ambiforge.models import Item
from ambiforge.review.labeling import CORRECTIONS

TO_NAME = "ambiguous_task"
CORRECTION_FIELDS = {name: field for name, (field, _, _) in CORRECTIONS.items()}
LIST_FIELDS = {"amb_shortlist", "user_intent"}


def normal(value: str) -> str:
    """How two texts are compared: whitespace collapsed, case folded."""
    return " ".join(value.split()).casefold()


def _plan(steps: list[str], marked: int | None) -> str:
    return "\n".join(f"{'>> ' if i == marked else ''}{i + 1}. {s}" for i, s in enumerate(steps))


def _type_label(name: str) -> str:
    known = ambiguity.types()
    return f"{known[name].label} ({name})" if name in known else name


def shown_value(item: Item, field: str) -> str:
    """The text a correction box starts with."""
    value = getattr(item, field)
    return ", ".join(value) if field in LIST_FIELDS else value


def task_data(item: Item) -> dict[str, Any]:
    warnings = [f"{f.rule}: {f.message}" for f in (item.validation.failed if item.validation else [])]
    checks = "passed" if item.validation is None or item.validation.passed else "failed"
    return {
        "item_id": item.id,
        "environment_shown": (item.environment_full or item.environment_short)
        + "\n(always there: fridge, oven, kitchen table, microwave, dishwasher, sink, tea kettle)",
        "clear_shown": f"Direct: {item.unambiguous_direct}\nParaphrase: {item.unambiguous_indirect or '(none)'}",
        "qa_shown": f"Question: {item.question}\nAnswer: {item.answer}",
        "plan_for_clear_task": _plan(item.plan_for_clear_task, item.end_of_ambiguity),
        "plan_for_amb_task": _plan(item.plan_for_amb_task, item.end_of_ambiguity),
        "shortlist_intent_shown": f"Shortlist: {', '.join(item.amb_shortlist) or '(none)'}\n"
        f"Intent: {', '.join(item.user_intent) or '(none)'}",
        "pipeline": f"Pipeline's type: {_type_label(item.ambiguity_type)}\nItem rules: {checks}"
        + ("\n" + "\n".join(f"- {w}" for w in warnings) if warnings else "; no warnings"),
        # the judge stage's verdicts, as information like the item rules' (never a pre-selected answer)
        "judge_shown": judge_shown(item.judgement),
        # the raw fields the correction boxes start with
        **{field: shown_value(item, field) for field in CORRECTION_FIELDS.values()},
        "pipeline_type": item.ambiguity_type,
    }


def ls_task(item: Item) -> dict[str, Any]:
    return {"data": task_data(item)}


def choice(name: str, values: list[str]) -> dict[str, Any]:
    return {"from_name": name, "to_name": TO_NAME, "type": "choices", "value": {"choices": values}}


def textarea(name: str, text: str) -> dict[str, Any]:
    return {"from_name": name, "to_name": TO_NAME, "type": "textarea", "value": {"text": [text]}}


def parse_result(result: list[dict[str, Any]], shown: dict[str, Any] | None = None) -> dict[str, Any]:
    """Label Studio result regions -> verdict, ambiguity_type, failed_checks, corrections.

    ``shown`` is the task data the annotator saw: a box whose text equals it (normalised) is no correction.
    """
    shown = shown or {}
    parsed: dict[str, Any] = {"verdict": None, "ambiguity_type": None, "failed_checks": [], "corrections": {}}
    for region in result:
        name, value = region.get("from_name"), region.get("value", {})
        if name in ("verdict", "ambiguity_type"):
            parsed[name] = (value.get("choices") or [None])[0]
        elif name == "failed_checks":
            parsed["failed_checks"] = sorted(value.get("choices") or [])
        elif name in CORRECTION_FIELDS:
            field = CORRECTION_FIELDS[name]
            text = " ".join(" ".join(value.get("text") or []).split())
            if text and normal(text) != normal(str(shown.get(field, ""))):
                parsed["corrections"][field] = text
    return parsed
