"""Release inputs for the bad-input sweep: a run of valid offline items with one field set to a bad value."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def run_with(run_id: str, row: int, field: str, value: Any, n: int = 12) -> Callable[[Path], None]:
    """A setup writing ``raw/<run_id>/items.jsonl`` of ``n`` offline items, row ``row`` (1-based) with
    ``field`` set to ``value``."""

    def make(root: Path) -> None:
        from ambiforge.catalog import load_catalog
        from ambiforge.generation.mix import type_sequence
        from ambiforge.generation.offline import OfflineGenerator

        gen = OfflineGenerator(load_catalog(), 1, run_id)
        mix = {"preferences": 0.5, "common_sense_knowledge": 0.4, "safety": 0.1}
        records = [gen.generate(i, t)[0].to_record() for i, t in enumerate(type_sequence(n, mix, 1))]
        records[row - 1][field] = value
        path = root / "raw" / run_id / "items.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")

    return make
