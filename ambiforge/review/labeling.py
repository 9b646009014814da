"""The Label Studio labeling interface, generated: ``annotation/labeling_config.xml.j2`` filled with the
registered ambiguity types (``ambiforge.ambiguity``), readable choice names, and the correction boxes.

The choice a result stores is its ``alias`` (the identifier: ``accept_with_fixes``, a type's name); what
annotators read is its ``value`` (``Accept with fixes``, the type's label, its description as the hint).
``annotation/labeling_config.xml`` is this rendering for the built-in types, committed so it can be read
and diffed; ``review push`` renders it afresh, so a type registered from a folder is a choice too. A
project's ``[paths] annotation`` folder is where ``review config --write`` writes it; a template of its own
there (``labeling_config.xml.j2``) replaces the packaged one.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from ambiforge import ambiguity, inputs
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


def template_path(annotation: Path | None = None) -> Path:
    """The template in the ``[paths] annotation`` folder when it has one, else the packaged one."""
    own = annotation / TEMPLATE.name if annotation is not None else None
    return own if own is not None and own.is_file() else TEMPLATE


def rendered_path(annotation: Path | None = None) -> Path:
    """Where ``review config --write`` puts the rendering: in the ``[paths] annotation`` folder."""
    return annotation / RENDERED.name if annotation is not None else RENDERED


def render_labeling_config(annotation: Path | None = None) -> str:
    """The labeling config for the types registered now, from the template of ``annotation`` (``[paths]
    annotation``) if it has one."""
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    template = env.from_string(inputs.read_text(template_path(annotation), inputs.CONFIG, "labeling template"))
    return template.render(
        verdicts=[(v, label, hint) for v, (label, hint) in VERDICTS.items()],
        types=[
            {"name": t.name, "label": t.label, "description": " ".join(t.description.split())}
            for t in ambiguity.types().values()
        ],
        checks=list(CHECKS.items()),
        corrections=[(name, field, label, rows) for name, (field, label, rows) in CORRECTIONS.items()],
    )


def write_labeling_config(path: Path = RENDERED, annotation: Path | None = None) -> Path:
    return write_text_atomic(path, render_labeling_config(annotation))


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
