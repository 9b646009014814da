"""Release versions: semantic (``packaging.version``, so 1.10.0 > 1.9.0), one folder each in curated/."""

from __future__ import annotations

import re
from pathlib import Path

from packaging.version import InvalidVersion, Version

from ambiforge.errors import ConfigError


def parse(version: str) -> Version:
    """Exactly MAJOR.MINOR.PATCH: ``packaging`` would also accept ``v1.1.0`` and ``1.1.0rc1`` and
    normalise them, so a folder name and the version in its manifest could disagree."""
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise ConfigError(f"--version: {version!r} must be MAJOR.MINOR.PATCH, e.g. 1.2.0")
    try:
        parsed = Version(version)
    except InvalidVersion:
        raise ConfigError(f"--version: {version!r} is not a version like 1.2.0") from None
    if len(parsed.release) != 3 or parsed.local:
        raise ConfigError(f"--version: {version!r} must be MAJOR.MINOR.PATCH, e.g. 1.2.0")
    return parsed


def existing(curated: Path) -> list[str]:
    """Released versions in ``curated/``, oldest first (folders that parse as versions)."""
    found = []
    if curated.exists():
        for child in curated.iterdir():
            if child.is_dir() and not child.name.startswith("."):
                try:
                    found.append((Version(child.name), child.name))
                except InvalidVersion:
                    continue
    return [name for _, name in sorted(found)]


def previous(curated: Path, version: str) -> str | None:
    """The greatest released version below ``version``."""
    below = [v for v in existing(curated) if Version(v) < Version(version)]
    return below[-1] if below else None


def check_new(curated: Path, version: str) -> None:
    """A release never overwrites and only moves forward."""
    parse(version)
    if (curated / version).exists():
        raise ConfigError(f"{curated / version}: version {version} is already released; releases are immutable")
    released = existing(curated)
    if released and Version(version) <= Version(released[-1]):
        raise ConfigError(f"--version: {version} is not greater than the last release {released[-1]}")
