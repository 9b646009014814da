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

from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from ambiforge.catalog.affordances import Affordances, cached_affordances
from ambiforge.catalog.world import World, cached_world
from ambiforge.models.action import VERBS, Action
from ambiforge.models.scene_graph import LOCATION_RELATIONS, Edge, Node, SceneGraph, State
from ambiforge.world.actions import render_action
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


_EDGE_ORDER = attrgetter("source", "relation", "target")
_LOCATION_SET = frozenset(LOCATION_RELATIONS)
_STATE_FIELDS = tuple(State.model_fields)
_STATE_VALUES = attrgetter(*_STATE_FIELDS)
_STATE_POSITION = {name: i for i, name in enumerate(_STATE_FIELDS)}


class StepFailed(Exception):
    pass


@dataclass
class _World:
    graph: SceneGraph
    world: World
    affordances: Affordances
    nodes: dict[str, Node] = field(default_factory=dict)
    location: dict[str, Edge] = field(default_factory=dict)
    #: The graph's nodes in the states simulations on it have made (:attr:`GraphIndex.states`).
    states: dict[tuple[str, tuple[object, ...]], Node] = field(default_factory=dict)
    #: The location edges simulations on the graph have made (:attr:`GraphIndex.moves`).
    moves: dict[tuple[str, str, str], Edge] = field(default_factory=dict)
    #: Nodes picked up since the start: their spatial relations are gone (filtered when a graph is made,
    #: not at every pick: most simulations never make one).
    moved: set[str] = field(default_factory=set)
    holding: str | None = None
    handed: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, graph: SceneGraph, world: World, affordances: Affordances) -> _World:
        ix = index(graph)
        nodes, location = dict(ix.by_id), dict(ix.location)
        return cls(graph, world, affordances, nodes=nodes, location=location, states=ix.states, moves=ix.moves)

    @property
    def spatial(self) -> list[Edge]:
        moved = self.moved
        return [
            e
            for e in self.graph.edges
            if e.relation not in LOCATION_RELATIONS and e.source not in moved and e.target not in moved
        ]

    def to_graph(self) -> SceneGraph:
        edges = sorted([*self.location.values(), *self.spatial], key=_EDGE_ORDER)
        return SceneGraph(
            seed=self.graph.seed,
            relations_known=self.graph.relations_known,
            nodes=tuple(self.nodes.values()),
            edges=tuple(edges),
        )

    def set_state(self, node_id: str, **changes: object) -> None:
        """The node with its state changed: the node in that state made before on this graph (a door
        closed again is the node as it was), else a new one, validated."""
        node = self.nodes[node_id]
        now = _STATE_VALUES(node.state)
        values = list(now)
        for name, value in changes.items():
            values[_STATE_POSITION[name]] = value
        key = (node_id, tuple(values))
        made = self.states.get(key)
        if made is None:
            self.states.setdefault((node_id, now), node)
            made = self.states[key] = changed(node, changes)
        self.nodes[node_id] = made

    def put(self, node_id: str, relation: str, target: str) -> None:
        """Keep the node at ``target``."""
        self.location[node_id] = _edge(self.moves, node_id, relation, target)

    def name(self, node_id: str) -> str:
        return f"the {self.nodes[node_id].name}"


def _edge(made: dict[tuple[str, str, str], Edge], source: str, relation: str, target: str) -> Edge:
    """The location edge ``source relation target``: the one made before on the graph (``made``: its
    :attr:`GraphIndex.moves`), else a new one, validated."""
    key = (source, relation, target)
    edge = made.get(key)
    if edge is None:
        edge = made[key] = Edge(source=source, relation=relation, target=target)  # type: ignore[arg-type]
    return edge


def changed(node: Node, changes: dict[str, object]) -> Node:
    """``node`` with its state changed (validated like any state: a bad value raises)."""
    return node.model_copy(update={"state": State.model_validate({**node.state.model_dump(), **changes})})


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


def _receiver(w: _World, ref: str, step: str, into: bool, moving: str) -> str:
    """The relation a target takes ``moving`` by: ``in``/``on`` for a place, ``inside`` for a vessel."""
    node = _node(w, ref, step)
    if ref == moving:
        raise StepFailed(f"{step}: {w.name(ref)} cannot go into itself")
    if ref in w.handed:
        raise StepFailed(f"{step}: {w.name(ref)} has been handed over")
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
    w.moved.add(ref)


def _contents(w: _World, place: str) -> list[str]:
    return [s for s, e in w.location.items() if e.target == place]


def _do_pick(w: _World, a: Action, text: str) -> None:
    obj = a.obj or ""
    _object(w, obj, text)
    _hand_free(w, text)
    _reachable(w, obj, text)
    _pick_up(w, obj)


