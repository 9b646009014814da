"""Plan steps as action specs: what a template's or a context action's ``plan`` says, built into
:class:`~ambiforge.models.action.Action` s on the pair's scene graph, checked by the simulator as they are
built, and rendered to text from the actions (so text and actions cannot drift).

A step is a mapping with one verb (or macro) key whose value is the object, plus the action's other
fields::

    - {fetch: t}                              # macro: get t in hand, opening (and closing) its place if closed
    - {put: f, target: fridge}                # macro: put what is held at a place/vessel, opening it if closed
    - {back: f}                               # macro: put f back where it was when the plan started
    - {use: f, tool: t, how: peel}            # a verb of ambiforge.world (pick, place, pour, cut, use, ...)
    - {wait: null, duration: "{minutes} minutes"}

``obj``/``target``/``tool`` name a slot of the template (``t``, ``f``, ...) or a place id of
``world.yaml`` (``fridge``); the parameters (``quantity``, ``duration``, ``program``, ``how``, ``person``,
``question``) are format strings over the slot texts and the composition's values ("{count} slices"), so
every clause of a task ("four portions", "on the eco program") lands in an action's parameter.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

from pydantic import model_validator

from ambiforge.models.action import REQUIRED, Action, ActionFields, Verb
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import Simulation
from ambiforge.world.index import index

MACROS = ("fetch", "put", "back")
VERBS: tuple[str, ...] = get_args(Verb)
NODE_FIELDS = ("obj", "target", "tool")
PARAM_FIELDS = ("how", "quantity", "program", "duration", "person", "question")
#: Where the robot puts down what it holds when the next step needs its hand.
PUT_DOWN = "counter"
#: Parameters left out when the clause's wording does not say the values they use.
OPTIONAL_PARAMS = ("quantity", "program", "duration")


def names(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class StepSpec(ActionFields):
    """One step of a plan as written in YAML (see the module docstring): an action's fields naming slots."""

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and "verb" not in data:
            keys = [k for k in data if k in VERBS or k in MACROS]
            if len(keys) != 1:
                raise ValueError(f"a step names one verb (of {', '.join((*VERBS, *MACROS))}), got {sorted(data)}")
            rest = {k: v for k, v in data.items() if k != keys[0]}
            return {"verb": keys[0], **({"obj": data[keys[0]]} if data[keys[0]] is not None else {}), **rest}
        return data

    @model_validator(mode="after")
    def _complete(self) -> StepSpec:
        if self.verb not in VERBS and self.verb not in MACROS:
            raise ValueError(f"unknown verb {self.verb!r} (known: {', '.join((*VERBS, *MACROS))})")
        needs = {"fetch": ("obj",), "put": ("obj", "target"), "back": ("obj",)}.get(self.verb) or REQUIRED[self.verb]
        missing = [f for f in needs if getattr(self, f) is None]
        if missing:
            raise ValueError(f"{self.verb} needs {', '.join(missing)}")
        return self

    def refs(self) -> list[str]:
        """The slots and places the step names."""
        return [v for v in (getattr(self, f) for f in NODE_FIELDS) if v is not None]

    def params(self) -> list[str]:
        return [v for v in (getattr(self, f) for f in PARAM_FIELDS) if v is not None]


def check_refs(steps: Sequence[StepSpec], slots: set[str], places: set[str], where: str) -> None:
    """Every node a step names is a slot of its template, a place every kitchen has, or a value naming a
    place ("{spot}"; checked when the plan is built)."""
    for i, s in enumerate(steps):
        for ref in s.refs():
            if ref not in slots and ref not in places and "{" not in ref:
                raise ValueError(
                    f"{where}[{i}]: {ref!r} is neither a slot ({', '.join(sorted(slots)) or 'none'}) nor a place"
                )


@dataclass(frozen=True)
class BoundSteps:
    """A clause's steps with its slots bound to node ids and its values (the texts its parameters use)."""

    steps: tuple[StepSpec, ...]
    binding: Mapping[str, str]
    values: Mapping[str, str] = field(default_factory=dict)
    setup: Mapping[str, str] = field(default_factory=dict)  # node -> place where the task presupposes it
    said: tuple[str, ...] = ()  # the values the clause's wording says ("four", "eco"): its plan must carry them
    unsaid: frozenset[str] = frozenset()  # value names the wording leaves out: parameters using them are dropped
    used: frozenset[str] = frozenset()  # nodes the task presupposes used (dirty), kept at their setup place


