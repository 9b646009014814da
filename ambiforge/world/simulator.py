"""Execute a plan of symbolic actions on a scene graph: preconditions, effects, the first failing step.

"Both plans execute" is a claim the text of an item cannot prove: taking milk out of a closed fridge,
opening a ceramic bowl or picking up a scale the kitchen does not have read fine as sentences. The
simulator checks each step against the world as the previous steps left it, on copies (the input graph is
never changed), and names the evidence when a step cannot run: "step 4: take the whole milk out of the
fridge while the fridge is closed". Steps are counted from 1 in messages, from 0 in ``failed_step`` (as
``end_of_ambiguity`` is).

The robot has one hand: ``pick`` and ``take_out`` need it free and fill it; ``place``, ``put_in``,
``hand_over`` empty it; ``pour``, ``cut``, ``use`` and ``wash`` need the object (or tool) in hand. A held
object has no location; placing it gives it one (no spatial relations: where exactly it lands on the
counter is not modelled). Doors: ``in`` places that open (fridge, cupboards, drawers, oven, microwave,
dishwasher) must be open to put in or take out, and closed to switch on. Running a place that heats makes
what it holds hot; running one that cleans (the dishwasher) makes it clean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ambiforge.catalog.affordances import Affordances, cached_affordances
from ambiforge.catalog.world import World, cached_world
from ambiforge.models.scene_graph import LOCATION_RELATIONS, Edge, Node, SceneGraph, State
from ambiforge.world.actions import Action, render_action
from ambiforge.world.index import index


@dataclass(frozen=True)
class SimulationResult:
    """``ok`` when every step ran; else ``failed_step`` (0-based) and ``message`` naming the evidence.
    ``graph`` is the world after the last step that ran; ``holding`` what the hand holds then."""

    ok: bool
    graph: SceneGraph
    steps_run: int
    failed_step: int | None = None
    message: str | None = None
    holding: str | None = None


class StepFailed(Exception):
    pass


@dataclass
class _World:
    graph: SceneGraph
    world: World
    affordances: Affordances
    nodes: dict[str, Node] = field(default_factory=dict)
    location: dict[str, Edge] = field(default_factory=dict)
    spatial: list[Edge] = field(default_factory=list)
    holding: str | None = None
    handed: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, graph: SceneGraph, world: World, affordances: Affordances) -> _World:
        w = cls(graph, world, affordances, nodes={n.id: n for n in graph.nodes})
        for e in graph.edges:
            if e.relation in LOCATION_RELATIONS:
                w.location[e.source] = e
            else:
                w.spatial.append(e)
        return w

    def to_graph(self) -> SceneGraph:
        edges = sorted([*self.location.values(), *self.spatial], key=lambda e: (e.source, e.relation, e.target))
        return SceneGraph(
            seed=self.graph.seed,
            relations_known=self.graph.relations_known,
            nodes=tuple(self.nodes.values()),
            edges=tuple(edges),
        )

    def set_state(self, node_id: str, **changes: object) -> None:
        node = self.nodes[node_id]
        self.nodes[node_id] = node.model_copy(update={"state": State(**{**node.state.model_dump(), **changes})})

    def name(self, node_id: str) -> str:
        return f"the {self.nodes[node_id].name}"


def _node(w: _World, ref: str, step: str) -> Node:
    node = w.nodes.get(ref)
    if node is None:
        raise StepFailed(f"{step}: the kitchen has no {ref.replace('_', ' ')}")
    return node


def _object(w: _World, ref: str, step: str) -> Node:
    node = _node(w, ref, step)
    if node.type != "object":
        raise StepFailed(f"{step}: the {node.name} is a fixed part of the kitchen")
    if ref in w.handed:
        raise StepFailed(f"{step}: the {node.name} has been handed over")
    return node


def _closed_around(w: _World, ref: str) -> str | None:
    """The closed place that keeps ``ref`` out of reach, if any (following objects inside objects)."""
    seen: set[str] = set()
    cur = ref
    while cur in w.location and cur not in seen:
        seen.add(cur)
        holder = w.nodes[w.location[cur].target]
        if holder.type == "place" and holder.state.open is False:
            return holder.id
        cur = holder.id
    return None


def _reachable(w: _World, ref: str, step: str) -> None:
    if w.holding == ref:
        return
    closed = _closed_around(w, ref)
    if closed is not None:
        raise StepFailed(f"{step} while {w.name(closed)} is closed")


def _hand_free(w: _World, step: str) -> None:
    if w.holding is not None:
        raise StepFailed(f"{step} while holding {w.name(w.holding)}")


def _in_hand(w: _World, ref: str, step: str) -> None:
    if w.holding != ref:
        held = f"holding {w.name(w.holding)}" if w.holding else "the hand is empty"
        raise StepFailed(f"{step} without holding {w.name(ref)} ({held})")


def _receiver(w: _World, ref: str, step: str, into: bool) -> str:
    """The relation a target takes things by: ``in``/``on`` for a place, ``inside`` for a vessel."""
    node = _node(w, ref, step)
    if node.type == "place":
        if node.holds is None or (into and node.holds != "in"):
            raise StepFailed(f"{step}: {w.name(ref)} does not hold things {'in it' if into else 'there'}")
        if node.state.open is False:
            raise StepFailed(f"{step} while {w.name(ref)} is closed")
        return node.holds
    if node.state.full is None:
        raise StepFailed(f"{step}: {w.name(ref)} does not hold things")
    _reachable(w, ref, step)
    return "inside"


def _able(w: _World, tool: str, how: str, step: str) -> None:
    view = index(w.graph).view(w.nodes[tool])
    if not w.affordances.get(how).allows(view):
        raise StepFailed(f"{step}: {w.name(tool)} cannot {how.replace('_', ' ')}")


def _pick_up(w: _World, ref: str) -> None:
    w.holding = ref
    w.location.pop(ref, None)
    w.spatial = [e for e in w.spatial if ref not in (e.source, e.target)]


def _contents(w: _World, place: str) -> list[str]:
    return [s for s, e in w.location.items() if e.target == place]


def step(w: _World, a: Action, n: int) -> None:
    """Check ``a``'s preconditions against ``w`` and apply its effects; StepFailed names the evidence."""
    text = f"step {n}: {render_action(a, w.graph).rstrip('.')}"
    text = text[: len(f"step {n}: ")] + text[len(f"step {n}: ") :][:1].lower() + text[len(f"step {n}: ") + 1 :]
    if a.verb == "pick":
        _object(w, a.obj, text)  # type: ignore[arg-type]
        _hand_free(w, text)
        _reachable(w, a.obj, text)  # type: ignore[arg-type]
        _pick_up(w, a.obj)  # type: ignore[arg-type]
    elif a.verb == "take_out":
        _object(w, a.obj, text)  # type: ignore[arg-type]
        _node(w, a.target, text)  # type: ignore[arg-type]
        loc = w.location.get(a.obj)  # type: ignore[arg-type]
        if loc is None or loc.target != a.target or loc.relation not in ("in", "inside"):
            where = f"{loc.relation} {w.name(loc.target)}" if loc else "not in its place"
            raise StepFailed(f"{text}, but {w.name(a.obj)} is {where}")  # type: ignore[arg-type]
        _hand_free(w, text)
        _reachable(w, a.obj, text)  # type: ignore[arg-type]
        _pick_up(w, a.obj)  # type: ignore[arg-type]
    elif a.verb in ("place", "put_in"):
        _object(w, a.obj, text)  # type: ignore[arg-type]
        _in_hand(w, a.obj, text)  # type: ignore[arg-type]
        relation = _receiver(w, a.target, text, into=a.verb == "put_in")  # type: ignore[arg-type]
        w.location[a.obj] = Edge(source=a.obj, relation=relation, target=a.target)  # type: ignore[arg-type]
        w.holding = None
    elif a.verb in ("open", "close"):
        node = _node(w, a.obj, text)  # type: ignore[arg-type]
        if node.state.open is None:
            raise StepFailed(f"{text}: {w.name(node.id)} cannot be opened or closed")
        if node.state.open is (a.verb == "open"):
            raise StepFailed(f"{text} while it is already {'open' if node.state.open else 'closed'}")
        if a.verb == "open" and node.state.switched_on:
            raise StepFailed(f"{text} while it is running")
        w.set_state(node.id, open=a.verb == "open")
    elif a.verb in ("switch_on", "switch_off"):
        node = _node(w, a.obj, text)  # type: ignore[arg-type]
        if node.state.switched_on is None:
            raise StepFailed(f"{text}: {w.name(node.id)} has no switch")
        if node.state.switched_on is (a.verb == "switch_on"):
            raise StepFailed(f"{text} while it is already {'on' if node.state.switched_on else 'off'}")
        if a.verb == "switch_on" and node.state.open:
            raise StepFailed(f"{text} while {w.name(node.id)} is open")
        w.set_state(node.id, switched_on=a.verb == "switch_on")
        if a.verb == "switch_on" and node.type == "place":
            place = w.world.place(node.id) if any(p.id == node.id for p in w.world.places) else None
            for inner in _contents(w, node.id):
                if place is not None and place.heats:
                    w.set_state(inner, temperature="hot")
                if place is not None and place.cleans and w.nodes[inner].state.clean is not None:
                    w.set_state(inner, clean=True)
    elif a.verb == "pour":
        _object(w, a.obj, text)  # type: ignore[arg-type]
        _in_hand(w, a.obj, text)  # type: ignore[arg-type]
        relation = _receiver(w, a.target, text, into=True)  # type: ignore[arg-type]
        if relation == "inside":
            w.set_state(a.target, full=True)  # type: ignore[arg-type]
    elif a.verb in ("cut", "use"):
        _object(w, a.obj, text)  # type: ignore[arg-type]
        _object(w, a.tool, text)  # type: ignore[arg-type]
        _in_hand(w, a.tool, text)  # type: ignore[arg-type]
        _reachable(w, a.obj, text)  # type: ignore[arg-type]
        _able(w, a.tool, "slice" if a.verb == "cut" else a.how, text)  # type: ignore[arg-type]
    elif a.verb == "wash":
        node = _object(w, a.obj, text)  # type: ignore[arg-type]
        _in_hand(w, a.obj, text)  # type: ignore[arg-type]
        if node.state.clean is not None:
            w.set_state(node.id, clean=True)
    elif a.verb == "hand_over":
        _object(w, a.obj, text)  # type: ignore[arg-type]
        _in_hand(w, a.obj, text)  # type: ignore[arg-type]
        w.holding = None
        w.handed.add(a.obj)  # type: ignore[arg-type]
    # wait and ask change nothing in the kitchen


