"""Sealing a release: every file's checksum in the manifest, the manifest's own checksum outside it.

The scheme, and why it has two hashes:

- ``manifest.json`` lists the sha256 and size of every file of the release, the card (README.md) included.
- ``manifest.sha256`` holds the sha256 of ``manifest.json`` in ``sha256sum`` format, so
  ``sha256sum -c manifest.sha256`` checks it without ambiforge. It is the one value to publish elsewhere
  (a paper, a Hub commit message); ``ambiforge verify --manifest-sha256 HEX`` checks a folder against it.
- The card cannot print the hash of a manifest that holds the card's own checksum (each would have to
  contain the other). So the card prints the **manifest hash without the card**: the sha256 of the manifest
  with README.md's entry left out of ``files``, serialised canonically (keys sorted, no spaces, UTF-8; see
  :func:`manifest_sha256_without_card`). It still covers every fact and every other file's checksum.
  Beside it, in the same block, the card records the facts a verifier cannot recompute from the rows
  (:data:`WITNESSED`: version, creation time, git commit, source runs...), so an edited manifest is named
  field by field even when its hashes were rewritten too.

Only a copy of the manifest hash kept outside the folder protects against someone who rewrites every file;
everything inside the folder is then checked against it, directly or through a chain of hashes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ambiforge.atomic import write_json_atomic, write_text_atomic
from ambiforge.errors import AmbiforgeError
from ambiforge.releases.checksums import file_entries, sha256_of
from ambiforge.releases.manifest import manifest_errors

MANIFEST = "manifest.json"
MANIFEST_SHA256 = "manifest.sha256"
CARD = "README.md"
#: manifest fields the card records because they cannot be recomputed from the released rows
WITNESSED = (
    "version",
    "created_at",
    "git_commit",
    "git_dirty",
    "ambiforge_version",
    "run_ids",
    "allow_unreviewed",
    "review.status",  # counts items not released too (rejected, queued)
    "counts.merged_duplicates",
)
WITNESS_MARKER = "<!-- ambiforge:integrity -->"
_WITNESS_BLOCK = re.compile(re.escape(WITNESS_MARKER) + r"\s*```json\n(.*?)\n```", re.DOTALL)
_SHA256SUM_LINE = re.compile(r"^([0-9a-f]{64}) [ *](.+)$")


class SealError(AmbiforgeError):
    """The manifest came out unlike its schema: a bug, not the user's input."""

    exit_code = 1


def canonical_json(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def manifest_sha256_without_card(manifest: dict[str, Any]) -> str:
    """sha256 of the manifest's canonical JSON with the card's entry left out of ``files``."""
    content = {**manifest, "files": [e for e in manifest.get("files", []) if e.get("path") != CARD]}
    return hashlib.sha256(canonical_json(content)).hexdigest()


def field_value(manifest: dict[str, Any], dotted: str) -> Any:
    """The value at a dotted path such as ``review.status``; None where a step is missing."""
    value: Any = manifest
    for step in dotted.split("."):
        value = value.get(step) if isinstance(value, dict) else None
    return value


def witness(manifest: dict[str, Any]) -> dict[str, Any]:
    return {
        "manifest_sha256_without_card": manifest_sha256_without_card(manifest),
        **{key: field_value(manifest, key) for key in WITNESSED},
    }


def integrity_section(manifest: dict[str, Any]) -> str:
    """The card's closing section: how to check the release, the manifest hash and the witnessed facts."""
    block = json.dumps(witness(manifest), indent=2, ensure_ascii=False)
    return (
        "\n## Integrity\n\n"
        f"`{MANIFEST}` lists the sha256 of every file of this release; `{MANIFEST_SHA256}` holds the sha256 of "
        f"`{MANIFEST}` itself (`sha256sum -c {MANIFEST_SHA256}`). `ambiforge verify <folder>` checks both, then "
        "recomputes the counts, review status and splits from the rows and compares data.jsonl.gz and the "
        "Parquet files row by row.\n\n"
        "This card is one of the files the manifest lists, so it cannot hold the manifest's own hash. It holds "
        "the hash of the manifest without this card's entry (canonical JSON: keys sorted, no spaces, UTF-8) and "
        "the facts of the release that cannot be recomputed from its rows:\n\n"
        f"{WITNESS_MARKER}\n```json\n{block}\n```\n"
    )


def read_witness(card_text: str) -> dict[str, Any] | None:
    """The card's witnessed facts, or None when the card has no (readable) integrity block."""
    found = _WITNESS_BLOCK.search(card_text)
    if not found:
        return None
    try:
        data = json.loads(found.group(1))
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def sha256sum_line(digest: str, name: str) -> str:
    return f"{digest}  {name}\n"


def read_sha256sum(text: str) -> dict[str, str]:
    """``sha256sum`` output as {file name: digest}; lines that are not in that format are left out."""
    found = {}
    for line in text.splitlines():
        match = _SHA256SUM_LINE.match(line.strip())
        if match:
            found[match.group(2)] = match.group(1)
    return found


def seal(folder: Path, manifest: dict[str, Any], card: Callable[[dict[str, Any]], str]) -> None:
    """Checksum every file in ``folder``, write the card (``card(manifest)`` plus the integrity section), the
    manifest and ``manifest.sha256``. The manifest is checked against its schema before it is written."""
    manifest["files"] = file_entries(folder, exclude={MANIFEST, MANIFEST_SHA256, CARD})
    card_path = write_text_atomic(folder / CARD, card(manifest) + integrity_section(manifest))
    entry = {"path": CARD, "sha256": sha256_of(card_path), "bytes": card_path.stat().st_size}
    manifest["files"] = sorted([*manifest["files"], entry], key=lambda e: e["path"])
    problems = manifest_errors(manifest)
    if problems:
        raise SealError(f"release {manifest.get('version')}: manifest does not match its schema: {problems[0]}")
    manifest_path = write_json_atomic(folder / MANIFEST, manifest)
    write_text_atomic(folder / MANIFEST_SHA256, sha256sum_line(sha256_of(manifest_path), MANIFEST))