def _do_take_out(w: _World, a: Action, text: str) -> None:
    obj, source = a.obj or "", a.target or ""
    _object(w, obj, text)
    _node(w, source, text)
    loc = w.location.get(obj)
    if loc is None or loc.target != source or loc.relation not in ("in", "inside"):
        where = f"{loc.relation} {w.name(loc.target)}" if loc else "not in its place"
        raise StepFailed(f"{text}, but {w.name(obj)} is {where}")
    _hand_free(w, text)
    _reachable(w, obj, text)
    _pick_up(w, obj)


def _do_place(w: _World, a: Action, text: str) -> None:
    obj, target = a.obj or "", a.target or ""
    _object(w, obj, text)
    _in_hand(w, obj, text)
    relation = _receiver(w, target, text, into=a.verb == "put_in", moving=obj)
    w.put(obj, relation, target)
    w.holding = None


def _do_open_close(w: _World, a: Action, text: str) -> None:
    node, opening = _node(w, a.obj or "", text), a.verb == "open"
    if node.state.open is None:
        raise StepFailed(f"{text}: {w.name(node.id)} cannot be opened or closed")
    if node.state.open is opening:
        raise StepFailed(f"{text} while it is already {'open' if opening else 'closed'}")
    if opening and node.state.switched_on:
        raise StepFailed(f"{text} while it is running")
    w.set_state(node.id, open=opening)


def _do_switch(w: _World, a: Action, text: str) -> None:
    node, on = _node(w, a.obj or "", text), a.verb == "switch_on"
    if node.state.switched_on is None:
        raise StepFailed(f"{text}: {w.name(node.id)} has no switch")
    if node.state.switched_on is on:
        raise StepFailed(f"{text} while it is already {'on' if on else 'off'}")
    if on and node.state.open:
        raise StepFailed(f"{text} while {w.name(node.id)} is open")
    w.set_state(node.id, switched_on=on)
    place = next((p for p in w.world.places if p.id == node.id), None)
    if on and place is not None:
        for inner in _contents(w, node.id):
            if place.heats:
                w.set_state(inner, temperature="hot")
            if place.cleans and w.nodes[inner].state.clean is not None:
                w.set_state(inner, clean=True)


def _do_pour(w: _World, a: Action, text: str) -> None:
    """Pour what is held into a vessel or an ``in`` place; a kettle (a switchable place without a door)
    pours where it stands."""
    obj, target = a.obj or "", a.target or ""
    source = _node(w, obj, text)
    if source.type == "place":
        if source.state.switched_on is None or source.state.open is not None:
            raise StepFailed(f"{text}: {w.name(obj)} cannot be poured from")
    else:
        _object(w, obj, text)
        _in_hand(w, obj, text)
    if _receiver(w, target, text, into=True, moving=obj) == "inside":
        w.set_state(target, full=True)


def _do_with_tool(w: _World, a: Action, text: str) -> None:
    """``use`` may work on a place (wipe the kitchen table); ``cut`` works on an object."""
    obj, tool = a.obj or "", a.tool or ""
    if a.verb == "use" and _node(w, obj, text).type == "place":
        _object(w, tool, text)
        _in_hand(w, tool, text)
        _able(w, tool, a.how or "", text)
        return
    _object(w, obj, text)
    _object(w, tool, text)
    _in_hand(w, tool, text)
    _reachable(w, obj, text)
    _able(w, tool, "slice" if a.verb == "cut" else a.how or "", text)


def _do_wash(w: _World, a: Action, text: str) -> None:
    node = _object(w, a.obj or "", text)
    _in_hand(w, node.id, text)
    if node.state.clean is not None:
        w.set_state(node.id, clean=True)


def _do_fill(w: _World, a: Action, text: str) -> None:
    """Fill a vessel (in hand or within reach) or an open ``in`` place such as the kettle, from the tap."""
    node = _node(w, a.obj or "", text)
    if node.type == "place":
        if node.holds != "in" or node.state.open is False:
            raise StepFailed(
                f"{text}: {w.name(node.id)} cannot be filled"
                if node.holds != "in"
                else f"{text} while {w.name(node.id)} is closed"
            )
        return
    _object(w, node.id, text)
    if node.state.full is None:
        raise StepFailed(f"{text}: {w.name(node.id)} does not hold things")
    _reachable(w, node.id, text)
    w.set_state(node.id, full=True)


def _do_handle(w: _World, a: Action, text: str) -> None:
    """Work on an object with the hand alone (peel a banana, fold a napkin): it must be within reach."""
    node = _object(w, a.obj or "", text)
    _reachable(w, node.id, text)


def _do_hand_over(w: _World, a: Action, text: str) -> None:
    obj = a.obj or ""
    _object(w, obj, text)
    _in_hand(w, obj, text)
    w.holding = None
    w.handed.add(obj)


