"""What an eval reads: the items it scores and the calibration tasks, from a release, an AmbiK CSV or items.

The calibration split is AmbiK's: 100 tasks, one half of each of 100 pairs, about half ambiguous.
- An AmbiK CSV with a ``take_amb`` column is AmbiK's calibration file (``ambik_calib_100.csv``): every row is
  a calibration pair and ``take_amb`` (1/0) says which half is the calibration task. Unless ``--calibration``
  names another file, the same rows are also the ones evaluated (there is nothing else), which the results
  state (``evaluated_on``).
- A release folder: ``splits/calibration.*`` (or a ``split`` column, when the release has one) gives the
  calibration pairs and the test split is evaluated, with the items of the release's ``environment``
  configuration (``environment/data.*``, environment-induced types, in no split) after it, so one eval
  shows instruction-level against environment-level ambiguity.
- Any other CSV or items file: a ``split`` column/field when present, else the first ``calibration_size``
  rows are the calibration split (AmbiK's files and ambiforge's exports are in split order).
Without ``take_amb`` the half is chosen to balance: within each ambiguity type, calibration pairs alternate
ambiguous, clear, ambiguous, ... in file order (50/50 overall, balanced across types).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ambiforge.detectors.tasks import EvalTask, halves
from ambiforge.errors import InputError
from ambiforge.models import Item
from ambiforge.world.integrity import item_problem, world_problem

CALIBRATION, TEST = "calibration", "test"


@dataclass
class Dataset:
    name: str
    source: str
    items: list[Item]  # the pairs evaluated (both halves)
    calibration: list[EvalTask]
    evaluated_on: str  # "test split", "calibration split (no separate test split)", ...
    calibration_source: str


def _validate(records: list[dict[str, Any]], path: Path) -> tuple[list[Item], list[str | None]]:
    items, splits = [], []
    for n, record in enumerate(records, start=1):
        record = dict(record)
        split = record.pop("split", None)
        try:
            items.append(Item.model_validate(record))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            raise InputError(str(path), f"record {n} (id {record.get('id')!r})", f"{where}: {first['msg']}") from None
        splits.append(str(split) if split is not None else None)
    return items, splits


def _checked(items: list[Item], path: Path, row: str) -> list[Item]:
    """The items, or InputError naming the first whose world does not hold together: what ``validate``
    rejects (rules ``world_graph``, ``world_env_referent``) is not scored (:mod:`ambiforge.world.integrity`).
    A CSV row's kitchen is the clear one only (the AmbiK layout has no column for a perturbed kitchen), so
    only its graph is checked there."""
    for n, item in enumerate(items, start=1):
        if row == "row":
            problem = world_problem(item.world) if item.world is not None else None
        else:
            problem = item_problem(item)
        if problem is not None:
            raise InputError(str(path), f"{row} {n} (id {item.id!r})", f"{problem} (validate rejects it: world_graph)")
    return items


def read_any(path: Path) -> tuple[list[Item], list[str | None], list[bool | None]]:
    items, splits, take = _read_any(path)
    return _checked(items, path, "row" if path.suffix.lower() == ".csv" else "record"), splits, take


def _read_any(path: Path) -> tuple[list[Item], list[str | None], list[bool | None]]:
    """Items, their split (or None) and which half calibrates (``take_amb``, or None) from one file."""
    if path.suffix.lower() == ".csv":
        from ambiforge.ambik.csv_io import read_ambik_csv

        items = read_ambik_csv(path)
        splits = [i.extra.get("split") or None for i in items]
        take = []
        for n, item in enumerate(items, start=1):
            cell = item.extra.get("take_amb")
            if cell is None or cell == "":
                take.append(None)
                continue
            try:
                take.append(bool(int(float(cell))))
            except ValueError:
                raise InputError(str(path), f"row {n} (id {item.id!r})", f"take_amb: not 0 or 1: {cell!r}") from None
        return items, splits, take
    if path.suffix.lower() in (".jsonl", ".parquet"):
        from ambiforge.storage import read_records

        items, splits = _validate(read_records(path), path)
        return items, splits, [None] * len(items)
    raise InputError(str(path), "", "expected a release folder, an AmbiK .csv, or items as .jsonl/.parquet")


def _split_ids(folder: Path, name: str) -> list[str] | None:
    for suffix in (".parquet", ".jsonl", ".csv"):
        path = folder / "splits" / f"{name}{suffix}"
        if path.exists():
            if suffix == ".csv":
                with path.open(encoding="utf-8-sig", newline="") as fh:
                    return [row["id"] for row in csv.DictReader(fh)]
            from ambiforge.storage import read_records

            return [str(r["id"]) for r in read_records(path)]
    return None


def balanced_halves(items: list[Item], take: list[bool | None]) -> list[EvalTask]:
    """One task per calibration pair: ``take_amb`` when given, else alternating within each type."""
    seen: dict[str, int] = {}
    tasks = []
    for item, amb in zip(items, take, strict=True):
        if amb is None:
            n = seen.get(item.ambiguity_type, 0)
            seen[item.ambiguity_type] = n + 1
            amb = n % 2 == 0
        ambiguous, clear = halves(item)
        tasks.append(ambiguous if amb else clear)
    return tasks


def load_dataset(data: Path, calibration: Path | None = None, calibration_size: int = 100) -> Dataset:
    if not data.exists():
        raise InputError(str(data), "", "not found")
    if data.is_dir():
        # the Parquet file first: it holds the scene graphs, which a release's data.jsonl leaves out
        source = next((data / f for f in ("data.parquet", "data.jsonl") if (data / f).exists()), None)
        if source is None:
            raise InputError(str(data), "", "not a release folder (no data.jsonl or data.parquet)")
        items, splits, take = read_any(source)
        if all(s is None for s in splits):
            cal_ids = _split_ids(data, CALIBRATION)
            if cal_ids is not None:
                wanted = set(cal_ids)
                splits = [CALIBRATION if i.id in wanted else TEST for i in items]
        environment = next((data / "environment" / f for f in ("data.parquet", "data.jsonl")
                            if (data / "environment" / f).exists()), None)  # fmt: skip
        if environment is not None:
            more, _, more_take = read_any(environment)
            items, take = [*items, *more], [*take, *more_take]
            splits = [*splits, *([TEST] * len(more))]  # test items, never calibration ones
        name = data.name
    else:
        items, splits, take = read_any(data)
        name = data.stem
    if any(t is not None for t in take) and calibration is None:
        return Dataset(
            name,
            str(data),
            items,
            balanced_halves(items, take),
            "calibration split (the file is AmbiK's calibration split; no separate test split given)",
            f"{data} (take_amb)",
        )
    if all(s is None for s in splits):
        size = min(calibration_size, len(items))
        splits = [CALIBRATION if n < size else TEST for n in range(len(items))]
        how = f"first {size} rows"
    else:
        how = "split column" if not data.is_dir() else "release splits"
    if calibration is not None:
        cal_items, _, cal_take = read_any(calibration)
        return Dataset(name, str(data), items, balanced_halves(cal_items, cal_take), "every item", str(calibration))
    cal = [(i, t) for i, s, t in zip(items, splits, take, strict=True) if s == CALIBRATION]
    test = [i for i, s in zip(items, splits, strict=True) if s != CALIBRATION]
    calibration_tasks = balanced_halves([i for i, _ in cal], [t for _, t in cal])
    if not test:
        return Dataset(name, str(data), items, calibration_tasks, "calibration split (the test split is empty)", how)
    return Dataset(name, str(data), test, calibration_tasks, "test split", f"{data} ({how})")
