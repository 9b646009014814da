"""AmbiK rows in the layouts the AmbiK authors published, cut from a longer CSV: what ``ambiforge eval --data``
meets when given the published splits, for tests and benchmarks that run on a few rows."""

from __future__ import annotations

import csv
from pathlib import Path


def published_rows(source: Path, target: Path, rows: int, layout: str) -> Path:
    """The first ``rows`` rows of an AmbiK CSV in a published layout: ``test`` is ambik_test_900.csv's (the id as
    pandas' unnamed index column, no take_amb); ``calib`` keeps the file's own columns."""
    with source.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header, body = list(reader.fieldnames or []), [r for _, r in zip(range(rows), reader, strict=False)]
    with target.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        if layout == "test":
            columns = [c for c in header if c not in ("id", "take_amb", "")]
            out.writerow(["", *columns])
            out.writerows([r["id"], *(r[c] for c in columns)] for r in body)
        else:
            out.writerow(header)
            out.writerows([r[c] for c in header] for r in body)
    return target
