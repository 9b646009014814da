"""Scripted replies to ambiforge's own prompts, so the test server can stand in for a model in a whole build.

It reads what a model would read (the scene, the ambiguity type, the task, from the prompt text), works
out the pairs the catalog's templates allow in that scene (:mod:`ambiforge.generation.offline`), and
answers each step from the one pair whose unambiguous task the prompt carries. It is stateless: any step
of any pair can be answered in any order, by any server process, which a resumed build needs.

``flawed_share`` makes that share of ambiguous-variant replies bad on purpose (a rewrite that is not
minimal, a shortlist naming an object not in the scene), to exercise candidate selection.
"""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

from ambiforge.catalog import Catalog, load_catalog
from ambiforge.environment.sampler import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import planning
from ambiforge.generation.offline.generator import sane
from ambiforge.generation.offline.library import candidates, has_templates
from ambiforge.world import build_graph

_FIELD = {
    "objects": re.compile(r"^Objects in the kitchen: (.*)$", re.MULTILINE),
    "type": re.compile(r"^Ambiguity type: (\w+)$", re.MULTILINE),
    "task": re.compile(r"^Unambiguous task: (.*)$", re.MULTILINE),
}
# The step, from the reply shape the prompt asks for (when no JSON schema name came with the request).
_SHAPES = (
    ('"ambiguity_starts_at_step"', "plan_ambiguous"),
    ('only key is "task"', "unambiguous_task"),
    ('only key is "paraphrase"', "indirect"),
    ('"ambiguous_task", the rewritten', "ambiguous_variant"),
    ('"user_intent"', "intent"),
    ('only key is "plan"', "plan"),
)


def step_of(body: dict[str, Any], user: str) -> str | None:
    fmt = body.get("response_format") or {}
    schema = fmt.get("json_schema") if isinstance(fmt, dict) else None
    if isinstance(schema, dict) and schema.get("name"):
        return str(schema["name"])
    inline = fmt.get("schema") if isinstance(fmt, dict) else None  # json_object mode with the schema
    if isinstance(inline, dict) and inline.get("title"):
        return str(inline["title"])
    return next((step for marker, step in _SHAPES if marker in user), None)


class KitchenResponder:
    def __init__(self, catalog: Catalog | None = None, flawed_share: float = 0.0) -> None:
        self.catalog = catalog or load_catalog()
        self.flawed_share = flawed_share
        self._drafts: dict[tuple[str, str], list[Draft]] = {}
        self._lock = threading.Lock()

    def drafts(self, environment: str, ambiguity_type: str) -> list[Draft]:
        key = (environment, ambiguity_type)
        with self._lock:
            if key in self._drafts:
                return self._drafts[key]
        names = [n.strip() for n in environment.split(",") if n.strip()]
        objects = tuple(self.catalog.objects[n] for n in names if n in self.catalog.objects)
        scene = Scene(objects)
        found: list[Draft] = []
        # The graph of the environment the prompt gave (seed 0: the responder's drafts depend on nothing else).
        graph = build_graph(scene, 0)
        offered = candidates(scene, self.catalog, ambiguity_type, graph) if has_templates(ambiguity_type) else []
        for i, candidate in enumerate(offered):
            draft = candidate.build(random.Random(f"{environment}|{ambiguity_type}|{candidate.key}|{i}"))
            planned = planning.plan(draft, graph, self.catalog) if isinstance(draft, Draft) else None
            if isinstance(planned, planning.Planned) and sane(planned.draft) is None:
                found.append(planned.draft)
        with self._lock:
            self._drafts[key] = found
        return found

    def __call__(self, body: dict[str, Any]) -> str:
        messages = body.get("messages") or []
        user = next((str(m.get("content", "")) for m in messages if m.get("role") == "user"), "")
        fields = {name: (m.group(1).strip() if (m := rx.search(user)) else "") for name, rx in _FIELD.items()}
        seed = int(body.get("seed") or body.get("random_seed") or 0)
        drafts = self.drafts(fields["objects"], fields["type"])
        step = step_of(body, user)
        if step == "unambiguous_task":
            if not drafts:
                return json.dumps({"task": ""})  # nothing fits: an invalid reply, as a model might give
            return json.dumps({"task": drafts[seed % len(drafts)].unambiguous_direct})
        draft = next((d for d in drafts if d.unambiguous_direct == fields["task"]), None)
        if draft is None:
            return json.dumps({"error": "I do not know this task"})
        if step == "indirect":
            return json.dumps({"paraphrase": draft.unambiguous_indirect or draft.unambiguous_direct})
        if step == "plan":
            return json.dumps({"plan": draft.plan_for_clear_task})
        if step == "ambiguous_variant":
            reply = {
                "ambiguous_task": draft.ambiguous_task,
                "question": draft.question,
                "answer": draft.answer,
                "shortlist": draft.amb_shortlist,
            }
            if random.Random(f"flaw:{seed}").random() < self.flawed_share:
                reply["ambiguous_task"] = "Could you please deal with all of the things over there however you like?"
                if reply["shortlist"]:
                    reply["shortlist"] = [*reply["shortlist"], "golden unicorn"]
            return json.dumps(reply)
        if step == "plan_ambiguous":
            return json.dumps({"plan": draft.plan_for_amb_task, "ambiguity_starts_at_step": draft.end_of_ambiguity + 1})
        if step == "intent":
            return json.dumps({"user_intent": draft.user_intent, "variants": draft.variants})
        return json.dumps({"error": f"unknown step {step!r}"})
