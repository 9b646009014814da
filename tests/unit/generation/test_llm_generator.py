"""The LLM generator against the scripted test server: one draft -> item path, the type's own steering
text in the prompt, a folder type's variant prompt found in its folder, and generation on the scene graph
(the prompts show it, the replies are resolved against it, repaired or rejected with the reason)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ambiforge import ambiguity
from ambiforge.config.llm import LLMConfig
from ambiforge.engine.preflight import resolve_provider
from ambiforge.errors import LLMError
from ambiforge.generation.grounding import scene_graph
from ambiforge.generation.llm import LLMGenerator
from ambiforge.generation.records import generate_one
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.models import Item
from ambiforge.models.outcome import PairSpec
from ambiforge.models.schema import schema_errors
from ambiforge.testing.kitchen_responder import REPAIR_PREFIX, KitchenResponder, step_of
from ambiforge.testing.llm_server import ScriptedLLMServer
from ambiforge.world.prompt_view import prompt_view

KEY = "sk-test-llm-generator-0123456789"
FIXTURE_TYPES = Path(__file__).resolve().parents[2] / "fixtures" / "types"


def first_pair(gen: LLMGenerator, name: str) -> tuple[int, Item, int]:
    """The scripted responder answers from offline templates and may find none in a scene (it then replies
    with an invalid task, as a model might): the first of a few pairs that it can answer, with its index
    and attempt."""
    errors = []
    for index in range(12):
        try:
            item, attempt = gen.generate(index, name)
            return index, item, attempt
        except LLMError as exc:
            errors.append(str(exc))
    raise AssertionError(errors)


def first_item(gen: LLMGenerator, name: str) -> Item:
    return first_pair(gen, name)[1]


Respond = Callable[[dict[str, Any]], str]


@pytest.fixture
def generator(tmp_path: Path, catalog, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Respond], LLMGenerator]]:
    """A generator against a scripted server answering with ``respond`` (one server per test)."""
    servers: list[ScriptedLLMServer] = []

    def make(respond: Respond) -> LLMGenerator:
        server = ScriptedLLMServer(respond, api_key=KEY).__enter__()
        servers.append(server)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        _, settings, _ = resolve_provider("openai", LLMConfig(backoff_seconds=0.01, timeout_seconds=5.0))
        return LLMGenerator(catalog, 3, "r", settings, tmp_path / "r", tmp_path / "cache", limiter=LocalLimiter(4, 0))

    yield make
    for server in servers:
        server.__exit__(None, None, None)


def user_text(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def absent_object(catalog, body: dict[str, Any]) -> str:
    """A catalog object the request's kitchen does not hold (the first by name)."""
    line = next(x for x in user_text(body).splitlines() if x.startswith("Objects in the kitchen: "))
    present = {n.strip() for n in line.removeprefix("Objects in the kitchen: ").split(",")}
    return next(n for n in sorted(catalog.objects) if n not in present and " " in n)


