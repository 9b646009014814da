"""SR (success rate) of one half, for every method: did the planner do what a good agent does there.

The seed scores a planner by whether it succeeds: on an ambiguous half it does what the type's good agent
does (asks, for preferences and the environment-induced types; acts on a fitting node or a correct variant
for common sense and safety); on a clear half it acts, and acts on the right thing. *The right thing* is
read on the item's graph where it has one: the node the action names (SG-CoT's ``object``; for a text step,
the objects it names as whole words, or a noun that picks one node) must be the item's target and no other
object of its kind, or, when the clear plan's step there opens the place that keeps the target, that place.
A step on another object fails even when it mentions the target's cupboard. Only an item without a graph
falls back on AmbiK's intent match.

Text methods give a step, not a node: when they ask, or offer more than one step, they did not act.
"""

from __future__ import annotations

from collections.abc import Sequence

from ambiforge.detectors.intent import is_correct
from ambiforge.detectors.tasks import EvalTask
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import resolve
from ambiforge.world.perturb import named_nodes, place_of, says


def names_node(graph: SceneGraph | None, named: str, wanted: set[str]) -> bool:
    """Whether ``named`` (an id or a name the model wrote) picks out exactly nodes of ``wanted``."""
    if not named or not wanted or graph is None:
        return False
    if named in wanted:
        return True
    nodes = resolve(graph, named)
    return bool(nodes) and len(nodes) == 1 and nodes[0].id in wanted


def clear_targets(task: EvalTask) -> tuple[set[str], set[str]]:
    """``(objects, places)`` a right action on the clear half may act on: the target, and the place that
    keeps it when the clear plan's step at the end of ambiguity opens that place."""
    world = task.world
    if world is None or world.target is None:
        return set(), set()
    places: set[str] = set()
    eoa = len(task.previous_steps)
    gold = world.clear_plan[eoa] if eoa < len(world.clear_plan) else None
    if gold is not None and gold.verb == "open" and gold.obj == place_of(world.graph, world.target):
        places.add(gold.obj)
    return {world.target}, places


def acts_on_target(task: EvalTask, step: str, obj: str = "") -> bool:
    """Whether a clear half's action acts on the target, read on the item's graph (see the module)."""
    world = task.world
    if world is None or world.target is None:
        return is_correct(step, task.intent, ())
    objects, places = clear_targets(task)
    if obj:
        return names_node(world.graph, obj, objects | places)
    named = named_nodes(world.graph, step)
    things = {n.id for n in named if n.type == "object"}
    if not things:  # "Bring me the mug.": a noun that picks one node of this kitchen names it
        for noun in {n.noun for n in world.graph.nodes if n.type == "object" and n.noun}:
            nodes = resolve(world.graph, noun) if says(step, noun) else []
            if len(nodes) == 1:
                things.add(nodes[0].id)
    if things:
        noun = next((n.noun for n in world.graph.nodes if n.id == world.target), None)
        rivals = {n.id for n in world.graph.nodes if n.type == "object" and n.noun == noun} - objects
        return bool(things & objects) and not things & rivals
    spots = {n.id for n in named if n.type == "place"}
    return bool(spots) and spots <= places


def success(
    task: EvalTask, asked: bool, good_agent: str, step: str = "", obj: str = "", fitting: Sequence[str] = ()
) -> int:
    """SR of one half: ``asked`` whether the planner asked; ``step``/``obj`` the action it took otherwise."""
    if task.ambiguous and good_agent == "ask":
        return int(asked)
    if asked or not step:
        return 0
    if task.ambiguous:  # a type whose good agent acts: any fitting node, any correct variant
        world = task.world
        graph = world.graph if world is not None else None
        return int(names_node(graph, obj, set(fitting)) or is_correct(step, task.intent, task.variants))
    return int(acts_on_target(task, step, obj))


def text_success(task: EvalTask, set_options: Sequence[str], asked: bool | None, good_agent: str) -> int:
    """SR of a text method's result: it acted when it did not ask and offered exactly one step."""
    did_ask = bool(asked) or len(set_options) > 1
    step = set_options[0] if len(set_options) == 1 and not did_ask else ""
    fitting = task.world.fitting if task.world is not None else ()
    return success(task, did_ask, good_agent, step, "", fitting)