def _do_nothing(w: _World, a: Action, text: str) -> None:
    """wait, ask, ask_robot and tell change nothing in the kitchen (what the other robot does is its own plan)."""


#: The simulator's effects, by the name a verb's entry in the verb table gives (models.action.VERBS): each
#: checks the preconditions against the world and applies the effects.
EFFECTS: dict[str, Callable[[_World, Action, str], None]] = {
    "pick": _do_pick,
    "take_out": _do_take_out,
    "place": _do_place,
    "open_close": _do_open_close,
    "switch": _do_switch,
    "pour": _do_pour,
    "with_tool": _do_with_tool,
    "wash": _do_wash,
    "fill": _do_fill,
    "handle": _do_handle,
    "hand_over": _do_hand_over,
    "nothing": _do_nothing,
}
#: Per verb, its effect (an Action has the fields its verb needs: the verb table's ``required``).
HANDLERS: dict[str, Callable[[_World, Action, str], None]] = {verb: EFFECTS[v.effect] for verb, v in VERBS.items()}


class _Said:
    """'step 4: take the whole milk out of the fridge', rendered only when a message needs it (most steps
    run, and rendering every step's text would cost more than running it)."""

    def __init__(self, graph: SceneGraph, action: Action, n: int) -> None:
        self.graph, self.action, self.n = graph, action, n

    def __format__(self, spec: str) -> str:
        said = render_action(self.action, self.graph).rstrip(".")
        return format(f"step {self.n}: {said[:1].lower()}{said[1:]}", spec)

    def __str__(self) -> str:
        return self.__format__("")


def step(w: _World, a: Action, n: int) -> None:
    """Run step ``n`` (1-based) on ``w``; StepFailed names the step as said and the evidence."""
    HANDLERS[a.verb](w, a, _Said(w.graph, a, n))  # type: ignore[arg-type]


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


class Simulation:
    """A plan run one step at a time, for code that builds a plan on the world as it goes (a generator
    expanding "fetch the milk" into opening the fridge first only when the fridge is closed then)."""

    def __init__(self, graph: SceneGraph, world: World | None = None, affordances: Affordances | None = None):
        if not graph.relations_known:
            raise ValueError("the graph's relations are unknown (imported data): a plan cannot be simulated on it")
        self._w = _World.of(graph, world or cached_world(), affordances or cached_affordances())
        self.steps = 0

    def run(self, action: Action) -> str | None:
        """Run the next step; the reason it cannot run (the simulator's message), or None."""
        self.steps += 1
        try:
            step(self._w, action, self.steps)
        except StepFailed as exc:
            return str(exc)
        return None

    def location(self, node_id: str) -> Edge | None:
        """Where the node is now (None: held, handed over or a place that stands nowhere)."""
        return self._w.location.get(node_id)

    def locations(self) -> dict[str, Edge]:
        """Where every located node is now (a copy: later steps do not change it)."""
        return dict(self._w.location)

    def node(self, node_id: str) -> Node | None:
        return self._w.nodes.get(node_id)

    @property
    def holding(self) -> str | None:
        return self._w.holding

    def closed_around(self, node_id: str) -> str | None:
        """The closed place that keeps the node out of reach, if any."""
        return _closed_around(self._w, node_id)


def relocate(graph: SceneGraph, moves: dict[str, str]) -> SceneGraph:
    """The graph with each node of ``moves`` kept at another place (``in``/``on`` as the place holds),
    without its spatial relations: the kitchen a task presupposes ("put the milk away": it is out).
    ``graph``'s edges are in canonical order (source, relation, target), as in every graph the sampler,
    the simulator and this function make; so are the result's."""
    if not graph.relations_known:
        raise ValueError("the graph's relations are unknown (imported data): nothing can be moved in it")
    ix = index(graph)
    nodes = ix.by_id
    for node_id_, place in moves.items():
        if nodes.get(node_id_) is None or nodes.get(place) is None or nodes[place].holds is None or node_id_ == place:
            raise ValueError(f"cannot keep {node_id_!r} at {place!r}")
    # A moved node loses every edge it is the source of (its location and its neighbours) and the spatial
    # edges to it; its new location joins the rest (nearly sorted already: the sort is a merge).
    edges = [e for e in graph.edges if e.source not in moves and (e.target not in moves or e.relation in _LOCATION_SET)]
    placed = {n: _edge(ix.moves, n, nodes[p].holds or "", p) for n, p in moves.items()}
    for edge in placed.values():  # the rest are in canonical order already: insert, do not sort again
        insort(edges, edge, key=_EDGE_ORDER)
    moved = SceneGraph(seed=graph.seed, nodes=graph.nodes, edges=tuple(edges))
    index(moved, like=graph, location={**ix.location, **placed})  # the same nodes: shared tables
    return moved
