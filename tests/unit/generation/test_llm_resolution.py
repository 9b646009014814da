"""A model's reply resolved against the pair's scene graph: names the kitchen lacks, variants that are not
the affordance set and shortlists that are not what the referent fits are problems (sent back as a repair);
the item's world is filled from the names that resolved."""

from __future__ import annotations

import pytest

from ambiforge.environment import Scene
from ambiforge.generation.llm.resolution import Mentions, Resolver, bare, mentioned
from ambiforge.world import build_graph

OBJECTS = ["vegetable peeler", "Y-peeler", "swivel peeler", "julienne peeler", "russet potato", "glass mug"]
OBJECTS += ["ceramic mug", "whole milk"]


@pytest.fixture
def resolver(catalog) -> Resolver:
    graph = build_graph(Scene(tuple(catalog.objects[n] for n in OBJECTS)), 7)
    return Resolver(graph, Mentions(catalog.objects), has_shortlist=False)


def test_mentions_are_whole_catalog_names_longest_first(catalog) -> None:
    mentions = Mentions(catalog.objects)
    assert mentions.find("Pour the whole milk into the glass mug.") == ["whole milk", "glass mug"]
    assert mentions.find("Stir the flour with the wooden spoon.") == ["wooden spoon"]
    assert mentions.find("Add a teaspoon of sugar.") == []  # a measure, not the spoon
    assert mentions.find("Stir with the teaspoon.") == ["teaspoon"]


def test_words_and_articles() -> None:
    assert mentioned("mug", "Fill the mugs.") and not mentioned("mug", "Fill the smugglers.")
    assert bare("the Y-peeler") == "Y-peeler" and bare("a glass mug") == "glass mug"


def test_a_text_naming_an_object_the_kitchen_lacks_is_a_problem(resolver: Resolver) -> None:
    check = resolver.check_texts("plan")
    assert check({"plan": ["Pick up the glass mug.", "Pour the whole milk into it."]}) is None
    problem = check({"plan": ["Pick up the glass mug.", "Stir it with the wooden spoon."]})
    assert problem is not None and "plan/2 names the wooden spoon, which this kitchen does not have" in problem


def test_variants_must_be_every_object_the_job_allows(resolver: Resolver) -> None:
    """The issue's defect: "peel with a peeler" listing one peeler where the Y-peeler peels too."""
    check = resolver.check_intent(
        "Peel the russet potato with the Y-peeler.", "Peel the russet potato with a peeler.", []
    )
    good = {"user_intent": ["peeler"], "referent": "peeler", "action": "peel"}
    assert check(good | {"variants": ["vegetable peeler", "the Y-peeler", "swivel peeler"]}) is None
    problem = check(good | {"variants": ["vegetable peeler", "swivel peeler"]})
    assert problem is not None and "leaves out Y-peeler" in problem
    problem = check(good | {"variants": ["vegetable peeler", "Y-peeler", "swivel peeler", "julienne peeler"]})
    assert problem is not None and "should not list julienne peeler" in problem
    problem = check(good | {"variants": ["vegetable peeler", "wooden spoon"], "action": "none"})
    assert problem is not None and "'wooden spoon' is not an object of this kitchen" in problem
    problem = check(good | {"variants": ["vegetable peeler", "golden unicorn"], "action": "none"})
    assert "'golden unicorn' is not an object of this kitchen" in str(problem)
    assert check(good | {"variants": ["a little"], "action": "none"}) is None  # not objects: amounts
    assert "variants/1 names the wooden spoon" in str(check(good | {"variants": ["wooden spoon"], "action": "none"}))
    problem = check(good | {"variants": ["vegetable peeler", "swivel peeler"], "action": "none"})
    assert "variants: leave out the Y-peeler, which the unambiguous task uses" in str(problem)
    assert "is not one of" in str(check(good | {"variants": ["Y-peeler"], "action": "dance"}))
    assert "names nothing in this kitchen" in str(check(good | {"variants": [], "referent": "unicorn"}))


