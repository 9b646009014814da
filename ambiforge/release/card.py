"""The dataset card (README.md): Hugging Face YAML front matter plus the sections researchers look for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

from ambiforge.models import Item
from ambiforge.reports import render
from ambiforge.stats import dataset_stats
from ambiforge.storage import ITEM_ARROW_SCHEMA

TITLE = "ambiforge kitchen ambiguity dataset"


def size_category(n: int) -> str:
    for bound, label in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if n < bound:
            return label
    return "n>1M"


def front_matter(manifest: dict[str, Any], license_id: str) -> dict[str, Any]:
    reviewed = not manifest["allow_unreviewed"]
    return {
        "license": license_id,
        "language": ["en"],
        "pretty_name": TITLE,
        "task_categories": ["text-generation", "text-classification", "question-answering"],
        "tags": ["embodied-ai", "robotics", "ambiguity", "clarifying-questions", "ambik"],
        "size_categories": [size_category(manifest["counts"]["total"])],
        "annotations_creators": ["expert-generated" if reviewed else "machine-generated"],
        "language_creators": ["machine-generated"],
        "source_datasets": ["original"],
        "configs": [
            {
                "config_name": "default",
                "data_files": [
                    {"split": "calibration", "path": "splits/calibration.parquet"},
                    {"split": "test", "path": "splits/test.parquet"},
                ],
            },
            {"config_name": "all", "data_files": [{"split": "train", "path": "data.parquet"}]},
        ],
    }


def render_card(manifest: dict[str, Any], items: Sequence[Item], license_id: str) -> str:
    """``items`` are used for nothing but the manifest's statistics when it has them."""
    fields = [(f.name, (f.metadata or {}).get(b"description", b"").decode()) for f in ITEM_ARROW_SCHEMA]
    return render(
        "card.md.j2",
        front_matter=yaml.safe_dump(front_matter(manifest, license_id), sort_keys=False),
        title=TITLE,
        m=manifest,
        s=manifest.get("statistics") or dataset_stats(items),
        fields=fields,
    )
