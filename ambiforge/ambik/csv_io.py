"""Reading and writing the AmbiK CSV layout.

Cells: plans are numbered lines ("1. Pick up the mug.") that may end in ``\\r\\n``; ``end_of_ambiguity`` is
an int or a float string ("2.0"); lists (shortlist, intent, variants) are comma-separated; empty cells are
empty strings. Columns ambiforge has no field for are kept in ``Item.extra``. To give the same cells back
on export, each imported row keeps its original cells (``extra["_ambik_row"]``); a cell is written as it was
unless its field has changed since (a review correction), in which case it is written canonically.

``environment_full`` of an item whose scene graph knows where things are is written from the graph, as
sentences with places (:func:`ambiforge.world.describe.describe`: "On the upper shelf there is a glass mug
next to a ceramic mug; the whole milk is in the fridge."); an item without one (made without a world model,
or imported: its graph has nodes only) keeps its text.

Cells a spreadsheet would run as a formula (``=...``, ``+...``, ``@...``; docs/secrets-and-hardening.md) are
written behind an apostrophe unless ``raw_cells`` asks for the bytes as they are; reading takes the
apostrophe off again (:mod:`ambiforge.spreadsheet`), so an export read back gives the same items.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ambiforge import ambiguity, inputs, spreadsheet
from ambiforge.atomic import atomic_path
from ambiforge.catalog import Catalog, CatalogObject, cached_catalog
from ambiforge.environment.objects import env_object
from ambiforge.errors import InputError
from ambiforge.models import EnvObject, Item, Provenance, World
from ambiforge.version import __version__
from ambiforge.world.describe import describe, describe_record
from ambiforge.world.integrity import world_problem
from ambiforge.world.sampler import nodes_only_graph

AMBIK_COLUMNS: tuple[str, ...] = (
    "id",
    "environment_short",
    "environment_full",
    "unambiguous_direct",
    "ambiguity_type",
    "amb_shortlist",
    "ambiguous_task",
    "question",
    "answer",
    "plan_for_clear_task",
    "plan_for_amb_task",
    "end_of_ambiguity",
    "user_intent",
    "variants",
)
#: Written after ``unambiguous_direct`` for items that have it (ambiforge's own items do).
INDIRECT = "unambiguous_indirect"
#: Written after AmbiK's columns for environment-induced items: the changed kitchen (the one the ambiguous task
#: is set in), which AmbiK's one environment per row cannot hold; empty for a pair whose kitchen does not change.
CHANGED_SHORT, CHANGED_FULL = "environment_short_changed", "environment_full_changed"
#: Written last, as a JSON string, for items the judge stage judged.
JUDGEMENT = "judgement"
RAW_KEY = "_ambik_row"
COLUMNS_KEY = "_ambik_columns"
_NUMBER = re.compile(r"^\s*\d+\s*[.)]\s*")


def split_list(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(",") if part.strip()]


def split_plan(cell: str) -> list[str]:
    return [_NUMBER.sub("", line).strip() for line in cell.splitlines() if line.strip()]


def split_variants(cell: str) -> list[str]:
    lines = [v for v in cell.splitlines() if v.strip()]
    return [_NUMBER.sub("", v).strip() for v in lines] if len(lines) > 1 else split_list(cell)


def parse_index(cell: str) -> int:
    value = float(cell)
    if not value.is_integer() or value < 0:
        raise ValueError(f"not a step index: {cell!r}")
    return int(value)


PARSERS: dict[str, Callable[[str], Any]] = {
    "amb_shortlist": split_list,
    "user_intent": split_list,
    "variants": split_variants,
    "plan_for_clear_task": split_plan,
    "plan_for_amb_task": split_plan,
    "end_of_ambiguity": parse_index,
}
FORMATTERS: dict[str, Callable[[Any], str]] = {
    "amb_shortlist": ", ".join,
    "user_intent": ", ".join,
    "variants": ", ".join,
    "plan_for_clear_task": lambda steps: "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1)),
    "plan_for_amb_task": lambda steps: "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1)),
    "end_of_ambiguity": str,
}
TEXT_FIELDS = ("environment_full", "unambiguous_direct", INDIRECT, "ambiguous_task", "question", "answer")


def _environment(cell: str, catalog: Catalog) -> tuple[list[EnvObject], list[CatalogObject | str]]:
    """The row's objects as the item lists them, and as the graph's nodes take them (a catalog object
    where the name matches the catalog, else the name itself)."""
    by_name = {name.lower(): obj for name, obj in catalog.objects.items()}
    found = [by_name.get(n.lower()) or n for n in split_list(cell)]
    return [EnvObject(name=o) if isinstance(o, str) else env_object(o) for o in found], found


def _row_to_item(row: dict[str, str], columns: list[str], where: str, path: Path, catalog: Catalog) -> Item:
    fields: dict[str, Any] = {}
    for column in ("id", "environment_short", *TEXT_FIELDS, "ambiguity_type"):
        if column in row:
            fields[column] = row[column] or ""
    known = ambiguity.names()
    if fields.get("ambiguity_type") not in known:
        raise InputError(
            str(path),
            where,
            f"ambiguity_type {fields.get('ambiguity_type')!r} is not one of {', '.join(known)}",
        )
    for column, parse in PARSERS.items():
        try:
            fields[column] = parse(row.get(column) or "")
        except ValueError as exc:
            raise InputError(str(path), where, f"{column}: {exc}") from None
    if row.get(JUDGEMENT):  # a release's CSV read back
        try:
            fields[JUDGEMENT] = json.loads(row[JUDGEMENT])
        except ValueError:
            raise InputError(str(path), where, f"{JUDGEMENT}: not a JSON object") from None
    fields["environment"], objects = _environment(row.get("environment_short", ""), catalog)
    fields["world"] = imported_world(objects, fields)
    known_columns = set(AMBIK_COLUMNS) | {INDIRECT, JUDGEMENT}
    extra = {c: row[c] or "" for c in columns if c not in known_columns}
    extra[RAW_KEY] = json.dumps({c: row.get(c) or "" for c in columns}, ensure_ascii=False)
    extra[COLUMNS_KEY] = json.dumps(columns)
    fields["extra"] = extra
    fields["provenance"] = Provenance(generator="import", generator_version=__version__, run_id=path.stem)
    try:
        item = Item.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(str(path), where, f"{'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    if item.world is not None and (problem := world_problem(item.world)) is not None:
        raise InputError(str(path), where, problem)  # the check every reader of items makes
    return item


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None


def imported_world(objects: list[CatalogObject | str], fields: dict[str, Any]) -> World:
    """The world of an imported row: its objects as a nodes-only graph (the CSV says nothing of where
    things are, so ``relations_known`` is false and rules that need relations or plans skip it), and the
    row's claims as node ids where they name its objects: ``candidates`` the shortlist (or, without one,
    the variants), ``fitting`` the variants, ``target`` the one candidate the clear task names. A name
    that is not one of the row's objects is left out; the clear plan is not known (text only)."""
    graph = nodes_only_graph(objects)
    ids: dict[str, str] = {}
    for node in graph.nodes:
        if node.type == "object":
            ids.setdefault(node.name.lower(), node.id)

    def nodes(names: list[str]) -> list[str]:
        return list(dict.fromkeys(ids[n.lower()] for n in names if n.lower() in ids))

    fitting = nodes(fields["variants"])
    candidates = nodes(fields["amb_shortlist"]) or fitting
    by_id = {n.id: n for n in graph.nodes}
    clear = fields.get("unambiguous_direct") or ""
    named = [c for c in candidates if _mentions(clear, by_id[c].name)]
    # a candidate whose name is inside another named candidate's ("mug" in "glass mug") is not named itself
    named = [c for c in named if not any(c != o and _mentions(by_id[o].name, by_id[c].name) for o in named)]
    return World(graph=graph, target=named[0] if len(named) == 1 else None, candidates=candidates, fitting=fitting)


