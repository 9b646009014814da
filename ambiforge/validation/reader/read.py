"""Read an item as someone who did not write it: its plans' text back into steps (the reader's own grammar),
run in the item's kitchen; the read clear plan compared with the item's own actions; the ambiguous plan run
too, under the intended answer; what the task says "hot" heated; and the variants every object that does
the job."""

from __future__ import annotations

import re
from functools import lru_cache

from ambiforge.catalog.preconditions import cached_preconditions
from ambiforge.models import Item, World
from ambiforge.models.action import Action
from ambiforge.validation.reader.grammar import Step, read_plan
from ambiforge.validation.reader.kitchen import WATER, Kitchen, bare
from ambiforge.validation.reader.run import Runner
from ambiforge.validation.reader.speech import frame_clash, lexicon, speech_problems
from ambiforge.world import can

#: The read verb each action verb is written as.
_WRITTEN = {
    "pick": "take",
    "take_out": "take",
    "place": "put",
    "put_in": "put",
    "handle": "free",
    "ask_robot": "ask",
}


def _referent(world: World) -> tuple[str, list[str]] | None:
    """The intended node and the words an open referent names it by ("mug", "cup")."""
    if world.target is None:
        return None
    node = next((n for n in world.graph.nodes if n.id == world.target), None)
    if node is None:
        return None
    nouns = [node.noun.lower(), node.noun.lower().split()[-1]]
    nouns += [f"{n}s" for n in nouns] + [f"{n}es" for n in nouns]
    return node.id, list(dict.fromkeys(nouns))


def _said(step: Step) -> str:
    return f"step {step.index + 1} ({step.text!r})"


def _compare(steps: list[Step], resolved: list[dict[str, str | None]], actions: list[Action]) -> list[str]:
    """Where the plan's text and the item's own actions disagree."""
    if len(steps) != len(actions):
        return [f"plan_for_clear_task: the text has {len(steps)} steps, the item's actions {len(actions)}"]
    out = []
    for step, read, action in zip(steps, resolved, actions, strict=True):
        verb = _WRITTEN.get(action.verb, action.verb)
        if verb != step.verb:
            out.append(f"plan_for_clear_task {_said(step)}: reads as {step.verb}, the item's action is {action.verb}")
            continue
        if verb == "free":
            named = (read.get("objs") or "").split(",")
            if action.obj and action.obj not in named:
                out.append(f"plan_for_clear_task {_said(step)}: does not name the {action.obj} its action is on")
            continue
        for role in ("obj", "target", "tool"):
            got, want = read.get(role), getattr(action, role)
            if role in read and got not in (None, WATER) and want is not None and got != want:
                out.append(f"plan_for_clear_task {_said(step)}: its {role} reads as {got}, the action's is {want}")
    return out


def _hot_problems(item: Item, runner: Runner) -> list[str]:
    """'the hot pan': a heat word before a node's name needs that node heated by the clear plan."""
    rules = cached_preconditions()
    text = item.unambiguous_direct
    out = []
    for m in re.finditer(rf"\b({'|'.join(map(re.escape, rules.heat_words))})\s+", text, re.IGNORECASE):
        after = text[m.end() : m.end() + 60].lower()
        named = [
            (name, ref)
            for name, ref in runner.k.by_name.items()
            if runner.k.nodes[ref].type == "object" and after.startswith(name)
        ]
        if not named:
            continue
        name, ref = max(named, key=lambda p: len(p[0]))
        if ref not in runner.k.hot:
            out.append(f"unambiguous_direct: says '{m.group(1)} {name}', but no step heats the {name}")
    return out


@lru_cache(maxsize=1)
def _weight_said() -> re.Pattern[str] | None:
    rules = cached_preconditions().weighing
    if rules is None:
        return None
    return re.compile(rf"\b\d[\d.,]*\s+({'|'.join(map(re.escape, rules.words))})\b", re.IGNORECASE)


