"""Declarative conditions on catalog objects, as written in a type's ``templates.yaml``.

A condition is a mapping; an object matches when every key holds (an empty mapping matches anything):

- ``tags_any: [drinkware, drink_server]``: the object's group tags or own ``uses`` include one of them;
- ``uses_any: [slice_bread]``: the object's own ``uses`` include one of them (what a tool is made for);
- ``where: {microwave_safe: true, noun: knife}``: each attribute equals the value (a list: one of them);
- ``where_not: {heat_resistant: false}``: each attribute differs from the value (``None``, unknown, differs);
- ``known: [microwave_safe]``: each attribute is set (not ``None``: the attribute applies to the object);
- ``clean: true`` (not marked dirty) or ``clean: false`` (marked dirty).

Data instead of lambdas, so a template file can be written, checked (unknown attribute names are a
ConfigError naming the key) and read without Python.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cached_property
from typing import Any

from pydantic import ConfigDict, Field, field_validator
from pydantic.dataclasses import dataclass

from ambiforge.catalog.loader import CatalogObject

Scalar = str | bool | int | float | None

#: Attributes a condition may test: every single-valued field of a catalog object.
ATTRIBUTES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(CatalogObject) if f.name not in ("uses", "tags"))


def _check_attributes(names: Any) -> Any:
    for name in names:
        if name not in ATTRIBUTES:
            raise ValueError(f"unknown catalog attribute {name!r} (known: {', '.join(ATTRIBUTES)})")
    return names


@dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Condition:
    """What a catalog object must be to fill a template slot; ``matches(obj)`` tests it.

    A pydantic dataclass (validated like a model, so a bad key names its path) with plain attribute
    access: a build evaluates conditions hundreds of thousands of times.
    """

    tags_any: tuple[str, ...] = Field(default=(), description="group tags or uses, any of them")
    uses_any: tuple[str, ...] = Field(default=(), description="the object's own uses, any of them")
    where: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict, description="attribute equals value")
    where_not: dict[str, Scalar] = Field(default_factory=dict, description="attribute differs from value")
    known: tuple[str, ...] = Field(default=(), description="attributes that must be set")
    clean: bool | None = Field(default=None, description="true: not dirty; false: dirty")

    @field_validator("where", "where_not")
    @classmethod
    def _known_keys(cls, value: dict[str, Any]) -> dict[str, Any]:
        return _check_attributes(value)

    @field_validator("known")
    @classmethod
    def _known_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _check_attributes(value)

    def __post_init__(self) -> None:
        object.__setattr__(self, "matches", _compile(self))

    @cached_property
    def key(self) -> tuple[Any, ...]:
        """The condition as a hashable value (its fields; mappings as sorted pairs, lists as tuples, each
        value with its type: ``True`` and ``1`` test differently): a table of what meets a condition is keyed
        by the condition."""
        return _key(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Condition) and self.key == other.key

    @cached_property
    def digest(self) -> int:
        """The hash of :attr:`key`, worked out once: a tuple does not keep its hash, and tables look a
        condition up for every template asked of every scene."""
        return hash(self.key)

    def __hash__(self) -> int:
        return self.digest

    def matches(self, obj: CatalogObject) -> bool:  # replaced per instance by the compiled test
        return _compile(self)(obj)

    def __call__(self, obj: CatalogObject) -> bool:
        return self.matches(obj)


def _key(c: Condition) -> tuple[Any, ...]:
    def typed(value: Any) -> tuple[str, Any]:
        return type(value).__name__, value

    def frozen(mapping: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted((k, tuple(map(typed, v)) if isinstance(v, list) else typed(v)) for k, v in mapping.items()))

    return (c.tags_any, c.uses_any, frozen(c.where), frozen(c.where_not), c.known, c.clean)


def _compile(c: Condition) -> Callable[[CatalogObject], bool]:
    tests: list[Callable[[CatalogObject], bool]] = []
    if c.tags_any:
        tags = frozenset(c.tags_any)
        tests.append(lambda o: not tags.isdisjoint(o.labels))
    if c.uses_any:
        uses = frozenset(c.uses_any)
        tests.append(lambda o: not uses.isdisjoint(o.uses))
    for attr, value in c.where.items():
        if isinstance(value, list):
            tests.append(lambda o, a=attr, v=tuple(value): any(_same(getattr(o, a), x) for x in v))
        else:
            tests.append(_equals(attr, value))
    for attr, value in c.where_not.items():
        equals = _equals(attr, value)
        tests.append(lambda o, eq=equals: not eq(o))
    for attr in c.known:
        tests.append(lambda o, a=attr: getattr(o, a) is not None)
    if c.clean is True:
        tests.append(lambda o: o.clean is not False)
    elif c.clean is False:
        tests.append(lambda o: o.clean is False)
    if not tests:
        return lambda o: True
    if len(tests) == 1:
        return tests[0]
    # the usual two or three tests chained with ``and``: no generator made per object tested
    if len(tests) == 2:
        first, second = tests
        return lambda o: first(o) and second(o)
    if len(tests) == 3:
        first, second, third = tests
        return lambda o: first(o) and second(o) and third(o)
    checks = tuple(tests)
    return lambda o: all(test(o) for test in checks)


def _equals(attr: str, value: Scalar) -> Callable[[CatalogObject], bool]:
    """``_same(getattr(o, attr), value)`` specialised for the value's type (a build runs these tests
    hundreds of thousands of times): a boolean or None is compared by identity, as :func:`_same` does; a
    string by ``==``, which is :func:`_same` for a string (no boolean or None equals one); numbers keep
    :func:`_same` (``True == 1`` must not match)."""
    if isinstance(value, bool) or value is None:
        return lambda o: getattr(o, attr) is value
    if isinstance(value, str):
        return lambda o: getattr(o, attr) == value
    return lambda o: _same(getattr(o, attr), value)


def _same(actual: Any, expected: Any) -> bool:
    """Equality that keeps booleans apart from numbers and None (``True == 1`` must not match)."""
    if isinstance(expected, bool) or expected is None or isinstance(actual, bool) or actual is None:
        return actual is expected
    return bool(actual == expected)


ANY = Condition()
