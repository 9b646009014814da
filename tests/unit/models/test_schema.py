from __future__ import annotations

import json

import pytest

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


def test_an_item_is_checked_as_its_whole_record(catalog) -> None:
    """item_errors names a fault (in the item or in a graph edge) at the path checking its record names it."""
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.models.scene_graph import Edge, SceneGraph
    from ambiforge.models.schema import item_errors

    generator = OfflineGenerator(catalog, 1, "t")
    first, second = (generator.generate(i, "preferences")[0] for i in (0, 1))
    assert item_errors(first) == [] and item_errors(second) == []
    broken = second.model_copy(update={"end_of_ambiguity": -1})
    assert item_errors(broken) == schema_errors(broken.to_record()) != []
    graph = second.world.graph
    beside = object.__new__(Edge)  # an edge no validator would make: its relation is not in the vocabulary
    for name, value in (("source", graph.nodes[-1].id), ("relation", "beside"), ("target", graph.nodes[0].id)):
        object.__setattr__(beside, name, value)
    odd = SceneGraph.model_construct(seed=graph.seed, nodes=graph.nodes, edges=(*graph.edges, beside))
    broken = second.model_copy(update={"world": second.world.model_copy(update={"graph": odd})})
    errors = item_errors(broken)
    assert errors == schema_errors(broken.to_record())
    assert len(errors) == 1 and errors[0].startswith("world") and '"beside"' in errors[0]


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
def test_scene_objects_checked_once_per_value_and_a_changed_one_checked_again(catalog) -> None:
    """A scene object whose fields are the very values of one that passed is not checked again; one whose
    field was changed (even to a value equal to the old one under ``==``, such as 1 for True) is, and the
    item's messages are those of its whole record; an item's list of objects may never end up empty."""
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.models.schema import item_errors

    generator = OfflineGenerator(catalog, 3, "t")
    first, second = (generator.generate(i, "preferences")[0] for i in (0, 1))
    assert item_errors(first) == [] and item_errors(first) == [] and item_errors(second) == []
    objects = list(first.environment)
    flag = next(i for i, o in enumerate(objects) if o.microwave_safe is True)
    objects[flag] = objects[flag].model_copy()
    objects[flag].__dict__["microwave_safe"] = 1  # equal to True, not a boolean
    broken = first.model_copy(update={"environment": objects})
    errors = item_errors(broken)
    assert errors == schema_errors(broken.to_record())
    assert [e.split(":")[0] for e in errors] == [f"environment/{flag}/microwave_safe"]
    objects = list(first.environment)
    objects[0] = objects[0].model_copy()
    objects[0].__dict__["kind"] = "furniture"
    broken = first.model_copy(update={"environment": objects})
    assert [e.split(":")[0] for e in item_errors(broken)] == ["environment/0/kind"]
    empty = first.model_copy(update={"environment": []})
    assert item_errors(empty) == schema_errors(empty.to_record()) != []
    assert item_errors(first) == []


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
def test_an_item_built_without_validation_is_checked_as_its_record(catalog) -> None:
    """An item made with ``model_construct`` may hold a plain dict where a scene object belongs: the gate
    checks it as the item's record has it, as it did before scene objects were checked once per build."""
    from ambiforge.generation.offline import OfflineGenerator
    from ambiforge.models.item import Item
    from ambiforge.models.schema import item_errors

    item = OfflineGenerator(catalog, 5, "t").generate(0, "safety")[0]
    good = {**item.environment[0].model_dump(), "name": "odd jar"}
    raw = Item.model_construct(**{**dict(item), "environment": [good, *item.environment[1:]]})
    assert item_errors(raw) == schema_errors(raw.to_record()) == []
    bad = Item.model_construct(**{**dict(item), "environment": [{**good, "kind": "furniture"}]})
    errors = item_errors(bad)
    assert errors == schema_errors(bad.to_record()) and [e.split(":")[0] for e in errors] == ["environment/0/kind"]


def test_the_gate_reads_the_published_schema_only_when_it_lists_the_registered_types(tmp_path, monkeypatch) -> None:
    from ambiforge import ambiguity
    from ambiforge.models import schema

    names = ambiguity.names()
    assert schema._schema_for(names) == schema.item_json_schema()
    stale = json.loads(schema.repo_schema_path().read_text(encoding="utf-8"))
    stale["properties"]["ambiguity_type"]["enum"] = list(names[:-1])
    stale["description"] = "a file written before a type was registered"
    (tmp_path / "item.schema.json").write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(schema, "repo_schema_path", lambda: tmp_path / "item.schema.json")
    assert schema._schema_for(names) == schema.item_json_schema() != stale


def test_threads_asking_for_the_validator_at_once_compile_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An LLM build's pair threads reach their first schema check together: one compiles, the rest wait."""
    import threading
    import time

    from ambiforge.models import schema

    compiled = []
    real = schema.jsonschema_rs.validator_for

    def slow_compile(document: object) -> object:
        compiled.append(threading.current_thread().name)
        time.sleep(0.05)  # long enough for every thread to arrive while the first compiles
        return real(document)

    monkeypatch.setattr(schema.jsonschema_rs, "validator_for", slow_compile)
    schema._validator.cache_clear()
    try:
        start = threading.Barrier(8)
        found: list[object] = []

        def ask() -> None:
            start.wait()
            found.append(schema.item_validator())

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(compiled) == 1 and len(found) == 8 and all(v is found[0] for v in found)
    finally:
        schema._validator.cache_clear()  # the next test compiles the real one again
