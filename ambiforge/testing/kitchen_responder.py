"""Scripted replies to ambiforge's own prompts, so the test server can stand in for a model in a whole build.

It reads what a model would read (the scene, the ambiguity type, the task, from the prompt text), works
out the pairs the catalog's templates allow in that scene (:mod:`ambiforge.generation.offline`), and
answers each step from the one pair whose unambiguous task the prompt carries. It is stateless: any step
of any pair can be answered in any order, by any server process, which a resumed build needs.

Replies use the scene's graph as the generator resolves them (:mod:`ambiforge.generation.llm.resolution`):
the intent's ``referent`` is a noun or name of the draft's objects that the ambiguous task says, a shortlist
is everything that referent resolves to, and the ``action`` is the affordance whose set the variants are
("none" if no affordance fits them); see :func:`grounding`.

``flawed_share`` makes that share of ambiguous-variant replies bad on purpose (a rewrite that is not
minimal, a shortlist naming an object not in the scene; for an environment-induced type an answer that picks
nothing), to exercise candidate selection and repairs. An environment type's prompt carries the pair in plain
words (the world drew it), which the responder sends back as the model's words. Asked to repair
(the generator found a name the kitchen lacks), it drops the names the kitchen lacks and keeps the rest,
as a model told "keep everything that was right" would.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import threading
from dataclasses import dataclass
from typing import Any

from ambiforge import ambiguity
from ambiforge.catalog import Catalog, load_catalog
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.environment.sampler import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.llm.resolution import NO_ACTION, mentioned
from ambiforge.generation.offline import phrases, planning
from ambiforge.generation.offline.generator import sane
from ambiforge.generation.offline.library import candidates, has_templates
from ambiforge.llm.ask import REPAIR
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import afforded, build_graph, resolve
from ambiforge.world.index import index

#: An environment type's prompt shows the pair in plain words (the world made it): the responder keeps them.
_PLAIN = re.compile(r"^Plain (task|paraphrase|question|answer): (.*)$", re.MULTILINE)
_FIELD = {
    "objects": re.compile(r"^Objects in the kitchen: (.*)$", re.MULTILINE),
    "type": re.compile(r"^Ambiguity type: (\w+)$", re.MULTILINE),
    "task": re.compile(r"^Unambiguous task: (.*)$", re.MULTILINE),
}
#: A line of the prompt's kitchen map: ``place (closed): object (attributes), object ...``.
_MAP_LINE = re.compile(r"^([a-z][a-z ]*?)( \(closed\))?: (.*)$")
_PICK = re.compile(r"^Pick up the (.+)\.$")
_PICK_ANY = re.compile(r"^Pick up (a|an|some) (.+)\.$")
_OPEN, _TAKE, _CLOSE = (
    re.compile(r"^Open the (.+)\.$"),
    re.compile(r"^Take the (.+) out of the (.+)\.$"),
    "Close the {}.",
)


def kitchen_map(user: str) -> dict[str, tuple[str, bool]]:
    """Where the prompt's kitchen map says each object is: name -> (place, closed)."""
    start = user.find("Kitchen map")
    where: dict[str, tuple[str, bool]] = {}
    if start < 0:
        return where
    for line in user[start:].splitlines()[1:]:
        m = _MAP_LINE.match(line.strip())
        if m is None:
            break
        for entry in re.split(r", (?![^()]*\))", m.group(3)):
            name = entry.split(" (")[0].strip()
            if name and name != "nothing":
                where[name] = (m.group(1), bool(m.group(2)))
    return where


def as_placed(steps: list[str], where: dict[str, tuple[str, bool]], meant: str = "") -> tuple[list[str], list[int]]:
    """The plan with each fetch written for where the map keeps the object, as a model told to "take things
    from where the map says they are" would (the responder's drafts are planned on a kitchen of its own);
    with, for each old step, the index of its first new step. ``meant``: the clear plan's text, which names
    the object an ambiguous fetch ends up taking."""
    out: list[str] = []
    first: list[int] = []
    i = 0
    while i < len(steps):
        name = None
        span = 1
        if (m := _PICK.match(steps[i])) is not None:
            name = m.group(1)
        elif (a := _PICK_ANY.match(steps[i])) is not None:
            fits = [n for n in where if n == a.group(2) or n.endswith(" " + a.group(2))]
            kept = {where[n] for n in fits}
            if len(kept) > 1:  # kept apart: the plan goes where the object the clear plan uses is kept
                kept = {where[n] for n in fits if n in meant}
            if len(kept) == 1:
                (place, closed), noun = kept.pop(), f"{a.group(1)} {a.group(2)}"
                first.append(len(out) + int(closed))  # the choice is made where it is taken out
                out.extend(
                    [f"Open the {place}.", f"Take {noun} out of the {place}.", _CLOSE.format(place)]
                    if closed
                    else [steps[i]]
                )
                i += 1
                continue
        elif (
            (o := _OPEN.match(steps[i])) is not None
            and i + 2 < len(steps)
            and (t := _TAKE.match(steps[i + 1])) is not None
            and t.group(2) == o.group(1)
            and steps[i + 2] == _CLOSE.format(o.group(1))
        ):
            name, span = t.group(1), 3
        if name is None or name not in where:
            first.append(len(out))
            out.append(steps[i])
            i += 1
            continue
        place, closed = where[name]
        fetch = (
            [f"Open the {place}.", f"Take the {name} out of the {place}.", _CLOSE.format(place)]
            if closed
            else [f"Pick up the {name}."]
        )
        first.extend([len(out)] * span)
        out.extend(fetch)
        i += span
    return out, first