def check_unique_columns(columns: list[str], path: Path) -> None:
    """A header that names a column twice: ``csv.DictReader`` would keep the last cell and silently drop
    the others."""
    seen: dict[str, int] = {}
    for number, column in enumerate(columns, start=1):
        if column in seen:
            name = repr(column) if column else "(empty name)"
            raise InputError(str(path), "header", f"column {name} appears twice (columns {seen[column]} and {number})")
        seen[column] = number


def index_column(columns: list[str]) -> str | None:
    """The unnamed first column that holds the id when the header has no ``id`` (AmbiK's published test
    split ``ambik_test_900.csv`` is written by pandas with its index as the only id); None otherwise."""
    if "id" in columns or not columns or columns[0] not in ("", "Unnamed: 0"):
        return None
    return columns[0]


def read_ambik_csv(path: str | Path, catalog: Catalog | None = None, *, raw_cells: bool = False) -> list[Item]:
    """Items from an AmbiK CSV; errors name the file and the row (1 = the first data row). A cell that
    :func:`~ambiforge.spreadsheet.neutral` escaped is read as it was before, unless ``raw_cells``."""
    path = inputs.regular_file(path)
    catalog = catalog or cached_catalog("")
    inputs.allow_long_cells()
    cell = (lambda value: value) if raw_cells else spreadsheet.restore
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.DictReader(fh)
            columns = [cell(c) for c in reader.fieldnames or []]
            reader.fieldnames = columns
            check_unique_columns(columns, path)
            index = index_column(columns)
            missing = [c for c in AMBIK_COLUMNS if c not in columns and not (c == "id" and index is not None)]
            if missing:
                raise InputError(str(path), "header", f"missing AmbiK column(s): {', '.join(missing)}")
            items = []
            for n, row in enumerate(reader, start=1):
                if None in row:
                    raise InputError(str(path), f"row {n}", "more cells than the header has columns")
                for column, value in row.items():
                    if value and (problem := inputs.csv_cell_problem(value)):
                        raise InputError(str(path), f"row {n}", f"column {column!r}: {problem}")
                    if value:
                        row[column] = cell(value)
                if index is not None:
                    row = {"id": row[index], **row}
                items.append(_row_to_item(row, columns, f"row {n} (id {row.get('id')!r})", path, catalog))
            return items
    except OSError as exc:
        raise InputError(str(path), "", f"cannot be read: {exc.strerror or exc}") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise InputError(str(path), "", f"not a readable CSV file: {exc}") from None


