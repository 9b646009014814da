"""SG-CoT's figures as the seed defines them, per episode and per group.

- SR (success rate, :mod:`ambiforge.detectors.success`, the same for every method): on a clear half the
  planner acts on the item's target, read on the graph: the node it names (``object``) is the target, or the
  place that keeps it when the clear plan's step there opens that place; AmbiK's intent match only for an
  item without a graph. On an ambiguous half it does what the type's good agent does: asks (preferences and
  every environment-induced type), or, for a type whose good agent acts (common sense, safety), acts on a
  fitting node or a correct variant.
- CQR (correct question rate), as the seed defines it: on an ambiguous half, the planner asks *and* its tag
  is the pair's type; undefined on clear halves.
- grounded CQR: the same, and the question itself resolves on the graph to what makes the item ambiguous:
  it names the candidates or their noun (multiplicity), the missing object (absence), the relation's anchor
  (reference), the object asked for from the other robot (observation: put to the other robot, or naming
  its side), a candidate (an instruction-level item whose world lists candidates). Undefined where the item
  says nothing to resolve it on.
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

from ambiforge.detectors import success as sr
from ambiforge.detectors.metrics import ALL, ENVIRONMENT, INSTRUCTION, UNAMBIGUOUS, group_of, mean
from ambiforge.detectors.sgcot.loop import Answer
from ambiforge.detectors.tasks import EvalTask
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import resolve
from ambiforge.world.index import index
from ambiforge.world.perturb import parse_referent, says

__all__ = ["ENVIRONMENT", "INSTRUCTION", "correct_question", "grounded_question", "level", "success", "summarise"]


def level(task: EvalTask) -> str:
    return task.level


names_node = sr.names_node


def success(task: EvalTask, answer: Answer, good_agent: str, graph: SceneGraph | None) -> int:
    world = task.world
    fitting = world.fitting if world is not None else ()
    return sr.success(task, answer.kind == "ask", good_agent, answer.step, answer.object, fitting)


def correct_question(task: EvalTask, answer: Answer) -> int | None:
    if not task.ambiguous:
        return None
    return int(answer.kind == "ask" and answer.tag == task.ambiguity_type)


def grounded_question(task: EvalTask, answer: Answer) -> int | None:
    """Whether the question resolves on the graph to what makes the item ambiguous (see the module); None on
    a clear half or where the item gives nothing to resolve it on."""
    if not task.ambiguous:
        return None
    world = task.world
    p = world.perturbation if world is not None else None
    if world is None or (p is None and not world.candidates):
        return None
    if answer.kind != "ask" or answer.tag != task.ambiguity_type:
        return 0
    q = answer.question
    if p is None:
        ix = index(world.graph)
        return int(any(says(q, ix.by_id[c].name) for c in world.candidates if c in ix.by_id))
    expr = parse_referent(p.referent)
    target = index(world.graph).by_id.get(world.target or "")
    noun = expr.noun or p.referent or (target.noun if target is not None else "")
    if p.kind == "reference":
        anchor = expr.relations[0].target.name if expr.relations else None
        return int(bool(anchor) and says(q, anchor or ""))
    names = [n for n in (noun, target.name if target is not None else "") if n]
    if p.kind == "multiplicity":
        names += [n.name for n in resolve(p.graph, noun)]
    named = any(says(q, n) for n in names)
    if p.kind == "observation":
        return int(named and (answer.to == "robot" or says(q, "other robot") or says(q, "your side")))
    return int(named)


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
        "grounded_CQR": _per_group([r for r in rows if r["half"] == "ambiguous"], "grounded_cqr", _types),
        "grounded_CQR_by_level": _per_group([r for r in rows if r["half"] == "ambiguous"], "grounded_cqr", _levels),
        **cost(rows),
        "tool_mode": sorted({row["details"].get("mode") for row in rows if row["details"].get("mode")}),
    }
