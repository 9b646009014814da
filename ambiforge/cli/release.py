"""``ambiforge release``, ``verify`` and ``diff``: cut, check and compare versioned releases."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import PrefectOption, config_from, console


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
    """Write curated/VERSION/: data (Parquet, gzip JSONL), splits, manifest, card and changelog."""
    from ambiforge import api

    cfg = config_from(config)
    run_ids = [r.strip() for r in from_runs.split(",") if r.strip()]
    opts = api.release_options(
        cfg,
        version,
        run_ids,
        allow_unreviewed=allow_unreviewed,
        calibration_size=calibration_size,
        mix_tolerance=mix_tolerance,
        raw=raw,
        curated=curated,
    )
    console.print(
        f"releasing {version} from {', '.join(run_ids)}" + (" (unreviewed allowed)" if allow_unreviewed else "")
    )
    released = api.release(opts, prefect=prefect)
    folder, manifest = released.folder, released.to_dict()
    counts = manifest["counts"]
    if manifest["splits"].get("note"):
        console.print(f"[yellow]{manifest['splits']['note']}[/]")
    unreviewed = manifest["review"].get("released_unreviewed") or []
    if unreviewed:
        console.print(f"[yellow]{len(unreviewed)} items released without review (listed in the card and manifest)[/]")
    environment = (counts.get("configurations") or {}).get("environment")
    console.print(
        f"[green]released {folder}[/]: {counts['total']} items "
        f"({', '.join(f'{k} {v}' for k, v in counts['per_split'].items() for v in [v['total']])}); "
        + (f"configuration environment: {environment['total']} items; " if environment else "")
        + f"changes against {manifest['changes']['previous'] or 'nothing'}: "
        f"+{manifest['changes']['added']} -{manifest['changes']['removed']} ~{manifest['changes']['changed']}"
    )
    console.print(
        f"manifest sha256 {released.manifest_sha256} (in manifest.sha256; publish it, and check a copy "
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
    rows, comparing JSONL and Parquet field by field; exit 1 naming the first disagreement."""
    from ambiforge import api

    checked = api.verify(folder, manifest_sha256)
    console.print(f"[green]{folder} verified[/]: {checked.files} files, {checked.rows} rows match the manifest")
    console.print(f"manifest sha256 {checked.manifest_sha256}")


def diff(
    old: Annotated[str, typer.Argument(help="release folder or version")],
    new: Annotated[str, typer.Argument(help="release folder or version")],
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """The changelog between two releases (Markdown on stdout)."""
    from ambiforge import api

    cfg = config_from(config)
    typer.echo(api.diff(old, new, curated=cfg.paths.curated), nl=False)
