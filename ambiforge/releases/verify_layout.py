"""``verify``, first steps: the folder, the manifest's own checksum, the manifest, and which files exist.

Every file of a release is listed in the manifest with its sha256 and size, except ``manifest.json`` and
``manifest.sha256`` themselves (scheme: :mod:`ambiforge.releases.seal`). A file or directory listed nowhere,
a listed file that is missing, and a file the release always has but the manifest does not list are each
one line naming the path.

A manifest is data from outside, and may be forged (resealed, its card block rewritten): before any listed
path is opened, each must be a plain relative path inside the folder (no absolute path, no ``..`` or ``.``
part, no backslash, listed once) and split names must be plain names, and nothing in the folder may be a
symbolic link, so verify never reads a file outside the release.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

from ambiforge import inputs
from ambiforge.errors import InputError
from ambiforge.releases import files
from ambiforge.releases.checksums import sha256_of
from ambiforge.releases.manifest import manifest_errors
from ambiforge.releases.seal import CARD, MANIFEST, MANIFEST_SHA256, read_sha256sum
from ambiforge.releases.splits import ENVIRONMENT
from ambiforge.releases.verify_error import VerifyError

#: files every release has (the splits' files are added per split named in the manifest); a release written
#: before the JSON lines were compressed has data.jsonl and the AmbiK CSV files instead (:mod:`~.files`)
ALWAYS = (files.JSONL, "data.parquet", CARD, "CHANGELOG.md")
ALWAYS_LEGACY = (files.LEGACY_JSONL, "data.parquet", files.LEGACY_CSV, CARD, "CHANGELOG.md")


def require_folder(folder: Path) -> None:
    """A missing folder is the user's input (exit 2), not a failed verification."""
    if not folder.exists():
        raise InputError(str(folder), "", "no such release folder")
    if not folder.is_dir():
        raise InputError(str(folder), "", "not a folder (give a release folder such as curated/1.0.0)")


def seal_problem(folder: Path, expected: str | None = None) -> str | None:
    """Why ``manifest.json`` is not the one sealed in ``manifest.sha256`` (or not ``expected``); None if it is.
    A missing manifest raises at once: there is nothing to diagnose."""
    manifest_path, sums_path = folder / MANIFEST, folder / MANIFEST_SHA256
    if not manifest_path.is_file():
        raise VerifyError(f"{manifest_path}: missing; not a release folder")
    digest = sha256_of(manifest_path)
    if expected is not None and digest != expected.strip().lower():
        return f"{manifest_path}: sha256 {digest[:16]}... is not the {expected.strip()[:16]}... you gave"
    if not sums_path.is_file():
        return f"{sums_path}: missing; the manifest's own checksum is not recorded"
    recorded = read_sha256sum(sums_path.read_text(encoding="utf-8", errors="replace")).get(MANIFEST)
    if recorded is None:
        return f"{sums_path}: no sha256sum line for {MANIFEST}"
    if recorded != digest:
        return (
            f"{manifest_path}: sha256 {digest[:16]}... does not match {MANIFEST_SHA256} ({recorded[:16]}...): "
            "the manifest was changed after the release"
        )
    return None


