"""Environment items of a real seeded generation (seed 30871, as the environment read drew them) read as a
person reads them: the changed kitchen differs from the clear one only by the change, things are put
where kitchens keep them, and the words agree in number with the object they name."""

from __future__ import annotations

import json
import random
import re
from functools import cache

from ambiforge.catalog import Catalog, load_catalog
from ambiforge.catalog.world import cached_world
from ambiforge.environment import Scene
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.generation.offline.mechanisms.perturb import (
    _other_members,
    absence,
    catalog_jobs,
    said_noun,
    said_plural,
    stand_ins,
    with_stand_in,
)
from ambiforge.models.item import Item
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import build_graph
from ambiforge.world.describe import describe
from ambiforge.world.perturb import named_nodes

SEED, RUN = 30871, "env-read-30871"


@cache
def seeded(index: int, kind: str) -> Item:
    """The item the read's draw made at ``index`` (each index draws its own scene from the seed)."""
    return OfflineGenerator(load_catalog(), SEED, RUN).generate(index, kind)[0]


def surface_rows(graph: SceneGraph) -> dict[str, list[set[str]]]:
    """Each surface's rows as the kitchen's text says them, front first: the names of each row."""
    text = describe(graph) or ""
    out: dict[str, list[set[str]]] = {}
    for clause in text.split("; "):
        found = re.match(r"(?i)on the (.+?) there (?:is|are) (.*)", clause.rstrip("."))
        if found:
            parts = re.split(r", and behind (?:them|those) ", found[2])
            out[found[1]] = [{n.name for n in named_nodes(graph, part)} for part in parts]
    return out


def test_removing_an_object_leaves_every_other_object_in_its_row() -> None:
    item = seeded(14, "absence")  # the new potatoes go from the counter's second row
    world = item.world
    assert world is not None and world.perturbation is not None
    p = world.perturbation
    gone = {n.name for n in world.graph.nodes if n.id in p.removed}
    assert gone == {"new potatoes"}
    clear, changed = surface_rows(world.graph), surface_rows(p.graph)
    assert any("glass cutting board" in row for rows in clear.values() for row in rows)
    expected = {place: [row - gone for row in rows if row - gone] for place, rows in clear.items()}
    assert changed == expected


def test_a_put_away_item_puts_the_object_where_the_catalog_keeps_it(catalog: Catalog) -> None:
    item = seeded(2, "multiplicity")  # read 30871 had "Store the towel in the sink"; this one stores a nut butter
    world = item.world
    assert world is not None and item.provenance.template.startswith("multiplicity/put_away")
    target = next(n.name for n in world.graph.nodes if n.id == world.target)
    assert target == "almond butter"
    kept = cached_world().candidates(catalog.objects[target])
    into = [a.target for a in world.clear_plan if a.verb in ("put_in", "place")]
    assert into and all(place in kept for place in into)
    assert "sink" not in item.unambiguous_direct
    for obj in catalog.groups["towels"].objects:  # a sink is for washing up, never where a towel is kept
        assert "sink" not in cached_world().candidates(obj)


def test_a_plural_target_is_named_in_the_plural_in_task_question_answer_and_plans() -> None:
    item = seeded(15, "multiplicity")  # read 30871 had "Leave the carrot on the upper shelf" for baby carrots
    world = item.world
    assert world is not None and world.perturbation is not None
    assert next(n.name for n in world.graph.nodes if n.id == world.target) == "quail eggs"
    assert world.perturbation.referent == "eggs"
    texts = [item.unambiguous_direct, item.unambiguous_indirect, item.question, item.answer, *item.plan_for_amb_task]
    for text in texts:
        assert not re.search(r"\b(egg|one|it)\b", text), text
    assert "the eggs" in item.unambiguous_direct and "the ones" in item.question


def test_the_noun_of_a_plural_member_fits_only_members_of_its_number(catalog: Catalog) -> None:
    carrots = catalog.groups["carrots"]
    baby = catalog.objects["baby carrots"]
    assert (said_noun(carrots, baby), said_plural(carrots, baby)) == ("carrots", True)
    assert _other_members(carrots, Scene((baby,)), baby) == []  # "the carrots" is no orange carrot
    orange = catalog.objects["orange carrot"]
    assert baby not in _other_members(carrots, Scene((orange,)), orange)
    coffee, beans = catalog.groups["coffees"], catalog.objects["espresso beans"]
    assert (said_noun(coffee, beans), said_plural(coffee, beans)) == ("coffee", False)  # "the coffee is"


def test_an_offered_substitute_does_the_missing_objects_job_and_the_answer_takes_it(catalog: Catalog) -> None:
    item = seeded(26, "absence")  # the wine glass is gone; the kitchen has a porcelain mug
    world = item.world
    assert world is not None and world.perturbation is not None
    gone = next(n.name for n in world.graph.nodes if n.id in world.perturbation.removed)
    offered = [n.name for n in world.perturbation.graph.nodes if n.name in item.question and n.type == "object"]
    assert offered and all(name in item.answer for name in offered[:1])
    assert catalog_jobs(catalog.objects[gone]) & catalog_jobs(catalog.objects[offered[0]])
    assert item.plan_for_amb_task[-1] == f"Give the {offered[0]} to the user."


def test_only_what_does_the_job_is_offered_and_a_kitchen_without_it_may_get_one(catalog: Catalog) -> None:
    bowl, plate = catalog.objects["ceramic bowl"], catalog.objects["ceramic plate"]
    assert plate not in stand_ins(catalog, bowl)  # a plate holds no soup
    mug = catalog.objects["ceramic mug"]
    doers = stand_ins(catalog, mug)
    assert doers and all(catalog_jobs(mug) & catalog_jobs(o) and o.noun != "mug" for o in doers)
    assert stand_ins(catalog, catalog.objects["baby carrots"]) == ()  # no job: nothing is said to do instead
    kitchens = [with_stand_in(Scene((mug,)), doers, random.Random(s)).objects for s in range(30)]
    added = [k[1] for k in kitchens if len(k) == 2]
    assert 10 <= len(added) < 30 and set(added) <= set(doers)
    graph = build_graph(Scene((bowl, plate)), 7)
    t = next(n for n in graph.nodes if n.name == "ceramic bowl")
    made = absence(graph, t, bowl, catalog.groups[bowl.group], Scene((bowl, plate)), random.Random(3))
    assert made is not None and made.refused and not made.offered  # nothing offered: the robot asks


def test_an_items_record_is_its_json_dump_perturbed_graph_included() -> None:
    """``to_record`` takes the graphs' nodes from their kept JSON forms: the same keys, order and values as
    pydantic's dump, for the clear kitchen and the perturbed one."""
    item = seeded(14, "absence")
    assert item.world is not None and item.world.perturbation is not None
    assert json.dumps(item.to_record()) == json.dumps(item.model_dump(mode="json"))
