"""A rule: an id, a default severity and a check that returns messages naming the field at fault; and the
registry of rule families (:data:`RULES`, entry-point group ``ambiforge.rules``).

Rules of one family that share their work (grounding finds every mention once, then sorts each into its
rule) have one ``family`` check returning (rule id, message) pairs; ``check_item`` calls it once an item.

A family is a module with a ``RULES`` tuple, declared as an entry point that names the module; its
optional ``ORDER`` says where it runs among the families (the order of an item's failures is part of the
output; a module without one runs after the built-ins) and ``DATASET = True`` marks rules registered only
for their ids and severities, whose check runs over the whole dataset (duplicates).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from ambiforge.errors import AmbiforgeError, ConfigError, PluginError, plugin_failure
from ambiforge.models import Item
from ambiforge.registry import Registry

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

Check = Callable[[Item, "RuleContext"], list[str]]
FamilyCheck = Callable[[Item, "RuleContext"], list[tuple[str, str]]]

DEFAULT_ORDER = 1000


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Literal["error", "warning"]
    check: Check
    description: str = ""
    family: FamilyCheck | None = None


def family_rules(check: FamilyCheck, *specs: tuple[str, Literal["error", "warning"], str]) -> tuple[Rule, ...]:
    """Rules that share one check; each rule's own ``check`` filters the family's findings."""

    def only(rule_id: str) -> Check:
        return lambda item, ctx: [message for rid, message in check(item, ctx) if rid == rule_id]

    return tuple(Rule(rid, severity, only(rid), description, check) for rid, severity, description in specs)


@dataclass(frozen=True)
class RuleFamily:
    """What one ``ambiforge.rules`` entry point registers: a module's rules, its place, its scope."""

    rules: tuple[Rule, ...]
    order: int = DEFAULT_ORDER
    dataset: bool = False


def _family(value: object) -> RuleFamily:
    if isinstance(value, RuleFamily):
        return value
    if isinstance(value, ModuleType):
        rules = getattr(value, "RULES", None)
        if not isinstance(rules, tuple) or not rules or not all(isinstance(r, Rule) for r in rules):
            raise ConfigError(f"rule module {value.__name__}: RULES must be a non-empty tuple of Rule")
        return RuleFamily(rules, getattr(value, "ORDER", DEFAULT_ORDER), bool(getattr(value, "DATASET", False)))
    raise ConfigError(f"a rule entry point names a module with RULES, not {type(value).__name__}")


RULES: Registry[RuleFamily] = Registry(
    "rule family", "ambiforge.rules", order_key=lambda family: family.order, convert=_family, builtin=True
)


def all_rules(*, dataset: bool | None = None) -> dict[str, Rule]:
    """Every registered rule by id in the families' order (``dataset`` True/False: only those that are /
    are not dataset rules). Two families defining one id is a ConfigError naming both."""
    return _collect(RULES.items(), dataset)


def _collect(families: dict[str, RuleFamily], dataset: bool | None) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    owner: dict[str, str] = {}
    for name, family in families.items():
        plugin = RULES.plugin(name)
        guarded: dict[FamilyCheck, FamilyCheck] = {}  # one wrapper per shared family check
        for rule in family.rules:
            if rule.id in owner:
                raise ConfigError(f"rule {rule.id!r} is defined by rule families {owner[rule.id]} and {name}")
            owner[rule.id] = name
            if dataset is None or family.dataset == dataset:
                rules[rule.id] = rule if plugin is None or family.dataset else _guard(rule, plugin, guarded)
    return rules


def _item_name(item: Any) -> str:
    return f"item {getattr(item, 'id', '?')!r}"


def _guard(rule: Rule, plugin: str, guarded: dict[FamilyCheck, FamilyCheck]) -> Rule:
    """The plugin's rule with its failures named: an exception, or a return that is not a list of messages
    (of ``(rule id, message)`` pairs for a family), is a :class:`PluginError` (the command stops)."""
    check = rule.check

    def checked(item: Item, ctx: RuleContext) -> list[str]:
        where = f"{_item_name(item)} (rule {rule.id})"
        try:
            found = check(item, ctx)
        except AmbiforgeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a plugin's failure becomes one line naming it
            raise plugin_failure(plugin, where, exc) from None
        if not isinstance(found, list) or not all(isinstance(m, str) for m in found):
            raise PluginError(plugin, where, f"returned {type(found).__name__}, not a list of messages")
        return found

    family = rule.family
    if family is not None and family not in guarded:
        inner = family

        def family_checked(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
            where = f"{_item_name(item)} (rule family of {rule.id})"
            try:
                found = inner(item, ctx)
            except AmbiforgeError:
                raise
            except Exception as exc:  # noqa: BLE001
                raise plugin_failure(plugin, where, exc) from None
            pairs = isinstance(found, list) and all(
                isinstance(f, tuple) and len(f) == 2 and all(isinstance(x, str) for x in f) for f in found
            )
            if not pairs:
                raise PluginError(plugin, where, f"returned {type(found).__name__}, not a list of (rule id, message)")
            return found

        guarded[family] = family_checked
    return replace(rule, check=checked, family=guarded[family] if family is not None else None)