def test_a_shortlist_is_every_object_the_referent_fits(catalog, resolver: Resolver) -> None:
    prefs = Resolver(resolver.graph, resolver.mentions, has_shortlist=True)
    reply = {"ambiguous_task": "Pour the whole milk into a mug.", "question": "Which mug?", "answer": "The glass one."}
    assert prefs.check_variant(reply | {"shortlist": ["glass mug", "ceramic mug"]}) is None
    assert "golden unicorn" in str(prefs.check_variant(reply | {"shortlist": ["glass mug", "golden unicorn"]}))
    assert "two or more" in str(prefs.check_variant(reply | {"shortlist": ["glass mug"]}))
    assert "must be empty" in str(resolver.check_variant(reply | {"shortlist": ["glass mug", "ceramic mug"]}))
    intent = {"user_intent": ["glass"], "variants": ["glass mug", "ceramic mug"], "action": "none"}
    task = "Pour the whole milk into the glass mug."
    check = prefs.check_intent(task, reply["ambiguous_task"], ["glass mug", "ceramic mug"])
    assert check(intent | {"referent": "mug"}) is None
    assert "not what the ambiguous task says" in str(check(intent | {"referent": "glass mug"}))
    short = prefs.check_intent(task, reply["ambiguous_task"], ["glass mug"])
    assert "leaves out ceramic mug" in str(short(intent | {"referent": "mug"}))


def test_the_world_is_filled_from_the_resolved_names(resolver: Resolver) -> None:
    world = resolver.world(
        task="Peel the russet potato with the Y-peeler.",
        referent="peeler",
        shortlist=[],
        variants=["vegetable peeler", "Y-peeler", "swivel peeler"],
    )
    assert world.graph is resolver.graph and world.target == "y_peeler"
    assert world.candidates == ["vegetable_peeler", "y_peeler", "swivel_peeler", "julienne_peeler"]
    assert world.fitting == ["vegetable_peeler", "y_peeler", "swivel_peeler"]
    nodes = {n.id for n in resolver.graph.nodes}
    assert set(world.candidates) <= nodes


def test_a_run_wide_pattern_finds_what_the_graphs_own_finds(catalog) -> None:
    """The run's names (a superset of the graph's) answer only when every match is the graph's; a longer
    name the graph lacks ("dirty ceramic mug" over the graph's "ceramic mug"), a measure ("teaspoon of")
    and text beyond ASCII fall back to the graph's own pattern, so the names found are always the graph's."""
    names = ["ceramic mug", "whole milk", "teaspoon", "russet potato"]
    graph = build_graph(Scene(tuple(catalog.objects[n] for n in names)), 3)
    run = Mentions([*catalog.objects, *(n.name for n in graph.nodes)])
    own = Mentions(n.name for n in graph.nodes)
    fast = Resolver(graph, Mentions(catalog.objects), has_shortlist=False, node_names=run)
    texts = [
        "Pour the whole milk into the ceramic mug.",
        "Pour the whole milk into the dirty ceramic mug.",  # a name the graph lacks hides the graph's mug
        "Add a teaspoon of whole milk, then stir with the teaspoon.",
        "Fill the Ceramic Mug with WHOLE MILK and peel the russet potatoes.",
        "Warm the whole milk in the ceramic mug \u2013 gently.",  # not ASCII
        "",
    ]
    for text in texts:
        assert fast.names_in(text) == own.find(text), text
    assert own.find("Pour the whole milk into the dirty ceramic mug.") == ["whole milk", "ceramic mug"]
    assert run.find_within("Pour the whole milk into the dirty ceramic mug.", own.names) is None
    assert run.find_within("Pour the whole milk into the ceramic mug.", own.names) == ["whole milk", "ceramic mug"]
    assert fast.named("Pour the whole milk into the ceramic mug.") == {
        n.id for n in graph.nodes if n.name in ("whole milk", "ceramic mug")
    }