def _cell(item: Item, column: str, raw: dict[str, str]) -> str:
    if column in PARSERS:
        value = getattr(item, column)
        if column in raw:
            try:
                if PARSERS[column](raw[column]) == value:
                    return raw[column]
            except ValueError:
                pass
        return FORMATTERS[column](value)
    if column == "environment_short":
        names = [o.name for o in item.environment]
        if column in raw and split_list(raw[column]) == names:
            return raw[column]
        return item.environment_short
    if column == "environment_full":
        return environment_full(item)
    if column == "id" or column == "ambiguity_type" or column in TEXT_FIELDS:
        return str(getattr(item, column))
    if column == JUDGEMENT:
        return judgement_cell(getattr(item, JUDGEMENT, None))
    if column in (CHANGED_SHORT, CHANGED_FULL) and _changed(item) is not None:
        return changed_environment(item, full=column == CHANGED_FULL)
    return item.extra.get(column, "")


def _changed(item: Item) -> Any:
    """The item's perturbation (a model, or a release record's dict), None when its kitchen does not change."""
    world = getattr(item, "world", None)
    if world is None:
        return None
    return world.get("perturbation") if isinstance(world, dict) else world.perturbation


def changed_environment(item: Item, *, full: bool) -> str:
    """The changed kitchen as the environment columns are written: the list, or in words where things are
    (for observation, what the asking robot sees: its list, not the whole graph)."""
    p = _changed(item)
    if p is None:
        return ""
    get = p.get if isinstance(p, dict) else lambda key: getattr(p, key)
    if not full:
        return str(get("environment_short") or "")
    if get("views"):
        return str(get("environment_full") or "")
    graph = get("graph")
    text = describe_record(graph) if isinstance(graph, dict) else describe(graph)
    return text or str(get("environment_full") or "")


def environment_full(item: Item) -> str:
    """The scene in words: where each thing is when the item's graph knows it, else the item's own text.
    ``item`` may be a release's record view, whose world is the record's dict."""
    world = getattr(item, "world", None)
    if world is None:
        return item.environment_full
    text = describe_record(world["graph"]) if isinstance(world, dict) else describe(world.graph)
    return text or item.environment_full


def judgement_cell(judgement: Any) -> str:
    """The judge stage's verdicts as a JSON string (a model, or a record's dict in a release); '' when the
    item was not judged."""
    if judgement is None:
        return ""
    value = judgement.model_dump(mode="json") if hasattr(judgement, "model_dump") else judgement
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def row_cells(item: Item, columns: Sequence[str]) -> list[str]:
    """One item's cells under ``columns``, as :func:`ambik_rows` writes them (``ambiforge verify`` compares
    written CSV rows with these)."""
    raw = json.loads(item.extra[RAW_KEY]) if RAW_KEY in item.extra else {}
    return [_cell(item, c, raw) for c in columns]