def _weighing_problems(item: Item, kitchen: Kitchen) -> list[str]:
    """An amount said by weight needs something to weigh it with in the kitchen (``preconditions.yaml``)."""
    said = _weight_said()
    rules = cached_preconditions().weighing
    if said is None or rules is None:
        return []
    fields = {
        "unambiguous_direct": [item.unambiguous_direct],
        "unambiguous_indirect": [item.unambiguous_indirect or ""],
        "ambiguous_task": [item.ambiguous_task],
        "plan_for_clear_task": item.plan_for_clear_task,
    }
    found = next(((f, m) for f, texts in fields.items() for t in texts if (m := said.search(t)) is not None), None)
    if found is None or any(set(n.tags) & set(rules.tags) for n in kitchen.nodes.values()):
        return []
    return [f"{found[0]}: says '{found[1].group(0)}', but the kitchen has nothing to weigh it with"]


@lru_cache(maxsize=1)
def _said_of() -> tuple[tuple[str, str, tuple[str, ...], re.Pattern[str]], ...]:
    """Per verb of ``preconditions.yaml: said_of``: its stem, the groups it is said of, and the words after it."""
    out = []
    for verb, groups in cached_preconditions().said_of.items():
        stem = verb[:-1] if verb.endswith("e") else verb
        out.append((verb, stem, groups, re.compile(rf"\b{re.escape(stem)}\w*\s+([^.,;]{{0,40}})", re.IGNORECASE)))
    return tuple(out)


def _said_of_problems(item: Item, kitchen: Kitchen) -> list[str]:
    """A verb said of a food it is not said of ("squeeze the red apple": an apple is juiced), by
    ``preconditions.yaml: said_of``."""
    texts = {
        "unambiguous_direct": item.unambiguous_direct,
        "unambiguous_indirect": item.unambiguous_indirect or "",
        "ambiguous_task": item.ambiguous_task,
        "plan_for_clear_task": " ".join(item.plan_for_clear_task),
    }
    out = []
    for verb, stem, groups, said in _said_of():
        for field, text in texts.items():
            if stem not in text.lower():
                continue
            for m in said.finditer(text):
                after = f" {m.group(1).lower()} "
                for node in kitchen.nodes.values():
                    if node.kind == "food" and node.group not in groups and f" {node.name.lower()} " in after:
                        out.append(f"{field}: says '{verb}' of the {node.name}, a word said of {', '.join(groups)}")
                        break
    return out


def _left_out_problems(world: World, kitchen: Kitchen, listed: set[str]) -> list[str]:
    """Each recorded reason for leaving an object out holds in the kitchen: a dirty one is marked dirty, an
    unsafe or unable one cannot do the job, and none of them is a variant as well."""
    out = []
    for left in world.left_out:
        node = kitchen.nodes.get(left.node)
        if node is None:
            out.append(f"left_out: {left.node} is not in the kitchen")
            continue
        said = f"left_out: the {node.name} is left out as {left.reason}"
        if node.name.lower() in listed:
            out.append(f"{said} but listed as a variant")
        elif left.reason == "dirty" and node.state.clean is not False:
            out.append(f"{said}, but it is clean")
        elif left.reason == "broken":
            out.append(f"{said}, but nothing in the kitchen says it is broken")
        elif left.reason in ("unsafe", "unable") and world.affordance and can(world.graph, node, world.affordance):
            out.append(f"{said}, but it can {world.affordance}")
    return out


def _picked_out(kitchen: Kitchen, noun: str) -> list[str]:
    """The objects the words "a <noun>" pick out, by the reader's own reading: its noun is the noun, or its
    name ends in it ("a bowl": the glass mixing bowl too)."""
    noun = noun.lower()
    whole = set(lexicon().get("compounds") or ())
    return [
        ref
        for ref, node in kitchen.nodes.items()
        if node.type == "object"
        and node.name.lower() not in whole
        and (node.noun.lower() == noun or node.name.lower().endswith(f" {noun}"))
    ]


