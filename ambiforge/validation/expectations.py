"""Dataset expectations with Great Expectations 1.x over the item table.

Item rules judge one item; these judge the table: unique ids, required columns present and non-empty,
types in their set, the type mix near its target, plan and text lengths in bounds, and splits disjoint.
GX because its results (JSON) and Data Docs (HTML) are what data teams already read. It is imported lazily:
the import alone takes about 3.5 s. pandas too: a build gathers :class:`ItemColumns` in its own process and
may hand them to a worker process that builds the frame.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ambiforge import ambiguity
from ambiforge.atomic import write_json_atomic
from ambiforge.models import Item

if TYPE_CHECKING:
    import pandas as pd

REQUIRED = (
    "id",
    "environment_short",
    "unambiguous_direct",
    "ambiguous_task",
    "ambiguity_type",
    "question",
    "answer",
)
#: Characters per text field. Tasks go to 1000: AmbiK's recipes run to about 100 words (600 characters) and
#: are legitimate; a longer cell is a paste gone wrong.
TEXT_BOUNDS = {
    "unambiguous_direct": (5, 1000),
    "ambiguous_task": (5, 1000),
    "question": (3, 400),
    "answer": (1, 400),
    "environment_short": (1, 5000),
}


class ItemColumns:
    """The columns the expectations read, gathered one item at a time with compact values: a text within
    its length bounds is stored as one shared placeholder of the bound's length, since the suite only
    measures it, so a million items cost a few pointers each. Texts out of bounds, and missing ones, are kept
    as they are: they are the examples the results show. The results are those of the full texts."""

    def __init__(self) -> None:
        self.columns: dict[str, list[Any]] = {c: [] for c in (*REQUIRED, "plan_steps_clear", "plan_steps_amb")}
        self._placeholders = {c: "x" * low for c, (low, _high) in TEXT_BOUNDS.items()}
        self._types: dict[str, str] = {}

    def add(self, item: Item) -> None:
        self._add(
            item.id,
            item.ambiguity_type,
            [getattr(item, c) for c in TEXT_BOUNDS],
            item.plan_for_clear_task,
            item.plan_for_amb_task,
        )

    def add_record(self, record: Mapping[str, Any]) -> None:
        """:meth:`add` of an item's record as :meth:`Item.to_record <ambiforge.models.Item.to_record>` wrote
        it (a run's ``generated.jsonl``), without building the item: the columns are plain values of the
        record, and the item's validation, most of it its scene, is what reading one back costs."""
        plans = record["plan_for_clear_task"], record["plan_for_amb_task"]
        self._add(record["id"], record["ambiguity_type"], [record[c] for c in TEXT_BOUNDS], *plans)

    def _add(self, item_id: Any, kind: Any, texts: list[Any], clear: list[str], amb: list[str]) -> None:
        """``texts``: the item's values of :data:`TEXT_BOUNDS`' columns, in its order."""
        cols = self.columns
        cols["id"].append(item_id)
        cols["ambiguity_type"].append(self._types.setdefault(kind, kind) if isinstance(kind, str) else kind)
        for (column, (low, high)), value in zip(TEXT_BOUNDS.items(), texts, strict=True):
            in_bounds = isinstance(value, str) and low <= len(value) <= high
            cols[column].append(self._placeholders[column] if in_bounds else value)
        cols["plan_steps_clear"].append(len(clear))
        cols["plan_steps_amb"].append(len(amb))

    def add_all(self, items: Iterable[Item]) -> ItemColumns:
        for item in items:
            self.add(item)
        return self

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        frame = pd.DataFrame(self.columns)
        for t in ambiguity.names():
            frame[f"is_{t}"] = (frame["ambiguity_type"] == t).astype(float)
        return frame


def item_table(items: Iterable[Item]) -> pd.DataFrame:
    """The columns the expectations read (one row per item), as :class:`ItemColumns` keeps them."""
    return ItemColumns().add_all(items).frame()


@dataclass
class ExpectationsResult:
    success: bool
    results: list[dict[str, Any]]
    context: Any = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "evaluated": len(self.results),
            "failed": sum(1 for r in self.results if not r["success"]),
            "results": self.results,
        }

    def save(self, directory: str | os.PathLike[str]) -> None:
        """``expectations.json`` and the Data Docs site (``data_docs/index.html``) in ``directory``."""
        directory = Path(directory)
        write_json_atomic(directory / "expectations.json", self.to_dict())
        if self.context is not None:
            site = directory / "data_docs"
            self.context.add_data_docs_site(
                site_name="ambiforge",
                site_config={
                    "class_name": "SiteBuilder",
                    "store_backend": {
                        "class_name": "TupleFilesystemStoreBackend",
                        "base_directory": str(site.resolve()),
                    },
                    "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
                },
            )
            self.context.build_data_docs(site_names=["ambiforge"])


