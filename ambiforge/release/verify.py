"""``ambiforge verify``: a release is what its manifest says, byte for byte and row for row."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from ambiforge.errors import AmbiforgeError
from ambiforge.models.schema import schema_errors
from ambiforge.release.checksums import sha256_of
from ambiforge.release.manifest import manifest_errors


class VerifyError(AmbiforgeError):
    exit_code = 1


def verify_release(folder: Path) -> dict[str, int]:
    """Raise VerifyError naming the first mismatch; return counts of what was checked."""
    manifest_path = folder / "manifest.json"
    if not manifest_path.exists():
        raise VerifyError(f"{manifest_path}: missing; not a release folder")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise VerifyError(f"{manifest_path}: not valid JSON ({exc.msg})") from None
    problems = manifest_errors(manifest)
    if problems:
        raise VerifyError(f"{manifest_path}: does not match schemas/manifest.schema.json: {problems[0]}")
    listed = {e["path"]: e for e in manifest["files"]}
    for rel, entry in listed.items():
        path = folder / rel
        if not path.exists():
            raise VerifyError(f"{path}: listed in the manifest but missing")
        if path.stat().st_size != entry["bytes"]:
            raise VerifyError(f"{path}: size {path.stat().st_size} bytes, manifest says {entry['bytes']}")
        digest = sha256_of(path)
        if digest != entry["sha256"]:
            raise VerifyError(
                f"{path}: sha256 {digest[:16]}... does not match the manifest's {entry['sha256'][:16]}..."
            )
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel != "manifest.json" and rel not in listed:
            raise VerifyError(f"{path}: not listed in the manifest")
    ids = []
    with (folder / "data.jsonl").open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            record = json.loads(line)
            errors = schema_errors(record)
            if errors:
                raise VerifyError(f"{folder / 'data.jsonl'}:{lineno}: {errors[0]}")
            ids.append(record["id"])
    if len(ids) != manifest["counts"]["total"]:
        raise VerifyError(f"{folder / 'data.jsonl'}: {len(ids)} rows, manifest says {manifest['counts']['total']}")
    parquet_ids = pq.read_table(folder / "data.parquet", columns=["id"]).column("id").to_pylist()
    if parquet_ids != ids:
        raise VerifyError(f"{folder / 'data.parquet'}: rows differ from data.jsonl")
    split_ids: list[str] = []
    for name, counts in manifest["counts"]["per_split"].items():
        rows = pq.read_table(folder / "splits" / f"{name}.parquet", columns=["id"]).column("id").to_pylist()
        if len(rows) != counts["total"]:
            raise VerifyError(
                f"{folder / 'splits' / (name + '.parquet')}: {len(rows)} rows, manifest says {counts['total']}"
            )
        split_ids += rows
    if sorted(split_ids) != sorted(ids):
        raise VerifyError(f"{folder / 'splits'}: the splits do not partition data.jsonl (overlap or missing rows)")
    return {"files": len(listed), "rows": len(ids)}
