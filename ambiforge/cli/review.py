"""``ambiforge review push`` and ``review pull``: the Label Studio loop."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ambiforge.cli.common import PrefectOption, config_from, console

review_app = typer.Typer(
    rich_markup_mode=None,
    help="Review items in Label Studio: push a run, pull annotations, agreement.",
    no_args_is_help=True,
)


def _paths(config: Path | None):  # type: ignore[no-untyped-def]
    from ambiforge.review.push import ReviewPaths

    cfg = config_from(config)
    return ReviewPaths(raw=Path(cfg.paths.raw), annotation=Path(cfg.paths.annotation))


@review_app.command("push")
def push_cmd(
    run: Annotated[str, typer.Option(help="run id whose validated items to push")],
    project: Annotated[str | None, typer.Option(help="project title (default: 'ambiforge <run>')")] = None,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
    prefect: PrefectOption = False,
) -> None:
    """Create or reuse the project (3 annotations per task) and import the items not yet in it."""
    from ambiforge import api

    result = api.review_push(run, _paths(config), project, prefect=prefect).to_dict()
    console.print(
        f"project [cyan]{result['title']}[/] (id {result['project_id']}): imported {result['imported']}, "
        f"already there {result['already_there']}"
    )


@review_app.command("pull")
def pull_cmd(
    run: Annotated[str, typer.Option(help="run id to pull annotations for")],
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
    prefect: PrefectOption = False,
) -> None:
    """Export annotations, compute agreement, adjudicate, and write the review into the run's items."""
    from ambiforge import api

    paths = _paths(config)
    a = api.review_pull(run, paths, prefect=prefect).to_dict()
    v = a["verdict"]
    console.print(
        f"{a['items']} items: {a['status_counts']}; verdict agreement {v['percent_agreement']}%, "
        f"Fleiss' kappa {v['fleiss_kappa']}, Krippendorff's alpha {v['krippendorff_alpha']}"
    )
    if a.get("queued"):
        console.print(
            f"[yellow]{a['queued']} items wait in {paths.folder(run)}/adjudication_queue.jsonl[/]: set verdict "
            "(and ambiguity_type, corrections) on their lines and pull again; they are not released until then"
        )
    console.print(
        f"wrote {paths.folder(run)}/agreement.json, agreement.html, export.json, adjudication_queue.jsonl "
        "(annotators as pseudonyms; who is who: annotators.json, never published)"
    )


@review_app.command("invite")
def invite_cmd() -> None:
    """Print the link annotators open to create their Label Studio account (with their own password) in
    your organization; then they see the project and can label."""
    from ambiforge.review.push import invite_link

    typer.echo(invite_link())
    console.print(
        "send this link to each annotator; anyone with it can join, reset it in Label Studio's Organization page"
    )


@review_app.command("config")
def config_cmd(
    write: Annotated[bool, typer.Option(help="write annotation/labeling_config.xml")] = False,
    check: Annotated[bool, typer.Option(help="exit 1 if the file differs from the rendering")] = False,
    config: Annotated[Path | None, typer.Option(help="ambiforge.toml to use")] = None,
) -> None:
    """The Label Studio labeling config, generated from its template and the registered ambiguity types
    (the built-in ones and the configuration's [ambiguity] folders); the file is
    <[paths] annotation>/labeling_config.xml."""
    from ambiforge.errors import ConfigError
    from ambiforge.review.labeling import render_labeling_config, rendered_path, write_labeling_config

    if write and check:
        raise ConfigError("--write and --check: choose one (write the file, or check it)")
    cfg = config_from(config)
    annotation = Path(cfg.paths.annotation)
    rendered = rendered_path(annotation)
    if write:
        console.print(f"wrote {write_labeling_config(rendered, annotation)}", soft_wrap=True)
    elif check:
        if not rendered.is_file() or rendered.read_text(encoding="utf-8") != render_labeling_config(annotation):
            console.print(f"[red]{rendered} is out of date; run `ambiforge review config --write`[/]", soft_wrap=True)
            raise typer.Exit(1)
        console.print(f"{rendered} matches the template and the registered types", soft_wrap=True)
    else:
        typer.echo(render_labeling_config(annotation), nl=False)