def load_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        manifest = json.loads(inputs.read_text(path, inputs.MANIFEST, "manifest"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise VerifyError(f"{path}: not valid JSON ({exc})") from None
    except RecursionError:
        raise VerifyError(f"{path}: not valid JSON for a manifest (nested too deeply)") from None
    except OSError as exc:
        raise VerifyError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not isinstance(manifest, dict):
        raise VerifyError(f"{path}: not a JSON object")
    problems = manifest_errors(manifest)
    if problems:
        raise VerifyError(f"{path}: does not match schemas/manifest.schema.json: {problems[0]}")
    return manifest


def release_layout(manifest: dict[str, Any]) -> files.Layout:
    """The layout the manifest's files describe (the current one, or the one before compression)."""
    return files.layout([e.get("path") for e in manifest["files"] if isinstance(e, dict)])


def expected_files(manifest: dict[str, Any]) -> list[str]:
    layout = release_layout(manifest)
    splits = manifest["counts"]["per_split"]
    names = manifest["counts"].get("configurations") or {}
    configurations = [f"{name}/{file}" for name in names for file in (layout.jsonl, "data.parquet")]
    always = ALWAYS if layout == files.CURRENT else ALWAYS_LEGACY
    return [*always, *(f for name in splits for f in layout.split_files(name)), *configurations]


#: A split's name becomes a file name (``splits/<name>.parquet``).
SPLIT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def path_problem(rel: str) -> str | None:
    """Why a manifest path may not be opened inside the release folder; None if it may."""
    if not rel or rel != rel.strip():
        return "an empty path or one with surrounding white space"
    if "\\" in rel or "\0" in rel:
        return "a path with a backslash or a NUL character"
    pure = PurePosixPath(rel)
    if pure.is_absolute() or re.match(r"^[A-Za-z]:", rel):
        return "an absolute path"
    if any(part in ("..", ".") for part in rel.split("/")) or "" in rel.split("/"):
        return "a path with a '..', '.' or empty part"
    return None


def check_paths(folder: Path, manifest: dict[str, Any]) -> None:
    """Refuse, before opening anything the manifest names, a path that could lead out of the folder."""
    seen: set[str] = set()
    for entry in manifest["files"]:
        rel = entry["path"]
        problem = path_problem(rel)
        if problem:
            raise VerifyError(
                f"{folder / MANIFEST}: files: {rel!r} is {problem}: refused, nothing outside the release is read"
            )
        if rel in seen:
            raise VerifyError(f"{folder / MANIFEST}: files: {rel!r} is listed twice")
        seen.add(rel)
        target = folder / rel
        for step in [target, *target.parents]:
            if step == folder:
                break
            if step.is_symlink():
                raise VerifyError(f"{step}: a symbolic link; a release holds only regular files")
        if not target.resolve().is_relative_to(folder.resolve()):
            raise VerifyError(f"{folder / MANIFEST}: files: {rel!r} resolves outside the release folder")
    for name in manifest["counts"]["per_split"]:
        if not SPLIT_NAME.match(name):
            raise VerifyError(f"{folder / MANIFEST}: counts.per_split: {name!r} is not a split name")
    for name in manifest["counts"].get("configurations") or {}:
        if name != ENVIRONMENT:
            raise VerifyError(
                f"{folder / MANIFEST}: counts.configurations: {name!r} is not a configuration ambiforge writes"
            )


def check_files(folder: Path, manifest: dict[str, Any]) -> int:
    """Every file listed, present, of its size and sha256, and nothing else; returns how many were checked."""
    check_paths(folder, manifest)
    listed = {e["path"]: e for e in manifest["files"]}
    for rel in expected_files(manifest):
        if rel not in listed:
            state = "not listed in the manifest" if (folder / rel).exists() else "missing, and not listed in it"
            raise VerifyError(f"{folder / rel}: every release has this file, but it is {state}")
    folders = {str(p) for rel in listed for p in PurePosixPath(rel).parents if str(p) != "."}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            raise VerifyError(f"{path}: a symbolic link; a release holds only regular files")
        if path.is_dir():
            if rel not in folders:
                raise VerifyError(f"{path}/: a directory the manifest does not list")
        elif rel not in listed and rel not in (MANIFEST, MANIFEST_SHA256):
            raise VerifyError(f"{path}: not listed in the manifest")
    for rel, entry in listed.items():
        path = folder / rel
        if not path.is_file():
            raise VerifyError(f"{path}: listed in the manifest but missing")
        size = path.stat().st_size
        if size != entry["bytes"]:
            raise VerifyError(f"{path}: size {size} bytes, manifest says {entry['bytes']}")
        digest = sha256_of(path)
        if digest != entry["sha256"]:
            raise VerifyError(
                f"{path}: sha256 {digest[:16]}... does not match the manifest's {entry['sha256'][:16]}..."
            )
    return len(listed)
