"""``ambiforge release``, ``verify`` and ``diff``: cut, check and compare versioned releases."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import PrefectOption, config_from, console
from ambiforge.errors import ConfigError


def release(
    version: Annotated[str, typer.Option(help="MAJOR.MINOR.PATCH, greater than the last release")],
    from_runs: Annotated[str, typer.Option("--from", help="run id(s), comma-separated")],
    allow_unreviewed: Annotated[
        bool,
        typer.Option(help="also release items not (yet) reviewed, listed in the card; never rejected or queued ones"),
    ] = False,
    calibration_size: Annotated[
        int | None, typer.Option(help="items in the calibration split (capped to a tenth when too large)")
    ] = None,
    mix_tolerance: Annotated[
        float | None, typer.Option(help="allowed distance of each type's share from [build.type_mix], e.g. 0.05")
    ] = None,
    raw: Annotated[Path | None, typer.Option(help="run folders (default: paths.raw)")] = None,
    curated: Annotated[Path | None, typer.Option(help="releases folder (default: paths.curated)")] = None,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
    prefect: PrefectOption = False,
) -> None:
    """Write curated/VERSION/: data (Parquet, JSONL, AmbiK CSV), splits, manifest, card and changelog."""
    from flows.commands import orchestration

    with orchestration(prefect) as tracked:
        _release(version, from_runs, allow_unreviewed, calibration_size, mix_tolerance, raw, curated, config, tracked)


def _release(
    version: str,
    from_runs: str,
    allow_unreviewed: bool,
    calibration_size: int | None,
    mix_tolerance: float | None,
    raw: Path | None,
    curated: Path | None,
    config: Path | None,
    tracked: bool,
) -> None:
    from ambiforge.cli.common import quiet_prefect
    from ambiforge.release.writer import ReleaseOptions
    from flows import commands

    cfg = config_from(config)
    run_ids = [r.strip() for r in from_runs.split(",") if r.strip()]
    if not run_ids:
        raise ConfigError("--from: give at least one run id")
    if mix_tolerance is not None and not 0 <= mix_tolerance <= 1:
        raise ConfigError(f"--mix-tolerance: {mix_tolerance} is not a share between 0 and 1 (e.g. 0.05 for 5 points)")
    if calibration_size is not None and calibration_size < 0:
        raise ConfigError(f"--calibration-size: {calibration_size} is negative")
    from ambiforge.release import versions

    versions.check_new(curated or Path(cfg.paths.curated), version)  # before any work, not after the gates
    opts = ReleaseOptions(
        version=version,
        run_ids=run_ids,
        raw=raw or Path(cfg.paths.raw),
        curated=curated or Path(cfg.paths.curated),
        annotation=Path(cfg.paths.annotation),
        allow_unreviewed=allow_unreviewed,
        calibration_size=cfg.release.calibration_size if calibration_size is None else calibration_size,
        seed=cfg.release.seed,
        license=cfg.release.license,
        target_mix=dict(cfg.build.type_mix),
        mix_tolerance=cfg.release.mix_tolerance if mix_tolerance is None else mix_tolerance,
        repository_url=cfg.release.repository_url,
        title=cfg.release.title,
        authors=tuple(cfg.release.authors),
    )
    console.print(
        f"releasing {version} from {', '.join(run_ids)}" + (" (unreviewed allowed)" if allow_unreviewed else "")
    )
    quiet_prefect()
    folder = commands.release(opts, tracked)
    import json

    manifest = json.loads((folder / "manifest.json").read_text())
    counts = manifest["counts"]
    if manifest["splits"].get("note"):
        console.print(f"[yellow]{manifest['splits']['note']}[/]")
    unreviewed = manifest["review"].get("released_unreviewed") or []
    if unreviewed:
        console.print(f"[yellow]{len(unreviewed)} items released without review (listed in the card and manifest)[/]")
    console.print(
        f"[green]released {folder}[/]: {counts['total']} items "
        f"({', '.join(f'{k} {v}' for k, v in counts['per_split'].items() for v in [v['total']])}); "
        f"changes against {manifest['changes']['previous'] or 'nothing'}: "
        f"+{manifest['changes']['added']} -{manifest['changes']['removed']} ~{manifest['changes']['changed']}"
    )
    from ambiforge.release.checksums import sha256_of

    console.print(
        f"manifest sha256 {sha256_of(folder / 'manifest.json')} (in manifest.sha256; publish it, and check a copy "
        "with ambiforge verify FOLDER --manifest-sha256 HASH)"
    )


def verify(
    folder: Annotated[Path, typer.Argument(help="a release folder, e.g. curated/1.0.0")],
    manifest_sha256: Annotated[
        str | None,
        typer.Option(help="the manifest's sha256 as published outside the folder (paper, Hub); checked first"),
    ] = None,
) -> None:
    """Check the manifest's own hash, every checksum, and recompute counts, review status and splits from the
    rows, comparing JSONL, Parquet and CSV field by field; exit 1 naming the first disagreement."""
    from ambiforge.release.checksums import sha256_of
    from ambiforge.release.verify import verify_release

    checked = verify_release(folder, manifest_sha256)
    console.print(f"[green]{folder} verified[/]: {checked['files']} files, {checked['rows']} rows match the manifest")
    console.print(f"manifest sha256 {sha256_of(folder / 'manifest.json')}")


def diff(
    old: Annotated[str, typer.Argument(help="release folder or version")],
    new: Annotated[str, typer.Argument(help="release folder or version")],
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """The changelog between two releases (Markdown on stdout)."""
    from ambiforge.release.changelog import compare_releases, render_changelog

    cfg = config_from(config)

    def folder(ref: str) -> Path:
        path = Path(ref)
        path = path if path.exists() else Path(cfg.paths.curated) / ref
        if not (path / "data.jsonl").exists():
            raise ConfigError(f"{ref}: not a release folder or a released version")
        return path

    typer.echo(render_changelog(compare_releases(folder(old), folder(new))), nl=False)