# The step, from the reply shape the prompt asks for (when no JSON schema name came with the request).
_SHAPES = (
    ('"ambiguity_starts_at_step"', "plan_ambiguous"),
    ('only key is "task"', "unambiguous_task"),
    ('only key is "paraphrase"', "indirect"),
    ('"ambiguous_task", the rewritten', "ambiguous_variant"),
    ('"task", the instruction (one sentence)', "ambiguous_environment"),
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


#: How a repair turn begins (the generator's repair message up to its error).
REPAIR_PREFIX = REPAIR.split("{error}")[0]
UNICORN = "golden unicorn"


def node_of(graph: SceneGraph, name: str) -> Node | None:
    """A draft's name as a node: by id or name, else a noun that resolves to one node ("kettle")."""
    node = index(graph).find(name)
    if node is None:
        found = resolve(graph, name)
        node = found[0] if len(found) == 1 else None
    return node


@dataclass(frozen=True)
class Grounded:
    """A draft's lists and intent fields as a careful model writes them after reading the kitchen map."""

    shortlist: list[str]
    variants: list[str]
    referent: str
    action: str


def grounding(graph: SceneGraph, draft: Draft, has_shortlist: bool) -> Grounded:
    """The referent is a noun or name of the draft's objects that the ambiguous task says; a type with a
    shortlist lists everything that referent resolves to (the dirty mug is a mug too); otherwise the action
    is the affordance whose set the draft's variants are, "none" if no affordance fits them."""
    shortlist, variants = draft.amb_shortlist, draft.variants
    nodes = [n for name in (shortlist or variants) if (n := node_of(graph, name)) is not None]
    if not nodes:
        named = [o for o in graph.nodes if o.type == "object" and mentioned(o.name, draft.ambiguous_task)]
        return Grounded(shortlist, variants, named[0].name if named else graph.nodes[0].name, "none")
    ids = {n.id for n in nodes}
    words = nodes[0].name.replace("-", " ").split()
    options = [nodes[0].noun, " ".join(words[-1:]), " ".join(words[-2:]), nodes[0].name]
    said = [r for r in options if mentioned(r, draft.ambiguous_task)]
    if has_shortlist:
        referent = next((r for r in said if ids <= {n.id for n in resolve(graph, r)}), nodes[0].noun)
        fits = [n.name for n in resolve(graph, referent) if n.type == "object"]
        return Grounded(fits, fits if set(variants) == set(shortlist) else variants, referent, "none")
    exact = [r for r in options if {n.id for n in resolve(graph, r)} == ids]
    referent = next((r for r in said if r in exact), None) or (said or exact or [nodes[0].noun])[0]
    actions = sorted(cached_affordances().actions)
    action = next((a for a in actions if {n.id for n in afforded(graph, referent, a)} == ids), NO_ACTION)
    return Grounded(shortlist, variants, referent, action)


def unpointed(draft: Draft, names: list[str]) -> Draft:
    """The draft's tasks with "this"/"that" said as "the" before the kitchen's objects: the responder drafts
    on placements of its own, and the build's kitchen keeps things elsewhere (pointing at an object there
    that is not at hand is a defect the reader flags)."""
    words, _ = phrases.pointing()
    said = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    if not said:
        return draft
    pattern = re.compile(rf"\b({'|'.join(words)})\s+({said})\b", re.IGNORECASE)

    def the(m: re.Match[str]) -> str:
        return ("The " if m.group(1)[0].isupper() else "the ") + m.group(2)

    fields = ("unambiguous_direct", "unambiguous_indirect", "ambiguous_task")
    return dataclasses.replace(draft, **{f: pattern.sub(the, getattr(draft, f)) for f in fields})


class KitchenResponder:
    def __init__(self, catalog: Catalog | None = None, flawed_share: float = 0.0) -> None:
        self.catalog = catalog or load_catalog()
        self.flawed_share = flawed_share
        self._drafts: dict[tuple[str, str], list[Draft]] = {}
        self._graphs: dict[str, SceneGraph] = {}
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
        # Graphs of the environment the prompt gave under a few placements of the responder's own (its drafts
        # depend on nothing else; the fetches are rewritten for the prompt's map when it replies).
        for placement in range(3):
            graph = build_graph(scene, placement)
            offered = candidates(scene, self.catalog, ambiguity_type, graph) if has_templates(ambiguity_type) else []
            for i, candidate in enumerate(offered):
                draft = candidate.build(random.Random(f"{environment}|{ambiguity_type}|{candidate.key}|{i}"))
                if not isinstance(draft, Draft):
                    continue
                if draft.world is not None:  # a perturbed kitchen's draft comes planned on its own world
                    if sane(draft) is None:
                        found.append(draft)
                    continue
                planned = planning.plan(draft, graph, self.catalog)
                if not isinstance(planned, planning.Planned) or sane(planned.draft) is not None:
                    continue
                # the build's kitchen keeps what it holds clean where it is kept: nothing used to load
                if not any(s.endswith(" in the dishwasher.") for s in planned.draft.plan_for_clear_task):
                    found.append(unpointed(planned.draft, names))
        with self._lock:
            self._drafts[key] = found
        return found

    @staticmethod
    def has_shortlist(ambiguity_type: str) -> bool:
        return ambiguity_type in ambiguity.names() and ambiguity.get(ambiguity_type).has_shortlist

    def graph(self, environment: str) -> SceneGraph:
        """The scene's graph under any seed: what resolves and what affords does not depend on placement."""
        with self._lock:
            if environment in self._graphs:
                return self._graphs[environment]
        names = [n.strip() for n in environment.split(",") if n.strip()]
        graph = build_graph(Scene(tuple(self.catalog.objects[n] for n in names if n in self.catalog.objects)), 0)
        with self._lock:
            self._graphs[environment] = graph
        return graph

    def __call__(self, body: dict[str, Any]) -> str:
        messages = body.get("messages") or []
        user = next((str(m.get("content", "")) for m in messages if m.get("role") == "user"), "")
        repairing = str(messages[-1].get("content", "")).startswith(REPAIR_PREFIX) if messages else False
        fields = {name: (m.group(1).strip() if (m := rx.search(user)) else "") for name, rx in _FIELD.items()}
        seed = int(body.get("seed") or body.get("random_seed") or 0)
        step = step_of(body, user)
        if step == "ambiguous_environment":
            reply = {m.group(1): m.group(2).strip() for m in _PLAIN.finditer(user)}
            if not repairing and random.Random(f"flaw:{seed}").random() < self.flawed_share:
                reply["answer"] = "Do whatever you think is best."  # picks nothing: the world rules refuse it
            return json.dumps(reply)
        drafts = self.drafts(fields["objects"], fields["type"])
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
            return json.dumps({"plan": as_placed(draft.plan_for_clear_task, kitchen_map(user))[0]})
        grounded = grounding(self.graph(fields["objects"]), draft, self.has_shortlist(fields["type"]))
        if step == "ambiguous_variant":
            reply = {
                "ambiguous_task": draft.ambiguous_task,
                "question": draft.question,
                "answer": draft.answer,
                "shortlist": grounded.shortlist,
            }
            if random.Random(f"flaw:{seed}").random() < self.flawed_share:
                reply["ambiguous_task"] = "Could you please deal with all of the things over there however you like?"
                if reply["shortlist"] and not repairing:
                    reply["shortlist"] = [*reply["shortlist"], UNICORN]
            return json.dumps(reply)
        if step == "plan_ambiguous":
            plan, first = as_placed(draft.plan_for_amb_task, kitchen_map(user), " ".join(draft.plan_for_clear_task))
            start = first[draft.end_of_ambiguity] if draft.end_of_ambiguity < len(first) else draft.end_of_ambiguity
            return json.dumps({"plan": plan, "ambiguity_starts_at_step": start + 1})
        if step == "intent":
            reply = {"user_intent": draft.user_intent, "variants": grounded.variants}
            return json.dumps(reply | {"referent": grounded.referent, "action": grounded.action})
        return json.dumps({"error": f"unknown step {step!r}"})
