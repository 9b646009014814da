"""``ambiforge verify``: a release is checked against nothing but itself and its sealed hash, in order:

1. the folder exists (else exit 2);
2. ``manifest.json`` has the sha256 in ``manifest.sha256`` (and the one given with ``--manifest-sha256``);
3. the manifest matches its schema; every file is listed, present, of its size and sha256, and no file or
   directory is unlisted (:mod:`ambiforge.releases.verify_layout`);
4. every row passes the item schema, and data.jsonl.gz, data.parquet and each split's Parquet file (and the
   AmbiK CSV files of a release written before they became an export) agree row by row and field by field
   (:mod:`ambiforge.releases.verify_rows`);
5. counts, review status, splits, provenance and statistics recomputed from the rows match the manifest
   (:mod:`ambiforge.releases.rederive`);
6. the facts the card recorded at release time, and its hash of the manifest without the card, match the
   manifest (:mod:`ambiforge.releases.seal`).

The first disagreement is one line naming the file and row or the manifest field (exit 1). When step 2
fails, the later steps still run to name what was edited, and their first finding is added to the line.
Everything is read a record batch at a time, so memory does not grow with the rows' content.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ambiforge.releases.rederive import Tally
from ambiforge.releases.seal import CARD, WITNESSED, field_value, manifest_sha256_without_card, read_witness
from ambiforge.releases.splits import ENVIRONMENT
from ambiforge.releases.verify_error import VerifyError
from ambiforge.releases.verify_layout import check_files, load_manifest, release_layout, require_folder, seal_problem
from ambiforge.releases.verify_rows import short, walk, walk_environment

__all__ = ["VerifyError", "verify_release"]


def verify_release(folder: Path, manifest_sha256: str | None = None) -> dict[str, int]:
    """Raise VerifyError naming the first disagreement; return counts of what was checked.

    ``manifest_sha256``: the manifest hash obtained from outside the folder (the one trust anchor that
    protects against rewriting every file)."""
    require_folder(folder)
    sealed = seal_problem(folder, manifest_sha256)
    if sealed:
        try:
            _check(folder)
        except VerifyError as exc:
            raise VerifyError(f"{sealed}; first difference found: {exc}") from None
        raise VerifyError(f"{sealed} (every other check passes)")
    return _check(folder)


def _check(folder: Path) -> dict[str, int]:
    manifest = load_manifest(folder)
    files = check_files(folder, manifest)
    layout = release_layout(manifest)
    tally = Tally(jsonl=layout.jsonl)
    header = walk(folder, list(manifest["counts"]["per_split"]), tally.add, layout)
    if ENVIRONMENT in (manifest["counts"].get("configurations") or {}):
        default_ids = {p.id for p in tally.pairs}

        def visit(row: int, record: dict[str, Any], view: Any) -> None:
            if record["id"] in default_ids:
                raise VerifyError(
                    f"{folder / ENVIRONMENT / layout.jsonl}:{row}: id {record['id']} is in {layout.jsonl} too "
                    "(an item is in one configuration)"
                )
            tally.add_environment(row, record, view)

        walk_environment(folder, visit, layout)
    expected_header = tally.csv_header() if header is not None else None
    if header != expected_header:
        raise VerifyError(f"{folder / 'ambik.csv'}: header {header} differs from the rows' columns {expected_header}")
    problem = tally.problem(manifest)
    if problem:
        raise VerifyError(f"{folder / 'manifest.json'}: {problem}")
    card_problem = _card_problem(folder / CARD, manifest)
    if card_problem:
        raise VerifyError(card_problem)
    return {"files": files, "rows": tally.rows}


def _card_problem(card: Path, manifest: dict[str, Any]) -> str | None:
    recorded = read_witness(card.read_text(encoding="utf-8", errors="replace"))
    if recorded is None:
        return f"{card}: no integrity block (the facts and manifest hash recorded at release)"
    for key in WITNESSED:
        if recorded.get(key) != field_value(manifest, key):
            return (
                f"{card.parent / 'manifest.json'}: {key}: manifest says {short(field_value(manifest, key))}, "
                f"the card recorded {short(recorded.get(key))} at release"
            )
    digest = manifest_sha256_without_card(manifest)
    if recorded.get("manifest_sha256_without_card") != digest:
        return (
            f"{card.parent / 'manifest.json'}: without the card's entry it hashes to {digest[:16]}..., the card "
            f"recorded {str(recorded.get('manifest_sha256_without_card'))[:16]}...: a field was edited after release"
        )
    return None
