"""The LLM generator against the scripted test server: one draft -> item path, the type's own steering
text in the prompt, and a folder type's variant prompt found in its folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from ambiforge import ambiguity
from ambiforge.config.llm import LLMConfig
from ambiforge.engine.preflight import resolve_provider
from ambiforge.errors import LLMError
from ambiforge.generation.llm import LLMGenerator
from ambiforge.llm.limiter import LocalLimiter
from ambiforge.models import Item
from ambiforge.models.schema import schema_errors
from ambiforge.testing.kitchen_responder import KitchenResponder
from ambiforge.testing.llm_server import ScriptedLLMServer

KEY = "sk-test-llm-generator-0123456789"
FIXTURE_TYPES = Path(__file__).resolve().parents[2] / "fixtures" / "types"


def first_item(gen: LLMGenerator, name: str) -> Item:
    """The scripted responder answers from offline templates and may find none in a scene (it then replies
    with an invalid task, as a model might): the first of a few pairs that it can answer."""
    errors = []
    for index in range(6):
        try:
            return gen.generate(index, name)[0]
        except LLMError as exc:
            errors.append(str(exc))
    raise AssertionError(errors)


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
            # Environment-induced types (same instruction, perturbed kitchen) are made offline only so far.
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