def simulate(
    graph: SceneGraph,
    plan: Sequence[Action],
    world: World | None = None,
    affordances: Affordances | None = None,
) -> SimulationResult:
    """Run ``plan`` on a copy of ``graph``; stop at the first step whose preconditions fail."""
    if not graph.relations_known:
        raise ValueError("the graph's relations are unknown (imported data): a plan cannot be simulated on it")
    w = _World.of(graph, world or cached_world(), affordances or cached_affordances())
    for i, action in enumerate(plan):
        try:
            step(w, action, i + 1)
        except StepFailed as exc:
            return SimulationResult(False, w.to_graph(), i, i, str(exc), w.holding)
    return SimulationResult(True, w.to_graph(), len(plan), holding=w.holding)


def end_of_ambiguity(
    clear_plan: Sequence[Action], per_answer_plans: Mapping[str, Sequence[Action]] | Sequence[Sequence[Action]]
) -> int | None:
    """The first step (0-based) of the clear plan whose action depends on the answer: where some answer's
    plan does something else (another object, another place, another quantity) or has already ended.
    ``None`` when every answer's plan equals the clear plan (the answer changes nothing)."""
    plans = list(per_answer_plans.values()) if isinstance(per_answer_plans, Mapping) else list(per_answer_plans)
    longest = max([len(clear_plan), *(len(p) for p in plans)])
    for i in range(longest):
        mine = clear_plan[i] if i < len(clear_plan) else None
        if any((p[i] if i < len(p) else None) != mine for p in plans):
            return i
    return None
