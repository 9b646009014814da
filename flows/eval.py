"""The ``eval`` flow: one benchmark run (logic in :mod:`ambiforge.evaluation`), its headline table published
as a Prefect artifact."""

from __future__ import annotations

from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from ambiforge.evaluation.command import EvalOptions, run_eval
from flows.artifacts import artifact_key


@task(name="run-eval", task_run_name="eval {opts.model}", cache_policy=NO_CACHE)
def eval_task(opts: EvalOptions) -> dict[str, Any]:
    return run_eval(opts)


@flow(name="eval", flow_run_name="eval-{opts.model}", validate_parameters=False)
def eval_flow(opts: EvalOptions) -> dict[str, Any]:
    document = eval_task(opts)
    lines = [
        f"# Eval {document['name']}",
        "",
        f"Model `{document['model']}` on `{document['data']}` ({document['evaluated_on']}), "
        f"epsilon {document['epsilon']}.",
        "",
        "| method | n | errors | AmbDif | pairs | HR | CHR | ICR | SSC | SSC n |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for method, r in document["methods"].items():
        a, d = r["by_group"]["all"], r["ambdif"]
        figures = [a["n"], a["errors"], d["all"], d["pairs"], a["HR"], a["CHR"], a["ICR"], a["SSC"], a["n_SSC"]]
        lines.append(f"| {method} | " + " | ".join("—" if v is None else str(v) for v in figures) + " |")
    create_markdown_artifact(markdown="\n".join(lines) + "\n", key=artifact_key(document["name"], "eval"))
    return document