class Layout:
    """The CSV columns of a set of items, gathered one item at a time (a streamed release writes its rows
    after one pass has seen every item)."""

    def __init__(self) -> None:
        self.layouts: set[str | None] = set()
        self.indirect = False
        self.extras: set[str] = set()
        self.judged = False
        self.changed = False

    def add(self, item: Item) -> None:
        self.layouts.add(item.extra.get(COLUMNS_KEY))
        self.indirect = self.indirect or bool(item.unambiguous_indirect)
        self.extras.update(k for k in item.extra if not k.startswith("_"))
        self.judged = self.judged or getattr(item, JUDGEMENT, None) is not None
        self.changed = self.changed or _changed(item) is not None

    def columns(self) -> list[str]:
        """The imported file's columns when every item came from one file; else AmbiK's, plus extras."""
        if len(self.layouts) == 1 and None not in self.layouts:
            return json.loads(next(iter(self.layouts)))  # type: ignore[arg-type]
        columns = list(AMBIK_COLUMNS)
        if self.indirect:
            columns.insert(columns.index("unambiguous_direct") + 1, INDIRECT)
        columns += [c for c in sorted(self.extras) if c not in columns]
        if self.changed:  # after AmbiK's columns, so AmbiK readers ignore them
            columns += [c for c in (CHANGED_SHORT, CHANGED_FULL) if c not in columns]
        if self.judged:
            columns.append(JUDGEMENT)  # after AmbiK's columns, so AmbiK readers ignore it
        return columns


def columns_for(items: Iterable[Item]) -> list[str]:
    """The imported file's columns when every item came from one file; else AmbiK's, plus extras."""
    layout = Layout()
    for item in items:
        layout.add(item)
    return layout.columns()


def ambik_rows(items: Sequence[Item], columns: list[str] | None = None) -> tuple[list[str], list[list[str]]]:
    """The header and the cells of each item (computed once when several files share rows); ``columns``
    when known already (a streamed release's batches share them)."""
    columns = columns if columns is not None else columns_for(items)
    rows = []
    for item in items:
        raw = json.loads(item.extra[RAW_KEY]) if RAW_KEY in item.extra else {}
        rows.append([_cell(item, c, raw) for c in columns])
    return columns, rows


class _Lines(list[str]):
    """A csv.writer target that keeps each formatted line, so a line can go into several files."""

    def write(self, line: str) -> None:
        self.append(line)


def csv_lines(columns: list[str], rows: Sequence[list[str]], *, raw_cells: bool = False) -> tuple[str, list[str]]:
    """The header line and one formatted CSV line per row; formula cells neutralised unless ``raw_cells``."""
    header, lines = _Lines(), _Lines()
    if raw_cells:
        csv.writer(header).writerow(columns)
        csv.writer(lines).writerows(rows)
    else:
        csv.writer(header).writerow(map(spreadsheet.neutral, columns))
        csv.writer(lines).writerows(map(spreadsheet.neutral, row) for row in rows)
    return header[0], lines


def formula_cells(path: str | Path) -> tuple[int, list[str]]:
    """How many cells of a CSV a spreadsheet would run as formulas, and where the first few are
    (``row 3, column 'question'``; row 0 is the header): ``validate`` warns about them."""
    inputs.allow_long_cells()
    found, where = 0, []
    with inputs.regular_file(path).open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh)
        header: list[str] = []
        for n, row in enumerate(reader):
            header = header or row
            for k, value in enumerate(row):
                if spreadsheet.formula(value):
                    found += 1
                    if len(where) < 3:
                        name = header[k] if k < len(header) else str(k + 1)
                        where.append(f"row {n}, column {name!r}")
    return found, where


def write_lines(path: str | Path, header: str, lines: Sequence[str]) -> Path:
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(header)
        fh.writelines(lines)
    return Path(path)


def write_rows(path: str | Path, columns: list[str], rows: Sequence[list[str]], *, raw_cells: bool = False) -> Path:
    return write_lines(path, *csv_lines(columns, rows, raw_cells=raw_cells))


def write_ambik_csv(items: Sequence[Item], path: str | Path, *, raw_cells: bool = False) -> Path:
    """Write the items in the AmbiK layout, atomically; formula cells behind an apostrophe unless
    ``raw_cells`` (byte-exact)."""
    return write_rows(path, *ambik_rows(items), raw_cells=raw_cells)
