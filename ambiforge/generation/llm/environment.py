"""Environment-induced types through a model: the kitchens come from the world, the words from the model.

An item of ``multiplicity``, ``absence``, ``reference`` or ``observation`` is one instruction set in two
kitchens; what makes it ambiguous is the change between them, which a model cannot be trusted to make
consistent (a second mug it invents is not in the graph). So the world is drawn as the offline mechanism
draws it (:meth:`ambiforge.generation.offline.OfflineGenerator.draw`: the clear kitchen, the perturbed copy,
the clear plan as actions, the end of ambiguity and the intent from the plans under each candidate), and the
model writes what a person says: the instruction, its paraphrase, the robot's question and the user's answer
(``prompts/ambiguous_<type>.yaml`` of each type, reply schema ``ambiguous_environment``).

Every reply is resolved on both graphs before it is kept, like the instruction-level types' replies
(:mod:`.resolution`): the instruction must say the referent the change is about and name no candidate by its
full name (that would make the changed kitchen clear), it may name only objects of the two kitchens, and the
whole pair must pass the world rules of its type (:mod:`ambiforge.validation.rules.world_environment`: the
question tells the candidates apart or names the relation, the answer picks the target or the substitute
the world offers). What fails goes back to the model as a repair.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from ambiforge import ambiguity
from ambiforge.generation.draft import Draft
from ambiforge.generation.llm.resolution import Check, Mentions, message
from ambiforge.models import Item, World
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.validation.context import RuleContext
from ambiforge.validation.rules.world_environment import check_environment
from ambiforge.world import resolve
from ambiforge.world.index import index
from ambiforge.world.perturb import named_nodes, parse_referent, place_of, says, where
from ambiforge.world.prompt_view import prompt_view

#: The reply schema of every environment type's prompt (``schemas/llm/ambiguous_environment.schema.json``).
SCHEMA = "ambiguous_environment"
_NEGATION = re.compile(r"\b(?:no|not|don't|do not|never|none|nothing)\b", re.IGNORECASE)


def is_environment(ambiguity_type: str) -> bool:
    """A type whose ambiguity is in the kitchen, not the words (the instruction stays, the kitchen changes)."""
    return ambiguity.get(ambiguity_type).level == "environment"


class Worded(Protocol):
    """What the prompt reads of a pair (a :class:`Draft` or an :class:`Item` alike)."""

    unambiguous_direct: str
    unambiguous_indirect: str
    question: str
    answer: str
    plan_for_clear_task: list[str]
    world: World | None


def _located(graph: SceneGraph, node: Node) -> str:
    place = where(graph, node.id)
    return f"the {node.name} {place}".strip()


def _candidates(world: World) -> list[Node]:
    """The nodes of the changed kitchen the referent's noun fits (multiplicity, reference)."""
    p = world.perturbation
    assert p is not None
    noun = parse_referent(p.referent).noun or p.referent
    return [n for n in resolve(p.graph, noun) if n.type == "object"]


def offered(pair: Worded) -> list[Node]:
    """Absence: the objects of the changed kitchen the plain wording offers instead of the missing one."""
    world = pair.world
    assert world is not None and world.perturbation is not None
    p = world.perturbation
    said = f"{pair.question} {pair.answer}"
    return [n for n in p.graph.nodes if n.type == "object" and says(said, n.name)]


def change(pair: Worded) -> str:
    """The change between the two kitchens in words, from the world: what the model must make the robot ask
    about and the user answer."""
    world = pair.world
    assert world is not None and world.perturbation is not None and world.target is not None
    p, clear = world.perturbation, world.graph
    target = index(clear).by_id[world.target]
    noun = parse_referent(p.referent).noun or p.referent
    if p.kind == "multiplicity":
        others = [n for n in _candidates(world) if n.id != target.id]
        found = ", ".join(_located(p.graph, n) for n in others)
        return (
            f"In the clear kitchen only {_located(clear, target)} is a {noun}. The robot's kitchen also has "
            f"{found}, so 'the {noun}' fits {len(others) + 1} objects there. The user means {_located(clear, target)}."
        )
    if p.kind == "absence":
        gone = f"The robot's kitchen has no {noun}: {_located(clear, target)} is gone."
        offer = offered(pair)
        if not offer:
            return f"{gone} Nothing there does its job. The user tells the robot to report that there is no {noun}."
        names = " or ".join(f"the {n.name}" for n in offer)
        choice = [n for n in offer if says(pair.answer, n.name)]
        if not choice or says(pair.answer, f"no {noun}"):
            declines = f"the user declines and asks it to report that there is no {noun}"
            return f"{gone} The robot offers {names} instead; {declines}."
        return f"{gone} The robot offers {names} instead; the user takes the {choice[0].name}."
    if p.kind == "reference":
        fits = resolve(p.graph, parse_referent(p.referent))
        relations = parse_referent(p.referent).relations
        anchor = (relations[0].target.name or "") if relations else ""
        moved = [index(p.graph).by_id[i] for i in p.moved if i in index(p.graph).by_id]
        how = ", ".join(_located(p.graph, n) for n in moved)
        now = (
            f"now no {noun} is {p.referent.removeprefix(noun).strip()}"
            if not fits
            else f"now {len(fits)} {noun}s are {p.referent.removeprefix(noun).strip()}: "
            + ", ".join(f"the {n.name}" for n in fits)
        )
        return (
            f"In the clear kitchen 'the {p.referent}' picks {_located(clear, target)} alone. In the robot's "
            f"kitchen something was moved ({how}): {now}. The robot's question is about where the {noun} is "
            f"relative to the {anchor}; the user means the {target.name}."
        )
    here = place_of(clear, target.id)
    side = index(clear).by_id[here].name if here else "the other side"
    return (
        f"Two robots share this kitchen. The {target.name} is {where(clear, target.id)}, on the other robot's side: "
        f"the asking robot cannot see it. The question goes to the other robot, whose answer names the {target.name} "
        f"({side})."
    )