@dataclass
class Built:
    """A plan built on a graph: its actions, and the first step the simulator refused (None: it runs); a
    refused plan's actions stop at the step that made it unfit (and ``ends`` is incomplete)."""

    actions: list[Action] = field(default_factory=list)
    error: str | None = None
    idle: str | None = None  # the plan's first idle move before any step that fails (:func:`idle_move`)
    ends: list[int] = field(default_factory=list)  # per clause: the index after its last action


def _act(**fields: str) -> Action:
    return Action.model_validate(fields)


class _Builder:
    def __init__(self, graph: SceneGraph) -> None:
        self.graph = graph
        self.sim = Simulation(graph)
        self.start = self.sim.locations()  # where each node is before the plan (a copy)
        self.out = Built()
        self.watch = _IdleWatch()

    def emit(self, action: Action) -> None:
        self.out.actions.append(action)
        if self.out.error is None:
            self.watch.see(self.sim, action)
            self.out.idle = self.watch.found
        problem = self.sim.run(action)
        if problem is not None and self.out.error is None:
            self.out.error = problem

    def fetch(self, ref: str) -> None:
        if self.sim.holding == ref:
            return
        held = self.sim.holding
        if held is not None:  # one hand: what an earlier step left in it is put down first
            self.put(held, PUT_DOWN)
        closed = self.sim.closed_around(ref)
        loc = self.sim.location(ref)
        if closed is not None and loc is not None and loc.target == closed:
            self.emit(_act(verb="open", obj=closed))
            self.emit(_act(verb="take_out", obj=ref, target=closed))
            self.emit(_act(verb="close", obj=closed))
        else:
            self.emit(_act(verb="pick", obj=ref))

    def put(self, ref: str, target: str, **params: str) -> None:
        self.fetch(ref)
        node = self.sim.node(target)
        encloses = node is not None and (node.holds == "in" or (node.type == "object" and node.state.full is not None))
        verb = "put_in" if encloses else "place"
        if node is not None and node.type == "place" and node.state.open is False:
            self.emit(_act(verb="open", obj=target))
            self.emit(_act(verb=verb, obj=ref, target=target, **params))
            self.emit(_act(verb="close", obj=target))
        else:
            self.emit(_act(verb=verb, obj=ref, target=target, **params))

    def back(self, ref: str) -> None:
        where = self.start.get(ref)
        if where is None:
            self.out.error = self.out.error or f"{ref} has no place to go back to"
            return
        self.put(ref, where.target)

    def ref(self, value: str | None, clause: BoundSteps) -> str | None:
        """A slot's node, a place id, or a value naming a place ("{spot}": "kitchen table")."""
        if value is None:
            return None
        if "{" in value:
            node = index(self.graph).find(value.format(**clause.values))
            return node.id if node is not None else value.format(**clause.values)
        return clause.binding.get(value, value)

    def step(self, spec: StepSpec, clause: BoundSteps) -> None:
        node = {f: self.ref(getattr(spec, f), clause) for f in NODE_FIELDS}
        params: dict[str, str] = {}
        for f in PARAM_FIELDS:
            text = getattr(spec, f)
            if text is None:
                continue
            if f in OPTIONAL_PARAMS and not clause.unsaid.isdisjoint(names(text)):
                continue  # the wording does not say it: the plan does not invent it
            params[f] = text.format(**clause.values)
        if spec.verb == "fetch":
            self.fetch(node["obj"] or "")
        elif spec.verb == "put":
            self.put(node["obj"] or "", node["target"] or "", **params)
        elif spec.verb == "back":
            self.back(node["obj"] or "")
        else:
            if spec.verb in ("pour", "wash", "hand_over", "place", "put_in") and node["obj"]:
                source = self.sim.node(node["obj"])
                if source is not None and source.type == "object":
                    self.fetch(node["obj"])
            if spec.verb in ("cut", "use") and node["tool"]:
                self.fetch(node["tool"])
            self.emit(_act(verb=spec.verb, **{k: v for k, v in node.items() if v is not None}, **params))  # type: ignore[arg-type]


