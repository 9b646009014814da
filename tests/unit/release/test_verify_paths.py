"""A forged manifest (resealed, card block rewritten) cannot make ``verify`` read outside the release: any
path that is absolute, has a '..' part, is listed twice or resolves outside the folder (a symbolic link
too) is refused before any listed file is opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ambiforge.releases import verify_layout
from ambiforge.releases.checksums import sha256_of
from tests.unit.release.test_verify import copy, fails, manifest_of, reseal, sealed  # noqa: F401 - fixtures


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every path whose checksum verify computes."""
    seen: list[Path] = []

    def spy(path: Path) -> str:
        seen.append(Path(path).resolve())
        return sha256_of(path)

    monkeypatch.setattr(verify_layout, "sha256_of", spy)
    return seen


def forge(folder: Path, path: str, target: Path) -> None:
    manifest = manifest_of(folder)
    manifest["files"].append({"path": path, "sha256": sha256_of(target), "bytes": target.stat().st_size})
    reseal_keeping(folder, manifest, path)


def reseal_keeping(folder: Path, manifest: dict[str, Any], forged: str) -> None:
    """``reseal`` refreshes every listed checksum by opening the file: do that for the real files only."""
    entry = next(e for e in manifest["files"] if e["path"] == forged)
    manifest["files"].remove(entry)
    reseal(folder, manifest, card=True)
    manifest["files"].append(entry)
    reseal_manifest_only(folder, manifest)


def reseal_manifest_only(folder: Path, manifest: dict[str, Any]) -> None:
    from tests.unit.release.test_verify import write_manifest

    write_manifest(folder, manifest)
    (folder / "manifest.sha256").write_text(f"{sha256_of(folder / 'manifest.json')}  manifest.json\n")


@pytest.mark.parametrize("kind", ["dotdot", "absolute"])
def test_a_path_out_of_the_folder_is_refused_unread(
    copy: Path,  # noqa: F811
    tmp_path: Path,
    opened: list[Path],
    kind: str,
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not part of any release\n")
    path = "../outside.txt" if kind == "dotdot" else str(outside)
    forge(copy, path, outside)
    message = fails(copy, repr(path), "refused")
    assert ("'..'" in message) if kind == "dotdot" else ("absolute" in message)
    assert outside.resolve() not in opened
    assert [p.name for p in opened] == ["manifest.json"]  # its own seal only: refused before any listed file


def test_a_path_listed_twice_is_refused(copy: Path) -> None:  # noqa: F811
    manifest = manifest_of(copy)
    manifest["files"].append(dict(manifest["files"][0]))
    reseal_manifest_only(copy, manifest)
    fails(copy, repr(manifest["files"][0]["path"]), "listed twice")


def test_a_symbolic_link_in_the_release_is_refused(copy: Path, tmp_path: Path, opened: list[Path]) -> None:  # noqa: F811
    outside = tmp_path / "secret.txt"
    outside.write_text("outside\n")
    (copy / "notes.txt").symlink_to(outside)
    forge(copy, "notes.txt", outside)
    fails(copy, "notes.txt", "symbolic link")
    assert outside.resolve() not in opened


def test_a_split_name_that_is_a_path_is_refused(copy: Path) -> None:  # noqa: F811
    manifest = manifest_of(copy)
    splits = manifest["counts"]["per_split"]
    splits["../../escape"] = splits.pop(next(iter(splits)))
    reseal_manifest_only(copy, manifest)
    fails(copy, "counts.per_split", "'../../escape'")


def test_a_manifest_nested_too_deeply_is_a_failed_verification(copy: Path) -> None:  # noqa: F811
    (copy / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    (copy / "manifest.sha256").write_text(f"{sha256_of(copy / 'manifest.json')}  manifest.json\n")
    fails(copy, "manifest.json", "nested too deeply")