def _compound_problems(item: Item, world: World, kitchen: Kitchen) -> list[str]:
    """A shortlist or variant that lists a name resolving whole ("peanut butter") for the word that is only its
    last one ("some butter"): the words do not pick it out."""
    target = kitchen.nodes.get(world.target or "")
    if target is None or target.type != "object":
        return []
    noun, whole = target.noun.lower(), set(lexicon().get("compounds") or ())
    out = []
    for field, listed in (("amb_shortlist", item.amb_shortlist), ("variants", item.variants)):
        for name in listed:
            said = name.strip().lower()
            if said in whole and said.endswith(f" {noun}") and said != noun:
                out.append(f"{field}: lists the {said}, which '{noun}' does not name (the name resolves whole)")
    return out


def _washes(steps: list[Step], kitchen: Kitchen, target: str) -> str | None:
    """How the clear plan washes the intended object, if it does: a washing verb on it, or putting it in a
    place that washes (``lexicon.yaml: washing``)."""
    words = lexicon().get("washing") or {}
    for step in steps:
        if step.obj is None or kitchen.find(step.obj) != target:
            continue
        if step.verb in words.get("verbs", ()):
            return step.verb
        if step.target is not None and bare(step.target) in words.get("places", ()):
            return f"put in the {bare(step.target)}"
    return None


def _place(kitchen: Kitchen, ref: str) -> str | None:
    seen: set[str] = set()
    while ref in kitchen.nodes and kitchen.nodes[ref].type != "place" and ref not in seen:
        seen.add(ref)
        ref = kitchen.location.get(ref, "")
    return ref or None


def pointing_far(field: str, text: str, kitchen: Kitchen) -> list[str]:
    """A demonstrative said of an object that is not at hand ("clear this paring knife" while it is in the
    drawer): one points only at what is on the counter, the table or in the sink (``lexicon.yaml``)."""
    data = lexicon().get("pointing") or {}
    words, places = data.get("words") or (), set(data.get("places") or ())
    if not words or not text:
        return []
    out = []
    for m in re.finditer(rf"\b({'|'.join(map(re.escape, words))})\s+([\w' -]+)", text.lower()):
        said = m.group(2)
        name = max((n for n in kitchen.by_name if _starts_with_name(said, n)), key=len, default=None)
        if name is None or kitchen.nodes[kitchen.by_name[name]].type != "object":
            continue
        place = _place(kitchen, kitchen.by_name[name])
        if place is not None and place not in places:
            out.append(
                f"{field}: '{m.group(1)} {name}' points at the {name}, which is not at hand "
                f"(in or on the {kitchen.name(place)})"
            )
    return out


def _starts_with_name(said: str, name: str) -> bool:
    return said.startswith(name) and said[len(name) : len(name) + 1] in ("", " ", "'")


def loads_clean(steps: list[Step], kitchen: Kitchen) -> list[str]:
    """Objects the plan puts in a place that washes (the dishwasher) while they are clean: what is loaded
    is used, at hand, never a clean one taken from the drawer (``lexicon.yaml: washing.places``)."""
    places = (lexicon().get("washing") or {}).get("places", ())
    out = []
    for step in steps:
        if step.verb != "put" or step.obj is None or step.target is None or bare(step.target) not in places:
            continue
        ref = kitchen.find(step.obj)
        node = kitchen.nodes.get(ref) if ref is not None else None
        if node is not None and node.type == "object" and node.state.clean is not False:
            out.append(
                f"{_said(step)}: loads the clean {node.name} into the {bare(step.target)}: what is loaded is used"
            )
    return out


