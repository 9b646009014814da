"""A fourth ambiguity type registered from a folder (tests/fixtures/types/quantity) works end to end offline:
generated, schema-valid, validated, and its prompts found; nothing outside the folder names it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ambiforge import ambiguity
from ambiforge.errors import ConfigError
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.generation.offline.phrases import mentions
from ambiforge.llm.prompts import load_prompt
from ambiforge.models import Item
from ambiforge.models.schema import item_json_schema, schema_errors
from ambiforge.validation import validate_items
from ambiforge.validation.context import RuleContext

MIX = {"preferences": 0.3, "common_sense_knowledge": 0.3, "safety": 0.1, "quantity": 0.3}


def test_a_folder_type_is_generated_schema_valid_and_passes_validation(catalog, quantity_type) -> None:
    assert ambiguity.names()[-1] == "quantity" and ambiguity.get("quantity").good_agent == "ask"
    gen = OfflineGenerator(catalog, 11, "fourth")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(60, MIX, seed=11))]
    quantity = [i for i in items if i.ambiguity_type == "quantity"]
    assert len(quantity) == 18
    assert {i.provenance.template.split("#")[0] for i in quantity} >= {"quantity/pour_little", "quantity/two_pieces"}
    for item in items:
        assert schema_errors(item.to_record()) == [], item.id
    judged = [i for i in validate_items(items, RuleContext(catalog=catalog)) if i.ambiguity_type == "quantity"]
    assert {i.id: i.validation.failed for i in judged if not i.validation.passed} == {}  # type: ignore[union-attr]
    for item in quantity:
        (intent,) = item.user_intent
        assert not mentions(item.ambiguous_task, intent)
        assert mentions(item.plan_for_clear_task[item.end_of_ambiguity], intent)
        assert item.amb_shortlist == []


def test_the_schema_and_the_item_model_know_exactly_the_registered_types(catalog, quantity_type) -> None:
    record = OfflineGenerator(catalog, 2, "t").generate(0, "quantity")[0].to_record()
    assert "quantity" in item_json_schema()["properties"]["ambiguity_type"]["enum"]
    assert schema_errors(record) == []
    ambiguity.unregister("quantity")
    assert "quantity" not in item_json_schema()["properties"]["ambiguity_type"]["enum"]
    assert any(e.startswith("ambiguity_type:") for e in schema_errors(record))
    with pytest.raises(ValidationError, match="unknown ambiguity type 'quantity'"):
        Item.model_validate(record)


def test_a_folder_types_prompt_is_found_in_its_own_prompts_folder(quantity_type) -> None:
    with pytest.raises(ConfigError, match="ambiguous_quantity.yaml: prompt template not found"):
        load_prompt(quantity_type.variant_prompt_id)
    prompt = load_prompt(quantity_type.variant_prompt_id, "", str(quantity_type.prompts_dir))
    (_, user) = prompt.render({"environment_short": "oat milk", "ambiguity_type": "quantity", "task": "Pour it."})[1]
    assert "Unambiguous task: Pour it." in user
    steering = load_prompt("unambiguous_task").render(
        {
            "environment_short": "oat milk",
            "world": "fridge (closed): oat milk (cold)",
            "ambiguity_type": "quantity",
            "ambiguity_steering": quantity_type.llm_steering,
        }
    )
    assert quantity_type.llm_steering in steering[1][1]


def test_unknown_type_names_are_config_errors(catalog) -> None:
    with pytest.raises(ConfigError, match="unknown ambiguity type 'quantity'"):
        ambiguity.get("quantity")
    with pytest.raises(ConfigError, match="type mix: unknown ambiguity type 'quantity'"):
        type_sequence(10, MIX, seed=1)
    with pytest.raises(ValidationError, match="unknown ambiguity type 'irony'"):
        Item.model_validate(
            {**OfflineGenerator(catalog, 1, "t").generate(0, "safety")[0].to_record(), "ambiguity_type": "irony"}
        )


def test_registering_the_same_folder_twice_is_a_no_op_and_another_folder_of_that_name_an_error(
    quantity_type, tmp_path
) -> None:
    assert ambiguity.register_folder(quantity_type.folder) == quantity_type
    other = tmp_path / "quantity"
    other.mkdir()
    (other / "definition.yaml").write_text((quantity_type.folder / "definition.yaml").read_text())
    with pytest.raises(ConfigError, match=r"definition.yaml: ambiguity type 'quantity' is already defined"):
        ambiguity.register_folder(other)
