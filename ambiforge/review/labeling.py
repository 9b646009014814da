"""The Label Studio labeling interface, generated: ``annotation/labeling_config.xml.j2`` filled with the
registered ambiguity types (``ambiforge.ambiguity``), readable choice names, and the correction boxes.

The choice a result stores is its ``alias`` (the identifier: ``accept_with_fixes``, a type's name); what
annotators read is its ``value`` (``Accept with fixes``, the type's label, its description as the hint).
``annotation/labeling_config.xml`` is this rendering for the built-in types, committed so it can be read
and diffed; ``review push`` renders it afresh, so a type registered from a folder is a choice too.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from ambiforge import ambiguity
from ambiforge.atomic import write_text_atomic
from ambiforge.resources import resource_dir

ANNOTATION_DIR = resource_dir("annotation")
TEMPLATE = ANNOTATION_DIR / "labeling_config.xml.j2"
RENDERED = ANNOTATION_DIR / "labeling_config.xml"
GUIDELINES = ANNOTATION_DIR / "guidelines.md"

#: verdict identifier -> (what annotators read, hint)
VERDICTS: dict[str, tuple[str, str]] = {
    "accept": ("Accept", "everything is right"),
    "accept_with_fixes": ("Accept with fixes", "right once the corrections below are applied"),
    "reject": ("Reject", "cannot be fixed with small edits"),
}
#: failed check identifier -> label
CHECKS: dict[str, str] = {
    "objects_missing_from_scene": "Objects missing from the scene",
    "more_than_one_ambiguity": "More than one ambiguity",
    "question_does_not_resolve": "Question does not resolve it",
    "plan_wrong": "Plan wrong",
    "unsafe": "Unsafe",
}
#: correction box -> (item field, placeholder, rows)
CORRECTIONS: dict[str, tuple[str, str, int]] = {
    "fix_ambiguous_task": ("ambiguous_task", "ambiguous task", 1),
    "fix_question": ("question", "question", 1),
    "fix_answer": ("answer", "answer", 1),
    "fix_amb_shortlist": ("amb_shortlist", "shortlist, comma-separated", 1),
    "fix_user_intent": ("user_intent", "intent, e.g. ceramic|glass, -metal", 1),
}


def render_labeling_config() -> str:
    """The labeling config for the types registered now."""
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    template = env.from_string(TEMPLATE.read_text(encoding="utf-8"))
    return template.render(
        verdicts=[(v, label, hint) for v, (label, hint) in VERDICTS.items()],
        types=[
            {"name": t.name, "label": t.label, "description": " ".join(t.description.split())}
            for t in ambiguity.types().values()
        ],
        checks=list(CHECKS.items()),
        corrections=[(name, field, label, rows) for name, (field, label, rows) in CORRECTIONS.items()],
    )


def write_labeling_config(path: Path = RENDERED) -> Path:
    return write_text_atomic(path, render_labeling_config())


def instructions_html() -> str:
    """The annotator guidelines as the project's instructions (HTML, shown before labeling), with the
    registered types described from their definitions.

    markdown-it-py (CommonMark; already installed as rich's Markdown parser) renders the Markdown."""
    from markdown_it import MarkdownIt

    text = GUIDELINES.read_text(encoding="utf-8")
    types = "\n".join(
        f"   - *{t.label}* (`{t.name}`): {' '.join(t.description.split())}"
        + (" The shortlist lists the candidates (at least two, all in the scene)." if t.has_shortlist else "")
        for t in ambiguity.types().values()
    )
    return MarkdownIt("commonmark", {"html": False}).render(text.replace("{{ types }}", types))