def answer_problems(item: Item, world: World, kitchen: Kitchen) -> list[str]:
    """A common-sense answer and its variants say the same: an answer naming one object ("The bread knife.")
    has that object alone as its variant, and an answer that accepts any of several ("Any clean one") is
    not given where the clear task names one of them (which of them is then a preference)."""
    if item.ambiguity_type != "common_sense_knowledge" or item.amb_shortlist:
        return []
    target = kitchen.nodes.get(world.target or "")
    if target is None or target.type != "object":
        return []
    listed = [v.strip().lower() for v in item.variants if v.strip()]
    accepts_any = any(_find_word(item.answer, w) for w in lexicon().get("accepts_any") or ())
    if not accepts_any and listed != [target.name.lower()]:
        return [f"variants: {', '.join(listed)}, but the answer {item.answer!r} names the {target.name} alone"]
    if accepts_any and len(listed) > 1 and _find_word(item.unambiguous_direct, target.name):
        return [
            f"answer: {item.answer!r} accepts any of {', '.join(listed)}, but the clear task names the {target.name}"
        ]
    return []


def _shortlist_problems(item: Item, world: World, kitchen: Kitchen) -> list[str]:
    """A preference item's shortlist holds every object its words pick out, but those left out with a reason;
    a task that washes leaves no dirty one out as dirty (a dirty plate is what the dishwasher is for)."""
    target = kitchen.nodes.get(world.target or "")
    if target is None or target.type != "object":
        return []
    listed = {v.strip().lower() for v in item.amb_shortlist}
    recorded = {left.node: left.reason for left in world.left_out}
    washing = _washes(read_plan(item.plan_for_clear_task), kitchen, target.id)
    out = []
    for ref in _picked_out(kitchen, target.noun):
        node = kitchen.nodes[ref]
        if node.name.lower() in listed:
            continue
        if ref not in recorded:
            out.append(f"amb_shortlist: leaves out the {node.name}, which 'a {target.noun}' picks out as well")
        elif recorded[ref] == "dirty" and washing:
            out.append(f"amb_shortlist: leaves out the {node.name} as dirty, but the plan washes it ({washing})")
    return out


def _rationale_problems(item: Item, world: World) -> list[str]:
    """A generated common-sense item says why common sense picks the one it names."""
    if item.ambiguity_type != "common_sense_knowledge" or item.provenance.generator != "offline":
        return []
    if world.rationale and world.rationale.strip():
        return []
    return ["rationale: a common-sense item records no reason why common sense picks the one it names"]


def common_sense_problems(item: Item, kitchen: Kitchen) -> list[str]:
    """A common-sense item whose ambiguous task still names the appliance by its job's verb ("bake" says the
    oven), or whose kitchen has another appliance that does the job as well (an air fryer beside the oven)."""
    if item.ambiguity_type != "common_sense_knowledge" or item.amb_shortlist:
        return []
    words = lexicon()
    listed = {v.strip().lower() for v in item.variants}
    task = item.ambiguous_task
    out = []
    for verb, appliance in (words.get("names_appliance") or {}).items():
        if appliance in listed and not _find_word(task, appliance) and re.search(rf"\b{verb}\w*\b", task, re.I):
            out.append(
                f"ambiguous_task: {verb!r} names the {appliance}'s job: the task is clear without the {appliance}"
            )
    out += _storage_problems(item, kitchen, listed)
    names = {node.name.lower() for node in kitchen.nodes.values()}
    for appliance, others in (words.get("same_job") or {}).items():
        if appliance not in listed:
            continue
        for other in others:
            if other in names and other not in listed:
                out.append(f"variants: only the {appliance}, but the kitchen's {other} does the job as well")
    return out


def _storage_problems(item: Item, kitchen: Kitchen, listed: set[str]) -> list[str]:
    """Common sense keeps a food in a cold place only where the catalog says it needs cold; one kept in the
    fridge or the cupboard as households differ (``needs_refrigeration`` unknown) has no common-sense place."""
    cold = set(cached_preconditions().cold_places)
    out = []
    for step in read_plan(item.plan_for_clear_task):
        if step.verb != "put" or step.obj is None or step.target is None:
            continue
        where, ref = kitchen.find(step.target), kitchen.find(step.obj)
        node = kitchen.nodes.get(ref or "")
        if where not in cold or node is None or node.kind != "food" or kitchen.name(where).lower() not in listed:
            continue
        if node.attributes.needs_refrigeration is None:
            out.append(
                f"variants: common sense keeps the {node.name} in the {kitchen.name(where)}, but the catalog keeps it"
                " in the fridge or the cupboard as households differ"
            )
    return out