class _IdleWatch:
    """Reads a plan as it runs, step by step before each runs: the first step that puts an object back where
    it was just picked up from with nothing done to it between (a task that moves a thing to where it
    already is)."""

    def __init__(self) -> None:
        self.picked: dict[str, str] = {}  # object -> where it was picked up from, while nothing else touched it
        self.steps = 0
        self.found: str | None = None

    def see(self, sim: Simulation, a: Action) -> None:
        self.steps += 1
        if self.found is not None:
            return
        if a.verb in ("pick", "take_out") and a.obj:
            where = sim.location(a.obj)
            if where is not None:
                self.picked[a.obj] = where.target
        elif a.verb in ("place", "put_in") and a.obj and self.picked.get(a.obj) == a.target:
            self.found = f"step {self.steps} puts {a.obj} back at {a.target}, where it already was"
        elif a.verb not in ("open", "close"):
            for ref in _refs(a):
                self.picked.pop(ref or "", None)


def run_watched(graph: SceneGraph, plan: Sequence[Action]) -> tuple[str | None, str | None]:
    """Run ``plan`` on ``graph`` once: why it does not run (the simulator's message, or None) and its first
    idle move among the steps before any that fails (:func:`idle_move`)."""
    sim, watch = Simulation(graph), _IdleWatch()
    for a in plan:
        watch.see(sim, a)
        problem = sim.run(a)
        if problem is not None:
            return problem, watch.found
    return None, watch.found


def idle_move(graph: SceneGraph, plan: Sequence[Action]) -> str | None:
    """The first step that puts an object back where it was just picked up from with nothing done to it
    between (a task that moves a thing to where it already is), or None; steps after one that cannot run
    are not read."""
    return run_watched(graph, plan)[1]


def build_plan(graph: SceneGraph, clauses: Sequence[BoundSteps]) -> Built:
    """The clauses' steps as one plan of actions on ``graph``, macros expanded on the world as the plan
    leaves it (open the fridge only when it is closed then), each step checked by the simulator. A plan
    with a step that cannot run or an idle move is unfit whatever follows, so it is built no further."""
    builder = _Builder(graph)
    out = builder.out
    for clause in clauses:
        for spec in clause.steps:
            builder.step(spec, clause)
            if out.error is not None or out.idle is not None:
                return out
        out.ends.append(len(out.actions))
    return out


def substitute(plan: Sequence[Action], old: str, new: str) -> list[Action]:
    """The plan under another answer: every argument naming ``old`` names ``new`` (the world contract:
    the plan under candidate X is the clear plan with the target replaced by X)."""
    return [a.replaced({f: new for f in NODE_FIELDS if getattr(a, f) == old}) if old in _refs(a) else a for a in plan]


def _refs(a: Action) -> tuple[str | None, ...]:
    return (a.obj, a.target, a.tool)


def first_mention(plan: Sequence[Action], node: str) -> int | None:
    return next((i for i, a in enumerate(plan) if node in _refs(a)), None)


#: Steps a macro usually becomes (fetching from a closed place takes three, from an open one one).
EXPECTED_STEPS = {"fetch": 2, "put": 3, "back": 3}


def fewest_steps(clause: BoundSteps) -> int:
    """The fewest actions a clause can become (every place open, each macro one pick and one put): the
    focus clause's referent may be gathered out of a closed place before planning, so a task's minimum
    length is judged on this, not on where the referent stands in the sampled kitchen."""
    return sum(2 if s.verb in ("put", "back") else 1 for s in clause.steps)


def expected_length(clause: BoundSteps, graph: SceneGraph | None = None) -> int:
    """About how many actions a clause becomes (composition keeps a task's plan within bounds with it):
    with the graph, a fetch from a closed place counts three steps and a put into one three more."""
    if graph is None:
        return sum(EXPECTED_STEPS.get(s.verb, 1) for s in clause.steps)
    ix = index(graph)

    def closed(ref: str | None) -> bool:
        node = ix.find(clause.binding.get(ref, ref)) if ref else None
        if node is None:
            return False
        if node.type == "place":
            return node.state.open is False
        where = ix.location.get(node.id)
        return where is not None and ix.by_id[where.target].state.open is False

    total = 0
    for s in clause.steps:
        if s.verb == "fetch":
            total += 3 if closed(s.obj) else 1
        elif s.verb in ("put", "back"):
            total += (3 if closed(s.obj) else 1) + (3 if closed(s.target) else 1)
        else:
            total += 1
    return total