def test_llm_pairs_of_every_type_including_a_folder_type(
    tmp_path: Path, catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    quantity = ambiguity.register_folder(FIXTURE_TYPES / "quantity")
    responder, users = KitchenResponder(catalog), []

    def respond(body: dict) -> str:  # type: ignore[type-arg]
        users.extend(m["content"] for m in body["messages"] if m["role"] == "user")
        return responder(body)

    try:
        with ScriptedLLMServer(respond, api_key=KEY) as server:
            monkeypatch.setenv("OPENAI_API_KEY", KEY)
            monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
            _, settings, _ = resolve_provider("openai", LLMConfig(backoff_seconds=0.01, timeout_seconds=5.0))
            gen = LLMGenerator(
                catalog, 3, "r", settings, tmp_path / "r", tmp_path / "cache", limiter=LocalLimiter(4, 0)
            )
            # Environment-induced types make one call a pair (their own test below).
            worded = [n for n in ambiguity.names() if ambiguity.get(n).minimal_pair != "same_instruction"]
            items = {name: first_item(gen, name) for name in worded}
        for name, item in items.items():
            assert any(ambiguity.get(name).llm_steering in text for text in users), name
            assert item.ambiguity_type == name and schema_errors(item.to_record()) == []
            assert item.provenance.generator == "llm" and item.provenance.template.startswith("candidate=0#attempt=")
            prompt_ids = [p.id for p in item.provenance.prompts]
            assert prompt_ids[3] == f"ambiguous_{name}" and len(prompt_ids) == 6
            eoa = item.end_of_ambiguity
            assert item.plan_for_clear_task[:eoa] == item.plan_for_amb_task[:eoa]
        assert items["preferences"].amb_shortlist and not items["quantity"].amb_shortlist
        assert gen.variant_prompt("quantity").path == str(quantity.prompts_dir / "ambiguous_quantity.yaml")
    finally:
        ambiguity.unregister("quantity")


def test_items_carry_the_graph_of_their_scene_which_the_prompts_show(generator, catalog) -> None:
    responder, users = KitchenResponder(catalog), []

    def respond(body: dict) -> str:  # type: ignore[type-arg]
        users.append(user_text(body))
        return responder(body)

    gen = generator(respond)
    for name in ("preferences", "common_sense_knowledge", "safety"):
        index, item, attempt = first_pair(gen, name)
        world = item.world
        assert world is not None
        # the graph the offline generator builds for this pair's scene and attempt
        scene, _ = gen.steering.scene(random.Random(f"3:{index}:{attempt}"), name)
        assert world.graph.to_json() == scene_graph(scene, 3, index, attempt).to_json()
        view = prompt_view(world.graph)
        assert sum(view in text for text in users) >= 6, name  # every step of the pair saw the kitchen map
        nodes = {n.id: n for n in world.graph.nodes}
        assert world.fitting and set(world.candidates) | set(world.fitting) <= set(nodes)
        assert world.target in world.candidates + world.fitting
        assert [nodes[i].name for i in world.fitting] == item.variants
        if name == "preferences":
            assert [nodes[i].name for i in world.candidates] == item.amb_shortlist
        assert nodes[world.target].name.lower() in item.unambiguous_direct.lower()


def test_a_plan_naming_an_object_the_kitchen_lacks_is_repaired(generator, catalog) -> None:
    responder, sent, stray = KitchenResponder(catalog), [], {}

    def respond(body: dict) -> str:  # type: ignore[type-arg]
        sent.append(body)
        reply = responder(body)
        repairing = body["messages"][-1]["content"].startswith(REPAIR_PREFIX)
        if step_of(body, user_text(body)) == "plan" and not repairing:
            stray["name"] = absent_object(catalog, body)
            plan = json.loads(reply)["plan"]
            return json.dumps({"plan": [*plan, f"Put the {stray['name']} back on the counter."]})
        return reply

    item = first_item(generator(respond), "preferences")
    assert stray["name"] not in " ".join(item.plan_for_clear_task)
    repairs = [b["messages"][-1]["content"] for b in sent if b["messages"][-1]["content"].startswith(REPAIR_PREFIX)]
    assert any(f"names the {stray['name']}, which this kitchen does not have" in r for r in repairs)


def test_a_shortlist_that_stays_off_the_graph_rejects_the_pair_with_the_reason(generator, catalog) -> None:
    responder = KitchenResponder(catalog)

    def respond(body: dict) -> str:  # type: ignore[type-arg]
        reply = json.loads(responder(body))
        if step_of(body, user_text(body)) == "ambiguous_variant":  # even when asked to repair
            reply["shortlist"] = [*reply["shortlist"], "golden unicorn"]
        return json.dumps(reply)

    gen = generator(respond)
    outcomes = [generate_one(gen, PairSpec(index, "preferences")) for index in range(3)]
    reasons = [o.rejection()["reason"] for o in outcomes if o.item is None and "ambiguous_variant" in str(o.reason)]
    assert reasons and all(o.item is None for o in outcomes)
    assert all("'golden unicorn' is not an object of this kitchen" in r for r in reasons)


def test_variants_that_leave_out_an_afforded_object_are_not_shipped(generator, catalog) -> None:
    """The scripted model names the affordance but drops one fitting object: the repair asks for it; a model
    that keeps dropping it gets the pair rejected, never an item with a short list."""
    responder = KitchenResponder(catalog)

    def respond(body: dict) -> str:  # type: ignore[type-arg]
        reply = json.loads(responder(body))
        if step_of(body, user_text(body)) == "intent" and len(reply["variants"]) > 1:
            reply["variants"] = reply["variants"][1:]
        return json.dumps(reply)

    gen = generator(respond)
    rejected = []
    for index in range(24):
        outcome = generate_one(gen, PairSpec(index, "safety"))
        if outcome.item is not None:
            world = outcome.item.world
            assert world is not None and len(outcome.item.variants) == len(world.fitting)
        elif "step intent" in str(outcome.reason):
            rejected.append(str(outcome.reason))
    # dropped from the affordance set, or (no affordance named) the very object the clear task uses
    assert any("variants: must be every" in r and "leaves out" in r for r in rejected)
    assert all("leaves out" in r or "which the unambiguous task uses" in r for r in rejected)


def test_environment_types_through_the_model_resolve_on_both_kitchens(generator, catalog, tmp_path: Path) -> None:
    """Multiplicity, absence, reference and observation: the world draws both kitchens, the model writes the
    words (half its first answers pick nothing and are repaired); every item keeps the world it was drawn
    with, resolves on both graphs and passes its type's world rule."""
    from ambiforge.generation.llm.environment import is_environment
    from ambiforge.storage import read_items, write_items_jsonl
    from ambiforge.validation.context import RuleContext
    from ambiforge.validation.rules import check_item
    from ambiforge.validation.rules.world_environment import check_environment
    from ambiforge.world import resolve
    from ambiforge.world.perturb import parse_referent

    responder, users = KitchenResponder(catalog, flawed_share=0.5), []

    def respond(body: dict) -> str:  # type: ignore[type-arg]
        users.extend(m["content"] for m in body["messages"] if m["role"] == "user")
        return responder(body)

    gen = generator(respond)
    kinds = [n for n in ambiguity.names() if is_environment(n)]
    assert sorted(kinds) == ["absence", "multiplicity", "observation", "reference"]
    items = [gen.generate(index, kind)[0] for kind in kinds for index in range(2)]
    ctx = RuleContext(catalog=catalog)
    # a flawed answer went back to the model with what the world rules found, and was repaired
    assert any("the reply does not fit this kitchen" in text for text in users)
    for item in items:
        world = item.world
        assert world is not None and world.perturbation is not None and world.target is not None
        p = world.perturbation
        assert p.kind == item.ambiguity_type and item.provenance.generator == "llm"
        assert [r.id for r in item.provenance.prompts] == [f"ambiguous_{item.ambiguity_type}"]
        assert item.ambiguous_task == item.unambiguous_direct and p.referent in item.unambiguous_direct
        # the prompt showed both kitchens; the referent picks the target alone in the clear one
        assert any(prompt_view(world.graph) in u and prompt_view(p.graph) in u for u in users)
        assert [n.id for n in resolve(world.graph, parse_referent(p.referent))] == [world.target]
        assert check_environment(item, ctx) == [] and schema_errors(item.to_record()) == []
        assert [f.rule for f in check_item(item, ctx) if f.severity == "error"] == []
    written = read_items(write_items_jsonl(tmp_path / "items.jsonl", items))
    assert [i.to_record() for i in written] == [i.to_record() for i in items]


def test_the_build_scores_candidates_under_its_own_validation_settings(tmp_path: Path) -> None:
    """A run's ``[validation]`` (rule severities, thresholds) is what chooses among candidates, as it is what
    validates the items afterwards: the generator was once given the defaults."""
    from ambiforge.config.build import BuildOptions
    from ambiforge.config.validation import ValidationConfig
    from ambiforge.generation.run import make_generator

    chosen, settings, _ = resolve_provider("openai", LLMConfig())
    validation = ValidationConfig(max_plan_steps=12)
    options = BuildOptions(
        run_id="v", provider=chosen, pairs=1, seed=1, out=str(tmp_path), llm=settings, validation=validation
    )
    generator = make_generator(options)
    assert isinstance(generator, LLMGenerator)
    assert generator.ctx.config == validation