def prompt_variables(pair: Worded, ambiguity_type: str, environment_short: str) -> dict[str, Any]:
    """What the type's prompt shows: both kitchens, the change, the referent, the clear plan and a plain
    wording of the pair (which the model rewrites: it may keep it where it cannot say it better)."""
    world = pair.world
    assert world is not None and world.perturbation is not None
    p = world.perturbation
    return {
        "ambiguity_type": ambiguity_type,
        "environment_short": environment_short,
        "changed_environment": p.environment_short or environment_short,
        "world": prompt_view(world.graph),
        "changed_world": prompt_view(p.graph),
        "referent": p.referent,
        "change": change(pair),
        "plan_clear": list(pair.plan_for_clear_task),
        "plain_task": pair.unambiguous_direct,
        "plain_paraphrase": pair.unambiguous_indirect or pair.unambiguous_direct,
        "plain_question": pair.question,
        "plain_answer": pair.answer,
    }


def worded(plain: Draft, value: dict[str, Any], number: int) -> Draft:
    """The plain draft with the model's words: one instruction for both kitchens; the question also where the
    ambiguous plan asks it (observation: "Ask the other robot: ...")."""
    task, question = str(value["task"]).strip(), str(value["question"]).strip()
    asked = f"Ask the other robot: {plain.question}"
    plan = [f"Ask the other robot: {question}" if step == asked else step for step in plain.plan_for_amb_task]
    return replace(
        plain,
        template=f"candidate={number}",
        unambiguous_direct=task,
        unambiguous_indirect=str(value["paraphrase"]).strip(),
        ambiguous_task=task,
        question=question,
        answer=str(value["answer"]).strip(),
        plan_for_amb_task=plan,
    )


def reply_problems(
    plain: Draft, value: dict[str, Any], mentions: Mentions, item: Callable[[Draft], Item], ctx: RuleContext
) -> list[str]:
    """Why the model's words do not fit the pair's two kitchens (empty: they do)."""
    world = plain.world
    assert world is not None and world.perturbation is not None and world.target is not None
    p, clear = world.perturbation, world.graph
    task = str(value.get("task", ""))
    problems: list[str] = []
    if not says(task, p.referent):
        problems.append(f"task: must say 'the {p.referent}' (the words that pick the object in the clear kitchen)")
    noun = parse_referent(p.referent).noun or p.referent
    fits = {n.id for n in resolve(clear, noun)} | {n.id for n in resolve(p.graph, noun)}
    exact = [
        n for g in (clear, p.graph) for n in named_nodes(g, task) if n.id in fits and n.name.lower() != noun.lower()
    ]
    for name in dict.fromkeys(n.name for n in exact):
        problems.append(f"task: names the {name}; say only 'the {p.referent}' (the kitchen decides which one)")
    held = set(index(clear).by_name) | set(index(p.graph).by_name)
    for key in ("task", "paraphrase", "question", "answer"):
        text = str(value.get(key, ""))
        problems += [f"{key} names the {n}, which neither kitchen has" for n in mentions.find(text) if n not in held]
    if p.kind == "absence":
        problems += _absence_answer(plain, str(value.get("answer", "")), noun)
    if not problems:
        draft = worded(plain, value, 0)
        problems += [text for _, text in check_environment(item(draft), ctx)]
    return problems


def _absence_answer(plain: Draft, answer: str, noun: str) -> list[str]:
    """The answer does what the world's plan does: takes the substitute it takes, or declines."""
    offer = offered(plain)
    choice = [n for n in offer if says(plain.answer, n.name)]
    declined = not choice or says(plain.answer, f"no {noun}")
    if declined:
        ok = says(answer, f"no {noun}") and _NEGATION.search(answer) is not None
        return [] if ok else [f"answer: must decline and ask the robot to report that there is no {noun} ('no {noun}')"]
    others = [n.name for n in offer if n.id != choice[0].id and says(answer, n.name)]
    if not says(answer, choice[0].name) or others:
        return [f"answer: must take the {choice[0].name} (and name no other object offered)"]
    return []


def reply_check(plain: Draft, mentions: Mentions, item: Callable[[Draft], Item], ctx: RuleContext) -> Check:
    """The repair check of the type's prompt for this pair."""

    def check(value: dict[str, Any]) -> str | None:
        return message(reply_problems(plain, value, mentions, item, ctx))

    return check
