"""A build's fingerprint (after DataDreamer): a hash of every option that shapes its output and of the
versions of the stages that make it.

Which options shape the output is declared on :class:`~ambiforge.config.build.BuildOptions` itself (fields
marked ``execution`` do not), and stage versions come from the stage registry, so a new option or a
changed stage is covered without a list to keep in step.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ambiforge.stages import versions

if TYPE_CHECKING:
    from ambiforge.config.build import BuildOptions

#: The stages every build runs; their versions go into its fingerprint.
BUILD_STAGES = ("generation", "validation")


def build_stages(options: BuildOptions) -> tuple[str, ...]:
    """The stages this build runs: the judge only when ``[judge]`` enables it (so a build without it keeps
    the fingerprint it had before the stage existed)."""
    return (*BUILD_STAGES, "judge") if options.judge.enabled else BUILD_STAGES


def fingerprint_material(options: BuildOptions, stages: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The options, the stage versions, and the catalog's content (an edited catalog at the same path
    changes the output as much as another path does)."""
    from ambiforge.catalog import cached_catalog

    stages = stages if stages is not None else build_stages(options)
    output = options.output_options() | {"catalog_sha256": cached_catalog(options.catalog).sha256}
    return {"options": output, "stages": versions(stages)}


def digest(material: dict[str, Any]) -> str:
    text = json.dumps(material, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(options: BuildOptions, stages: tuple[str, ...] | None = None) -> str:
    return digest(fingerprint_material(options, stages))


def differences(recorded: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """The options and stages whose values differ, as ``pairs`` or ``stage generation``."""
    changed = []
    old, new = recorded.get("options", {}), wanted["options"]
    changed += sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    old_stages, new_stages = recorded.get("stages", {}), wanted["stages"]
    changed += [
        f"stage {k}" for k in sorted(set(old_stages) | set(new_stages)) if old_stages.get(k) != new_stages.get(k)
    ]
    return changed