def _find_word(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def variants_problems(item: Item, world: World) -> list[str]:
    """Every candidate that does the job is a variant; one left out must be dirty or unable, and is named.
    A generated item records why each object it leaves out is left out, and the reason must hold."""
    if world.perturbation is not None:
        return []
    kitchen = Kitchen.of(world.graph)
    listed = {v.strip().lower() for v in item.variants}
    out = _left_out_problems(world, kitchen, listed) + _rationale_problems(item, world)
    out += common_sense_problems(item, kitchen) + answer_problems(item, world, kitchen)
    out += _compound_problems(item, world, kitchen)
    if item.amb_shortlist and item.provenance.generator == "offline":
        out += _shortlist_problems(item, world, kitchen)
    if item.amb_shortlist or not world.candidates:
        return out
    recorded = {left.node for left in world.left_out}
    made_here = item.provenance.generator == "offline"
    for ref in world.candidates:
        node = kitchen.nodes.get(ref)
        if node is None or node.name.lower() in listed:
            continue
        if made_here and ref not in recorded:
            out.append(f"left_out: the {node.name} is neither a variant nor left out with a reason")
            continue
        if node.type == "object" and node.state.clean is False:
            continue  # left out as dirty
        if world.affordance and not can(world.graph, node, world.affordance):
            continue  # left out as unable
        why = f"can {world.affordance}" if world.affordance else "is clean and fits the task"
        out.append(f"variants: leave out the {node.name}, which {why} as well as the listed ones")
    return out


def read_item(item: Item) -> dict[str, list[str]]:
    """Problems by kind: ``plan`` (a step that cannot run or text that disagrees with the actions),
    ``variants`` (a candidate that does the job left out), ``speech`` (a greeting mid-text, a time
    contradiction, a phrase the item's frame does not allow, a determiner out of number). Only items whose
    world has known relations are read (imported rows are not)."""
    world = item.world
    found: dict[str, list[str]] = {"plan": [], "variants": [], "speech": []}
    if world is None or not world.graph.relations_known:
        return found
    frame = item.frame.tags() if item.frame is not None else None
    if frame is not None:
        clash = frame_clash(frame)
        if clash is not None:
            found["speech"].append(f"frame: {clash[0]} and {clash[1]} are incompatible tags")
    kitchen = Kitchen.of(world.graph)
    for field in ("unambiguous_direct", "unambiguous_indirect", "ambiguous_task"):
        found["speech"] += speech_problems(field, getattr(item, field), frame, world.graph.nodes)
        found["speech"] += pointing_far(field, getattr(item, field), kitchen)
    found["variants"] = variants_problems(item, world)
    clear = read_plan(item.plan_for_clear_task)
    runner = Runner(world.graph)
    for index, reason in runner.run(clear):
        found["plan"].append(f"plan_for_clear_task {_said(clear[index])}: {reason}")
    if world.clear_plan and len(runner.resolved) == len(clear):
        found["plan"] += _compare(clear, runner.resolved, world.clear_plan)
    found["plan"] += _hot_problems(item, runner) + _weighing_problems(item, runner.k)
    found["plan"] += [f"plan_for_clear_task {problem}" for problem in loads_clean(clear, Kitchen.of(world.graph))]
    found["speech"] += _said_of_problems(item, runner.k)
    if world.perturbation is None:
        amb = read_plan(item.plan_for_amb_task)
        amb_runner = Runner(world.graph, referent=_referent(world))
        for index, reason in amb_runner.run(amb):
            found["plan"].append(f"plan_for_amb_task {_said(amb[index])}: {reason}")
    return found
