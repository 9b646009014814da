"""Does a plan carry out its task, no more and no less: every clause of the task in some action, no action
on an object the task never mentions, and no step calling an object by a name its state has outgrown.

A plan as text can drop "four portions" or "on the eco program", turn "back on the shelf" into "in the
cupboard", or add "Tell the user the snack is ready"; read as sentences, nothing is wrong. Here the task's
parts are compared with the actions' arguments and parameters. The generator calls it on every pair it
makes (with the clauses it knows); a validation rule calls it on an item with what it reads from the task
(:func:`task_mentions`, :func:`task_values`).

Interface (``ambiforge.world.coverage``):

- ``uncovered(graph, plan, objects=, values=)`` -> problems: each of ``objects`` (node ids: the objects and
  places the task names) must be an argument (``obj``, ``target``, ``tool``) of some action, each of
  ``values`` ("four", "eco", "200") a word of some action's parameter (quantity, program, duration, how, ...).
- ``invented(graph, plan, objects)`` -> problems: an action on an *object* (places are the robot's way to
  reach things) that is not among ``objects`` (the task's objects and the ambiguous referent's options),
  but for the knife a cut implies when the task names no knife.
- ``stale_names(graph, plan, texts)`` -> problems: step text calling a washed object "dirty ...".
- ``task_mentions(graph, text)`` -> node ids whose name the text says; ``task_values(text)`` -> the numbers,
  amounts and programs it says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ambiforge.models.action import Action
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.textnorm import CARDINALS
from ambiforge.world.index import index
from ambiforge.world.simulator import Simulation

NODE_FIELDS = ("obj", "target", "tool")
PARAM_FIELDS = ("how", "quantity", "program", "duration", "person", "question")
_VALUE = re.compile(
    r"\b(\d+(?:\.\d+)?|" + "|".join(sorted(map(re.escape, CARDINALS), key=len, reverse=True)) + r")\b"
    r"|\bon the (\w+) program\b",
    re.IGNORECASE,
)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w'-]+", text.lower()))


def uncovered(
    graph: SceneGraph, plan: Sequence[Action], *, objects: Iterable[str] = (), values: Iterable[str] = ()
) -> list[str]:
    """The task's parts no action carries: "the task names the lower shelf; no step does", "the task says
    'four'; no step's parameters do"."""
    ix = index(graph)
    named = {getattr(a, f) for a in plan for f in NODE_FIELDS} - {None}
    said: set[str] = set()
    for a in plan:
        for f in PARAM_FIELDS:
            value = getattr(a, f)
            if value:
                said |= _words(value)
    problems: list[str] = []
    for ref in objects:
        if ref not in named:
            node = ix.by_id.get(ref)
            problems.append(f"the task names the {node.name if node else ref}; no step does")
    for value in values:
        if not _words(value) <= said:
            problems.append(f"the task says '{value}'; no step's parameters do")
    return problems


def invented(graph: SceneGraph, plan: Sequence[Action], objects: Iterable[str]) -> list[str]:
    """Steps acting on an object the task does not mention (places are how the robot reaches things). One
    exception: the knife a cut implies. "Slice the cake" names no knife, yet a robot cuts with one (as
    AmbiK's plans fetch one); a task that names any knife has the plan cut with that one."""
    ix, allowed = index(graph), set(objects)
    said_nouns = {ix.by_id[o].noun for o in allowed if o in ix.by_id}
    problems: list[str] = []
    for i, a in enumerate(plan):
        for f in NODE_FIELDS:
            ref = getattr(a, f)
            node = ix.by_id.get(ref) if ref else None
            if node is None or node.type != "object" or ref in allowed:
                continue
            if node.noun == "knife" and node.noun not in said_nouns and any(_cuts_with(b, ref) for b in plan):
                continue  # the knife its cutting implies
            problems.append(f"step {i + 1}: the task does not mention the {node.name}")
    return problems


def _cuts_with(action: Action, tool: str) -> bool:
    return action.verb == "cut" and action.tool == tool


def stale_names(graph: SceneGraph, plan: Sequence[Action], texts: Sequence[str]) -> list[str]:
    """Steps whose text calls an object by a name its state no longer fits (the dirty plate once washed)."""
    sim, problems = Simulation(graph), []
    for i, (a, text) in enumerate(zip(plan, texts, strict=False)):
        for f in NODE_FIELDS:
            ref = getattr(a, f)
            node = sim.node(ref) if ref else None
            washed = node is not None and node.name.startswith("dirty ") and node.state.clean is True
            if washed and node is not None and node.name.lower() in text.lower():
                problems.append(f"step {i + 1}: calls the washed {node.name.removeprefix('dirty ')} dirty")
        if sim.run(a) is not None:
            break
    return problems


def task_mentions(graph: SceneGraph, text: str) -> list[str]:
    """The nodes whose name the text says, longest names first (so "glass mug" is not also "mug"), in
    graph order."""
    lowered, found = f" {text.lower()} ", []
    for node in sorted(graph.nodes, key=lambda n: -len(n.name)):
        pattern = rf"(?<![\w-]){re.escape(node.name.lower())}(?![\w-])"
        if re.search(pattern, lowered):
            found.append(node.id)
            lowered = re.sub(pattern, " ", lowered)
    order = index(graph).order
    return sorted(found, key=order.__getitem__)


def task_values(text: str) -> list[str]:
    """The amounts and programs a task says: numbers, number words, "<name> program" (its name)."""
    out: list[str] = []
    for m in _VALUE.finditer(text):
        value = (m.group(1) or m.group(2)).lower()
        if value not in out:
            out.append(value)
    return out
