from __future__ import annotations

import json

from ambiforge.models.schema import render_item_schema, repo_schema_path, schema_errors


def test_schema_file_matches_the_item_model() -> None:
    """Drift check: regenerate with `ambiforge schema --write` when the model changes."""
    assert repo_schema_path().read_text(encoding="utf-8") == render_item_schema()


def test_schema_rejects_what_the_model_forbids(catalog) -> None:
    from ambiforge.generation.offline import OfflineGenerator

    record = OfflineGenerator(catalog, 1, "t").generate(0, "preferences")[0].to_record()
    assert schema_errors(record) == []
    bad = json.loads(json.dumps(record))
    bad["ambiguity_type"] = "irony"
    bad["end_of_ambiguity"] = -1
    del bad["question"]
    errors = schema_errors(bad)
    assert any(e.startswith("ambiguity_type:") for e in errors)
    assert any(e.startswith("end_of_ambiguity:") for e in errors)
    assert any("question" in e for e in errors)
    bad2 = json.loads(json.dumps(record))
    bad2["surprise"] = 1
    assert any("surprise" in e for e in schema_errors(bad2))
