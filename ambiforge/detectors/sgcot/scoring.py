"""SG-CoT's figures as the seed defines them, per episode and per group.

- SR (success rate): on a clear half, the planner acts and acts right: the node it names is the item's
  target (``world.target``; an id or a name of the graph), or its step carries the intent (AmbiK's intent
  match, :func:`ambiforge.detectors.intent.is_correct`); on an ambiguous half it does what the type's good
  agent does: asks (preferences and every environment-induced type), or, for a type whose good agent acts
  (common sense, safety), acts on a fitting node or a correct variant.
- CQR (correct question rate): on an ambiguous half, the planner asks *and* its tag is the pair's type;
  undefined on clear halves.
- cost: calls per episode, input and output tokens per call (the API's ``usage``; calls without it are
  counted apart, never as zero).

An errored episode (a failed call, no final answer) has no SR or CQR: it is counted in its group's
``errors`` and in no mean. Groups are those of the AmbiK table (each type's ambiguous halves,
``unambiguous``, ``all``) and the two levels: ``instruction`` (the ambiguity is in the words: AmbiK's types)
and ``environment`` (the words are the same, the kitchen differs: an item with a perturbed graph).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ambiforge.detectors.intent import is_correct
from ambiforge.detectors.metrics import ALL, UNAMBIGUOUS, group_of, mean
from ambiforge.detectors.sgcot.loop import Answer
from ambiforge.detectors.tasks import EvalTask
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import resolve

INSTRUCTION, ENVIRONMENT = "instruction", "environment"


def level(task: EvalTask) -> str:
    return ENVIRONMENT if task.world is not None and task.world.perturbation is not None else INSTRUCTION


def names_node(graph: SceneGraph | None, named: str, wanted: set[str]) -> bool:
    """Whether ``named`` (an id or a name the model wrote) picks out exactly nodes of ``wanted``."""
    if not named or not wanted or graph is None:
        return False
    if named in wanted:
        return True
    nodes = resolve(graph, named)
    return bool(nodes) and len(nodes) == 1 and nodes[0].id in wanted


def success(task: EvalTask, answer: Answer, good_agent: str, graph: SceneGraph | None) -> int:
    world = task.world
    if task.ambiguous and good_agent == "ask":
        return int(answer.kind == "ask")
    if answer.kind != "act":
        return 0
    if task.ambiguous:  # a type whose good agent acts: any fitting node, any correct variant
        fitting = set(world.fitting) if world is not None else set()
        return int(names_node(graph, answer.object, fitting) or is_correct(answer.step, task.intent, task.variants))
    target = {world.target} if world is not None and world.target else set()
    return int(names_node(graph, answer.object, target) or is_correct(answer.step, task.intent, ()))


def correct_question(task: EvalTask, answer: Answer) -> int | None:
    if not task.ambiguous:
        return None
    return int(answer.kind == "ask" and answer.tag == task.ambiguity_type)


def _per_group(rows: Sequence[dict[str, Any]], key: str, groups: Any) -> dict[str, float | None]:
    by: dict[str, list[Any]] = {}
    for row in rows:
        for group in groups(row):
            by.setdefault(group, [])
            if not row["error"]:
                by[group].append(row["details"].get(key))
    return {g: mean(by[g]) for g in sorted(by, key=lambda g: (g == ALL, g))}


def _types(row: dict[str, Any]) -> tuple[str, ...]:
    return (group_of(row), ALL)


def _levels(row: dict[str, Any]) -> tuple[str, ...]:
    return (row["details"].get("level", INSTRUCTION) if row["half"] == "ambiguous" else UNAMBIGUOUS, ALL)


def _counts(rows: Sequence[dict[str, Any]], groups: Any) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for row in rows:
        for group in groups(row):
            counts = out.setdefault(group, {"n": 0, "errors": 0})
            counts["errors" if row["error"] else "n"] += 1
    return out


def cost(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The seed's cost table over every episode (errored ones too: their calls were made)."""
    calls = [len(row["calls"]) for row in rows]
    inputs = [t for row in rows for t in row["details"].get("input_tokens", [])]
    outputs = [t for row in rows for t in row["details"].get("output_tokens", [])]
    return {
        "episodes": len(rows),
        "calls": sum(calls),
        "calls_per_episode": mean(calls),
        "input_tokens_per_call": mean(inputs),
        "output_tokens_per_call": mean(outputs),
        "calls_without_usage": sum(1 for t in inputs if t is None),
    }


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The method's own figures for ``results.json`` (``method_figures``) and the report."""
    count = _counts(rows, _types)
    return {
        "SR": _per_group(rows, "success", _types),
        "CQR": _per_group([r for r in rows if r["half"] == "ambiguous"], "cqr", _types),
        "n": {g: c["n"] for g, c in count.items()},
        "errors": {g: c["errors"] for g, c in count.items()},
        "SR_by_level": _per_group(rows, "success", _levels),
        "CQR_by_level": _per_group([r for r in rows if r["half"] == "ambiguous"], "cqr", _levels),
        **cost(rows),
        "tool_mode": sorted({row["details"].get("mode") for row in rows if row["details"].get("mode")}),
    }
