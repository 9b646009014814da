"""Load and check ``affordances.yaml``: which objects can do an action (peel, grate, go in the microwave,
be handed to a child, ...).

Knowledge as data: "peel the carrot with a peeler" in a kitchen with a Y-peeler and a swivel peeler has
two right answers, and only a table of what can peel says so. The graph side
(:mod:`ambiforge.world.affordance`) applies these rules to nodes. Errors name file and key, e.g.
``affordances.yaml: actions.peel.any[0].where: unknown catalog attribute 'colour'``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ambiforge.catalog.conditions import Condition
from ambiforge.catalog.knowledge import check_keys, check_names, conditions, packaged_path, read_yaml
from ambiforge.catalog.loader import Catalog, CatalogObject
from ambiforge.errors import CatalogError

FILE_NAME = "affordances.yaml"


@dataclass(frozen=True)
class Affordance:
    action: str
    description: str
    any: tuple[Condition, ...]
    exclude: tuple[Condition, ...] = ()

    def allows(self, obj: CatalogObject) -> bool:
        """Some ``any`` condition holds and no ``exclude`` one does."""
        for condition in self.any:
            if condition.matches(obj):
                break
        else:
            return False
        return not any(condition.matches(obj) for condition in self.exclude) if self.exclude else True


@dataclass(frozen=True)
class Affordances:
    path: str
    version: str
    actions: dict[str, Affordance]

    def get(self, action: str) -> Affordance:
        try:
            return self.actions[action]
        except KeyError:
            raise CatalogError(
                self.path, "actions", f"unknown action {action!r} (known: {', '.join(sorted(self.actions))})"
            ) from None


def parse_affordances(data: dict[str, Any], path: str, catalog: Catalog | None = None) -> Affordances:
    data = check_keys(path, "top level", data, {"version", "actions"}, {"version", "actions"})
    raw_actions = data["actions"]
    if not isinstance(raw_actions, dict) or not raw_actions:
        raise CatalogError(path, "actions", "expected a non-empty mapping of action name to rules")
    actions: dict[str, Affordance] = {}
    for name, raw in raw_actions.items():
        entry = f"actions.{name}"
        if not isinstance(name, str) or not name.isidentifier():
            raise CatalogError(path, entry, "an action name is a word (letters, digits, '_')")
        raw = check_keys(path, entry, raw, {"description", "any", "except"}, {"description", "any"})
        any_ = conditions(path, f"{entry}.any", raw["any"])
        if not any_:
            raise CatalogError(path, f"{entry}.any", "needs at least one condition")
        actions[name] = Affordance(
            name, str(raw["description"]), any_, conditions(path, f"{entry}.except", raw.get("except"))
        )
    result = Affordances(path, str(data["version"]), actions)
    if catalog is not None:
        for name, aff in actions.items():
            for key, conds in (("any", aff.any), ("except", aff.exclude)):
                for i, cond in enumerate(conds):
                    check_names(path, f"actions.{name}.{key}[{i}]", cond, catalog)
    return result


def load_affordances(path: str | Path | None = None, catalog: Catalog | None = None) -> Affordances:
    """Load ``affordances.yaml`` (default: the packaged one); with ``catalog``, check the names it uses."""
    p = Path(path) if path is not None else packaged_path(FILE_NAME)
    _, data = read_yaml(p)
    return parse_affordances(data, str(p), catalog)


@lru_cache(maxsize=8)
def cached_affordances(path: str = "") -> Affordances:
    return load_affordances(path or None)
