"""Items made the way a user's AmbiK CSV makes them, for rule tests that write one row in AmbiK's cells."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from pathlib import Path

from ambiforge.ambik import read_ambik_csv
from ambiforge.ambik.csv_io import AMBIK_COLUMNS
from ambiforge.catalog import Catalog
from ambiforge.models import Item, RuleFailure
from ambiforge.validation import RuleContext
from ambiforge.validation.rules import check_item


def environment(short: str) -> dict[str, str]:
    """Both environment cells of a row from its short list ("oven, eggs" -> "a oven, a eggs" in full)."""
    return {"environment_short": short, "environment_full": ", ".join("a " + e for e in short.split(", "))}


def item_of_row(row: dict[str, str], folder: Path, catalog: Catalog) -> Item:
    """The item the CSV reader makes of ``row`` (cells it leaves out are empty), through a file in ``folder``:
    the rules then see what they see on a published row, cell parsing included."""
    path = folder / "rows.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(AMBIK_COLUMNS))
        writer.writeheader()
        writer.writerow({c: row.get(c, "") for c in AMBIK_COLUMNS})
    return read_ambik_csv(path, catalog)[0]


def failures_of_row(row: dict[str, str], folder: Path, catalog: Catalog, rules: Iterable[str]) -> list[RuleFailure]:
    """The failures of ``rules`` on the item :func:`item_of_row` makes of ``row``."""
    return check_item(item_of_row(row, folder, catalog), RuleContext(catalog=catalog), only=rules)


def rule_messages(env: str, folder: Path, catalog: Catalog) -> Callable[..., list[str]]:
    """``run(rule, **cells)``: the messages ``rule`` gives on a row of the kitchen ``env`` with those cells (no
    shortlist and no variants unless the cells give them)."""

    def run(rule: str, **cells: str) -> list[str]:
        row = {"id": "1", **environment(env), "amb_shortlist": "", "variants": "", **cells}
        return [f.message for f in failures_of_row(row, folder, catalog, [rule])]

    return run


#: The rules a grounding test reads: the error and its two warnings.
GROUNDING_RULES = ["grounding", "grounding_noun", "grounding_variant"]


def grounding_row(env: str, steps: list[str], task: str = "Get it done.") -> dict[str, str]:
    """A common-sense row in the kitchen ``env`` whose task is ``task`` and whose two plans are "Go to the
    counter." then ``steps``: what the grounding tests vary."""
    plan = "\n".join(f"{i}. {s}" for i, s in enumerate(["Go to the counter.", *steps], start=1))
    return {
        "id": "1",
        **environment(env),
        "unambiguous_direct": task,
        "ambiguity_type": "common_sense_knowledge",
        "ambiguous_task": task,
        "question": "How should I do it?",
        "answer": "As usual.",
        "plan_for_clear_task": plan,
        "plan_for_amb_task": plan,
        "end_of_ambiguity": "0",
        "user_intent": "usual",
    }


def grounding_errors(folder: Path, catalog: Catalog) -> Callable[..., list[str]]:
    """``run(env, steps, task)``: the grounding errors of :func:`grounding_row`'s row."""

    def run(env: str, steps: list[str], task: str = "Get it done.") -> list[str]:
        found = failures_of_row(grounding_row(env, steps, task), folder, catalog, GROUNDING_RULES)
        return [f.message for f in found if f.severity == "error"]

    return run


def corruption_errors(folder: Path, catalog: Catalog, env: str, **cells: str) -> list[str]:
    """The corruption errors of a preferences row in the kitchen ``env`` (chickpeas cooked and seasoned with the
    lemon), with ``cells`` in place of its own: what the spelling tests vary."""
    row = {
        "id": "1",
        **environment(env),
        "unambiguous_direct": "Cook the chickpeas in the pressure cooker and squeeze the lemon over them.",
        "ambiguity_type": "preferences",
        "amb_shortlist": "",
        "ambiguous_task": "Cook the chickpeas in the pressure cooker and season them.",
        "question": "How should I season the chickpeas?",
        "answer": "With the lemon.",
        "plan_for_clear_task": "1. Fill the pressure cooker.\n2. Cook them.\n3. Squeeze the lemon over them.",
        "plan_for_amb_task": "1. Fill the pressure cooker.\n2. Cook them.\n3. Season them.",
        "end_of_ambiguity": "2",
        "user_intent": "lemon",
        "variants": "",
        **cells,
    }
    return [f.message for f in failures_of_row(row, folder, catalog, ["corruption"]) if f.severity == "error"]


def leak_messages(env: str, plan: str, folder: Path, catalog: Catalog) -> Callable[..., list[str]]:
    """``run(**cells)``: the answer_leak messages of a common-sense row in the kitchen ``env`` whose two plans are
    ``plan`` and whose end_of_ambiguity is step 1, with ``cells`` in place of its own."""
    messages = rule_messages(env, folder, catalog)

    def run(**cells: str) -> list[str]:
        row = {
            "ambiguity_type": "common_sense_knowledge",
            "plan_for_clear_task": plan,
            "plan_for_amb_task": plan,
            "end_of_ambiguity": "1",
            **cells,
        }
        return messages("answer_leak", **row)

    return run
