"""Each rule firing and not firing on small AmbiK rows written for it (tests/data/validation_cases.csv: one
row per defect class and per false-alarm class; columns ``expect_errors``, ``expect_warnings`` and
``not_warnings`` say what the row must raise)."""

from __future__ import annotations

import pytest

from ambiforge.ambik import read_ambik_csv
from ambiforge.config.validation import ValidationConfig
from ambiforge.models import Item
from ambiforge.validation import RuleContext, validate_items
from ambiforge.validation.rules import all_rules, check_item
from tests.conftest import REPO

CASES = REPO / "tests" / "data" / "validation_cases.csv"


@pytest.fixture(scope="module")
def cases(catalog) -> dict[str, Item]:  # type: ignore[no-untyped-def]
    return {item.extra["case"]: item for item in read_ambik_csv(CASES, catalog)}


@pytest.fixture(scope="module")
def ctx(catalog) -> RuleContext:  # type: ignore[no-untyped-def]
    return RuleContext(catalog=catalog)


def _ids() -> list[str]:
    import csv

    with CASES.open(encoding="utf-8") as fh:
        return [row["case"] for row in csv.DictReader(fh)]


@pytest.mark.parametrize("case", _ids())
def test_case_raises_exactly_its_errors(case: str, cases: dict[str, Item], ctx: RuleContext) -> None:
    item = cases[case]
    failures = check_item(item, ctx)
    errors = {f.rule for f in failures if f.severity == "error"}
    warnings = {f.rule for f in failures if f.severity == "warning"}
    assert errors == set(item.extra["expect_errors"].split()), [f.message for f in failures]
    assert set(item.extra["expect_warnings"].split()) <= warnings, [f.message for f in failures]
    assert not set(item.extra["not_warnings"].split()) & warnings, [f.message for f in failures]


def test_the_cases_cover_every_item_rule_but_schema_and_its_false_alarms(cases: dict[str, Item]) -> None:
    named = {
        r for item in cases.values() for key in ("expect_errors", "expect_warnings") for r in item.extra[key].split()
    }
    # The world rules need an item's scene graph, which an AmbiK CSV does not carry with relations: they are
    # broken item by item in tests/unit/world/test_world_rules.py and tests/unit/validation/test_rules.py; the
    # reader's rules read a kitchen too (tests/unit/validation/test_reader.py).
    world = {r for r in all_rules() if r.startswith(("world_", "reader_"))}
    uncovered = set(all_rules()) - named - world - {"schema", "shortlist_missing", "length"}
    assert uncovered == {"duplicate", "duplicate_id", "near_duplicate", "released_before"}  # dataset rules: below
    assert sum(1 for c in cases if c.startswith("fa_")) >= 10


def test_messages_name_the_thing_once(cases: dict[str, Item], ctx: RuleContext) -> None:
    failures = check_item(cases["d_missing_object"], ctx, only=["grounding"])
    assert [f.message for f in failures] == ["unambiguous_direct: names 'lemon', which is not in the environment"]
    assert "'0:'" in check_item(cases["d_stray_prefix"], ctx, only=["corruption"])[0].message


def test_duplicate_ids_are_errors(cases: dict[str, Item], ctx: RuleContext) -> None:
    first = cases["ok"]
    again = cases["fa_plural"].model_copy(update={"id": first.id})
    judged = validate_items([first, again], ctx)
    assert [f.rule for f in judged[1].validation.failed] == ["duplicate_id"]  # type: ignore[union-attr]
    assert judged[1].validation.passed is False  # type: ignore[union-attr]
    assert judged[0].validation.passed is True  # type: ignore[union-attr]


def test_severity_is_configurable_per_rule(cases: dict[str, Item], catalog) -> None:  # type: ignore[no-untyped-def]
    strict = RuleContext(
        catalog=catalog, config=ValidationConfig(severity={"plan_length": "error", "corruption": "off"})
    )
    long = check_item(cases["fa_long_recipe"], strict)
    assert {f.rule: f.severity for f in long}["plan_length"] == "error"
    assert not [f for f in check_item(cases["d_stray_prefix"], strict) if f.rule == "corruption"]


def test_unknown_rule_in_severity_is_refused() -> None:
    from ambiforge.config.file import Config
    from ambiforge.engine.preflight import check_config
    from ambiforge.errors import ConfigError

    config = Config(validation=ValidationConfig(severity={"no_such_rule": "error"}), source="a.toml")
    with pytest.raises(
        ConfigError, match=r"^a\.toml: validation\.severity: unknown rule id\(s\) no_such_rule; known: "
    ):
        check_config(config)


def test_a_needed_item_is_named_as_the_task_says_it(cases: dict[str, Item], ctx: RuleContext) -> None:
    """ "using a knife and cutting board": both tools, each by its own words; "a ceramic dinner plate": the whole
    phrase, material included, so the reader sees which item the scene lacks."""
    chained = [f.message for f in check_item(cases["d_missing_tools_chained"], ctx, only=["grounding"])]
    assert [m.split(": ", 1)[1].split(",")[0] for m in chained] == ["names 'knife'", "names 'cutting board'"]
    material = [f.message for f in check_item(cases["d_missing_by_material"], ctx, only=["grounding"])]
    assert len(material) == 1 and "names 'ceramic dinner plate', which the task needs" in material[0]
    assert "no plate of any kind" in material[0]
