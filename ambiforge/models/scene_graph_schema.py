"""The JSON Schema of the scene graph, generated from :class:`ambiforge.models.scene_graph.SceneGraph`.

``schemas/scene_graph.schema.json`` is the published contract of the graph an item carries (as
``schemas/item.schema.json`` is the item's); a test fails when the file and the model drift apart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ambiforge.models.scene_graph import SceneGraph

SCHEMA_ID = "https://ambiforge.dev/schemas/scene_graph.schema.json"
FILE_NAME = "scene_graph.schema.json"


def scene_graph_json_schema() -> dict[str, Any]:
    schema = SceneGraph.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def render_scene_graph_schema() -> str:
    return json.dumps(scene_graph_json_schema(), indent=2, ensure_ascii=False) + "\n"


def repo_scene_graph_schema_path() -> Path:
    from ambiforge.resources import schema_path

    return schema_path(FILE_NAME)