def _summarise(result: Any) -> dict[str, Any]:
    config = result.expectation_config
    kwargs = {k: v for k, v in config.kwargs.items() if k != "batch_id"}
    details = result.result or {}
    observed = details.get("observed_value")
    if observed is None and "unexpected_count" in details:
        observed = {
            "unexpected_count": details.get("unexpected_count"),
            "examples": details.get("partial_unexpected_list", [])[:10],
        }
    return {
        "expectation": config.type,
        "column": kwargs.pop("column", None),
        "kwargs": json.loads(json.dumps(kwargs, default=str)),
        "success": bool(result.success),
        "observed": json.loads(json.dumps(observed, default=str)),
    }


def run_expectations(
    items: Sequence[Item] | pd.DataFrame,
    *,
    target_mix: Mapping[str, float] | None = None,
    tolerance: float = 0.03,
    splits: Mapping[str, Sequence[str]] | None = None,
    max_plan_steps: int = 13,
) -> ExpectationsResult:
    """Run the suite. ``items`` may be the frame :func:`item_table` (or :class:`ItemColumns`) made already,
    which is how a streamed release passes a million items. ``splits`` maps split name -> item ids; each
    id must be in exactly one split."""
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    import great_expectations as gx
    import pandas as pd
    from great_expectations.data_context.types.base import ProgressBarsConfig

    ctx = gx.get_context(mode="ephemeral")
    ctx.variables.progress_bars = ProgressBarsConfig(globally=False)
    source = ctx.data_sources.add_pandas("ambiforge")
    items_batch = source.add_dataframe_asset("items").add_batch_definition_whole_dataframe("all")
    E = gx.expectations  # noqa: N806
    # The suite is made whole, then added: an expectation added to a suite in the context saves the whole
    # suite again (two thirds of the suite's run on a small build).
    expectations: list[Any] = [E.ExpectColumnValuesToBeUnique(column="id")]
    expectations += [E.ExpectColumnValuesToNotBeNull(column=column) for column in REQUIRED]
    expectations += [
        E.ExpectColumnValueLengthsToBeBetween(column=column, min_value=low, max_value=high)
        for column, (low, high) in TEXT_BOUNDS.items()
    ]
    expectations.append(E.ExpectColumnValuesToBeInSet(column="ambiguity_type", value_set=list(ambiguity.names())))
    expectations += [
        E.ExpectColumnValuesToBeBetween(column=column, min_value=1, max_value=max_plan_steps)
        for column in ("plan_steps_clear", "plan_steps_amb")
    ]
    if target_mix:
        total = sum(target_mix.values()) or 1.0
        for t in ambiguity.names():
            share = target_mix.get(t, 0.0) / total
            expectations.append(
                E.ExpectColumnMeanToBeBetween(
                    column=f"is_{t}",
                    min_value=max(0.0, share - tolerance),
                    max_value=min(1.0, share + tolerance),
                )
            )
    suite = ctx.suites.add(gx.ExpectationSuite(name="ambiforge_items", expectations=expectations))
    definitions = [ctx.validation_definitions.add(gx.ValidationDefinition(name="items", data=items_batch, suite=suite))]
    frames: dict[str, pd.DataFrame] = {"items": items if isinstance(items, pd.DataFrame) else item_table(items)}
    if splits is not None:
        splits_batch = source.add_dataframe_asset("splits").add_batch_definition_whole_dataframe("all")
        # Disjoint: an id in one split only. (Coverage is checked by the release writer: a value_set of
        # 100,000 ids would be re-serialised by GX for every expectation.)
        unique = [E.ExpectColumnValuesToBeUnique(column="id")]
        split_suite = ctx.suites.add(gx.ExpectationSuite(name="ambiforge_splits", expectations=unique))
        definitions.append(
            ctx.validation_definitions.add(gx.ValidationDefinition(name="splits", data=splits_batch, suite=split_suite))
        )
        frames["splits"] = pd.DataFrame(
            {
                "split": [name for name, ids in splits.items() for _ in ids],
                "id": [item_id for ids in splits.values() for item_id in ids],
            },
            columns=["split", "id"],
            dtype=object,
        )
    results: list[dict[str, Any]] = []
    # One checkpoint per table (each has its own dataframe); a checkpoint run stores its results, which is
    # what Data Docs render.
    for definition in definitions:
        checkpoint = ctx.checkpoints.add(
            gx.Checkpoint(
                name=f"ambiforge_{definition.name}",
                validation_definitions=[definition],
                result_format="SUMMARY",
            )
        )
        run = checkpoint.run(batch_parameters={"dataframe": frames[definition.name]})
        for validation in run.run_results.values():
            results.extend({"table": definition.name, **_summarise(r)} for r in validation.results)
    return ExpectationsResult(all(r["success"] for r in results), results, ctx)
