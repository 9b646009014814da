"""The ``review_push`` and ``review_pull`` flows over :mod:`ambiforge.review` (Label Studio)."""

from __future__ import annotations

from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from ambiforge.engine.pipeline import REVIEW_RETRY, review_push
from ambiforge.engine.retries import retry_transient
from ambiforge.review.pull import pull
from ambiforge.review.push import ReviewPaths
from flows.artifacts import artifact_key

push_task = task(
    name="push-to-label-studio",
    cache_policy=NO_CACHE,
    retries=REVIEW_RETRY.retries,
    retry_delay_seconds=REVIEW_RETRY.delay,
    retry_condition_fn=retry_transient,
)(review_push)


@task(
    name="pull-from-label-studio",
    cache_policy=NO_CACHE,
    retries=REVIEW_RETRY.retries,
    retry_delay_seconds=REVIEW_RETRY.delay,
    retry_condition_fn=retry_transient,
)
def pull_task(run_id: str, paths: ReviewPaths) -> dict[str, Any]:
    return pull(run_id, paths)


@flow(name="review_push", flow_run_name="review-push-{run_id}", validate_parameters=False)
def review_push_flow(run_id: str, paths: ReviewPaths, project: str | None = None) -> dict[str, Any]:
    return push_task(run_id, paths, project)


@flow(name="review_pull", flow_run_name="review-pull-{run_id}", validate_parameters=False)
def review_pull_flow(run_id: str, paths: ReviewPaths) -> dict[str, Any]:
    agreement = pull_task(run_id, paths)
    v = agreement["verdict"]
    create_markdown_artifact(
        key=artifact_key(run_id, "agreement"),
        markdown=(
            f"# Review of `{run_id}`\n\n{agreement['items']} items: {agreement['status_counts']}.\n\n"
            f"Verdict: {v['percent_agreement']}% agreement, Fleiss' kappa {v['fleiss_kappa']}, "
            f"Krippendorff's alpha {v['krippendorff_alpha']}.\n"
        ),
    )
    return agreement
