"""Run ids and the layout of ``raw/<run-id>/``: every file name of a run is declared here."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from pathlib import Path

from ambiforge.errors import ConfigError

_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")

STATE_FILE = "state.json"
OPTIONS_FILE = "options.json"
GENERATED_FILE = "generated.jsonl"
CANDIDATES_FILE = "candidates.jsonl"
CHECKPOINTS_DIR = "checkpoints"
ITEMS_JSONL = "items.jsonl"
ITEMS_PARQUET = "items.parquet"
REJECTED_FILE = "rejected.jsonl"
SUMMARY_FILE = "summary.json"
VALIDATION_DIR = "validation"
JUDGEMENTS_FILE = "judgements.jsonl"  # the judge stage's transcripts, one record per judged pair


def new_run_id(provider: str, seed: int, now: datetime | None = None) -> str:
    """``20261122T031500Z-offline-s1-3f9a0c21``: sortable by time; the random tail keeps two runs in the same
    second (a scheduled run and a manual one) apart. Eight hex digits, not four: with four, two ids made in
    one second matched once in 65,536 pairs (one in fifty among 50 ids), and a fresh run would have taken
    up another run's folder."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{provider}-s{seed}-{secrets.token_hex(4)}"


def check_run_id(run_id: str) -> str:
    if not _RUN_ID.match(run_id):
        raise ConfigError(
            f"run id {run_id!r} is not usable as a folder name (letters, digits, '.', '_', '-'; up to 100)"
        )
    return run_id


def run_dir(out: str | Path, run_id: str) -> Path:
    return Path(out) / check_run_id(run_id)


def batch_path(directory: Path, first: int, last: int) -> Path:
    """The checkpoint of generation batch ``first``-``last``."""
    return directory / CHECKPOINTS_DIR / f"generate-{first:07d}-{last:07d}.jsonl"
