"""Hand-made pairs with scene graphs for SG-CoT's tests: a preference pair (the ambiguity is in the words)
and two environment-induced pairs made by hand (the words are the same, the kitchen differs), with the two
environment types registered from a temporary folder while a test runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ambiforge import ambiguity
from ambiforge.models import Item, Provenance
from ambiforge.models.item import AgentView, Perturbation, World
from ambiforge.models.scene_graph import Attributes, Edge, Node, SceneGraph

PLACES = (
    Node(id="counter", type="place", name="counter", noun="counter", kind="surface", holds="on"),
    Node(id="shelf_1", type="place", name="upper shelf", noun="shelf", kind="surface", holds="on"),
    Node(id="fridge", type="place", name="fridge", noun="fridge", kind="appliance", holds="in"),
)
GLASS_MUG = Node(
    id="glass_mug", type="object", name="glass mug", noun="mug", group="mug", kind="kitchen_item",
    modifier="glass", attributes=Attributes(material="glass"),
)  # fmt: skip
CERAMIC_MUG = Node(
    id="ceramic_mug", type="object", name="ceramic mug", noun="mug", group="mug", kind="kitchen_item",
    modifier="ceramic", attributes=Attributes(material="ceramic"),
)  # fmt: skip
MILK = Node(id="whole_milk", type="object", name="whole milk", noun="milk", group="milk", kind="food", mass=True)
WHERE = {"glass_mug": Edge(source="glass_mug", relation="on", target="shelf_1"),
         "ceramic_mug": Edge(source="ceramic_mug", relation="on", target="counter"),
         "whole_milk": Edge(source="whole_milk", relation="in", target="fridge")}  # fmt: skip


def graph(*objects: Node) -> SceneGraph:
    return SceneGraph(seed=1, nodes=(*PLACES, *objects), edges=tuple(WHERE[o.id] for o in objects))


def pair(id: str, kind: str, amb: str, clear: str, intent: str, world: World, shortlist: list[str]) -> Item:
    return Item(
        id=id,
        environment=[{"name": n.name} for n in world.graph.nodes if n.type == "object"],
        environment_short=", ".join(n.name for n in world.graph.nodes if n.type == "object"),
        environment_full="",
        unambiguous_direct=clear,
        ambiguous_task=amb,
        ambiguity_type=kind,
        amb_shortlist=shortlist,
        question="Which one?",
        answer="That one.",
        plan_for_clear_task=["Look at the kitchen.", clear],
        plan_for_amb_task=["Look at the kitchen.", amb],
        end_of_ambiguity=1,
        user_intent=[intent],
        variants=[intent],
        world=world,
        provenance=Provenance(generator="test", generator_version="0", run_id="test"),
    )


def items() -> list[Item]:
    two_mugs = graph(GLASS_MUG, CERAMIC_MUG, MILK)
    one_mug = graph(GLASS_MUG, MILK)
    no_milk = graph(GLASS_MUG)
    return [
        # the words leave the mug open; the kitchen is the same for both halves
        pair(
            "P1", "preferences", "Pour the milk into a mug.", "Pour the milk into the ceramic mug.", "ceramic mug",
            World(graph=two_mugs, target="ceramic_mug", candidates=["glass_mug", "ceramic_mug"]),
            ["glass mug", "ceramic mug"],
        ),
        # the same words; the perturbed kitchen has a second mug
        pair(
            "M1", "multiplicity", "Bring me the mug.", "Bring me the mug.", "glass mug",
            World(
                graph=one_mug, target="glass_mug", candidates=["glass_mug"],
                perturbation=Perturbation(kind="multiplicity", graph=two_mugs, added=["ceramic_mug"]),
            ),
            [],
        ),
        # the same words; the milk is gone from the perturbed kitchen; the robot's view is all of it
        pair(
            "A1", "absence", "Pour some milk.", "Pour some milk.", "milk",
            World(
                graph=one_mug, target="whole_milk", candidates=["whole_milk"],
                perturbation=Perturbation(
                    kind="absence", graph=no_milk, removed=["whole_milk"],
                    views=[AgentView(agent="robot", nodes=["glass_mug", "counter", "shelf_1", "fridge"])],
                ),
            ),
            [],
        ),
    ]  # fmt: skip


DEFINITION = """name: {name}
label: {label}
description: The instruction is the same; the kitchen differs ({name}).
good_agent: ask
order: {order}
"""


@contextmanager
def environment_types(tmp: Path) -> Iterator[None]:
    """``multiplicity`` and ``absence`` as registered types while the block runs (the real ones come with
    issue 31's generation; a test must not depend on them)."""
    added = []
    for order, name in enumerate(("multiplicity", "absence"), start=10):
        if name in ambiguity.names():
            continue
        folder = tmp / "types" / name
        folder.mkdir(parents=True)
        (folder / "definition.yaml").write_text(DEFINITION.format(name=name, label=name.title(), order=order))
        ambiguity.register_folder(folder)
        added.append(name)
    try:
        yield
    finally:
        for name in added:
            ambiguity.unregister(name)
