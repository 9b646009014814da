"""One registry type for every extension point (ambiguity types, rules, providers, stages, eval methods,
orchestrators), filled from Python entry points and from :meth:`Registry.register`.

Why entry points: a plugin package declares what it adds in its own metadata
(``[project.entry-points."ambiforge.rules"]``) and ambiforge finds it once it is installed, with no edit to
ambiforge and no import of the plugin from ambiforge's code. The built-ins are declared the same way in
ambiforge's own ``pyproject.toml``, so a registry module never imports the modules that register into it
(which is what closed import cycles before: ``base`` importing ``builtin`` importing ``base``).

An entry point names an object (``package.module:NAME``); loading it gives the value to register, or, when
it is a callable marked with :func:`provides`, the callable's result (a factory). Entry points load lazily,
once per process: asking for one name (:meth:`Registry.get`, ``in``) loads that name's entry points only,
so a run pays for the plugins it uses, not for every one installed; listing the registry (or writing to
it: a value registered later comes after every entry point's) loads them all. The order of the names is
the order of ``order_key`` over the values when the registry has one (ties keep registration order), else
registration order: ambiforge's own entry points, then other distributions' by distribution name, each
distribution's in the order of its installed metadata (which setuptools writes sorted by name, whatever the
order in ``pyproject.toml``: a registry whose order is part of the output gives its values an order key),
whichever names were asked for first; never the order in which the installed distributions happen to be
found, so outputs that depend on it stay byte-identical.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from ambiforge.errors import ConfigError

T = TypeVar("T")

NAME = re.compile(r"^[a-z][a-z0-9_]{0,47}$")

_FACTORY = "__ambiforge_factory__"


def provides(factory: Callable[[], T]) -> Callable[[], T]:
    """Mark a function whose *result* is what an entry point registers (a value built on first use)."""
    setattr(factory, _FACTORY, True)
    return factory


class Registry(Generic[T]):
    """Named values of one kind.

    ``kind`` names the concept in errors ("unknown rule 'x' (known: ...)"); ``group`` is the entry-point
    group (``ambiforge.rules``); ``check(name, value)`` may raise :class:`ConfigError` for a malformed value;
    ``same(a, b)`` says whether registering ``b`` under a name ``a`` already holds is a harmless repeat
    (default: the same object); ``order_key(value)`` orders :meth:`names`; ``convert(value)`` turns what an
    entry point names into the registered value (an ambiguity type's package into its definition);
    ``builtin``: ambiforge declares values of its own in this group, so finding none means its installed
    metadata predates ``pyproject.toml`` (a ConfigError saying to reinstall, not "unknown type 'safety'").
    """

    def __init__(
        self,
        kind: str,
        group: str,
        *,
        check: Callable[[str, T], None] | None = None,
        same: Callable[[T, T], bool] | None = None,
        order_key: Callable[[T], Any] | None = None,
        name_of: Callable[[T], str] | None = None,
        convert: Callable[[Any], T] | None = None,
        builtin: bool = False,
    ) -> None:
        self.kind, self.group = kind, group
        self._convert, self._builtin = convert, builtin
        self._check, self._same, self._order_key, self._name_of = check, same, order_key, name_of
        self._values: dict[str, T] = {}
        self._origin: dict[str, str] = {}
        self._lock = threading.RLock()
        self._loaded = False  # every entry point loaded
        self._found: dict[str, list[EntryPoint]] | None = None  # the group's entry points by name
        self._done: set[str] = set()  # names whose entry points are loaded (when not all are)
        # The values in name order, kept until the registry changes: a build reads the ambiguity types'
        # registry tens of thousands of times, and ordering it each time was 2% of making a pair.
        self._ordered: dict[str, T] | None = None

    # -- filling ------------------------------------------------------------------------------------------

    def register(self, value: T, name: str | None = None, *, origin: str = "register()") -> T:
        """Add ``value`` under ``name`` (or the registry's ``name_of(value)``). The same value again is a
        no-op; another value under a known name is a ConfigError naming both origins."""
        self._load()
        return self._add(value, name, origin)

    def _add(self, value: T, name: str | None, origin: str) -> T:
        key = name if name is not None else self._name(value)
        if not NAME.match(key):
            raise ConfigError(f"{origin}: {self.kind} name {key!r}: lowercase letters, digits and '_' only")
        if self._check is not None:
            self._check(key, value)
        with self._lock:
            known = self._values.get(key)
            if known is not None:
                if known is value or (self._same is not None and self._same(known, value)):
                    return known
                raise ConfigError(f"{origin}: {self.kind} {key!r} is already registered by {self._origin[key]}")
            self._values[key] = value
            self._origin[key] = origin
            self._ordered = None
        return value

    def unregister(self, name: str) -> None:
        """Remove a value added with :meth:`register` (tests); values from entry points stay."""
        with self._lock:
            if self._origin.get(name, "").startswith("entry point"):
                raise ValueError(f"{self.kind} {name!r} comes from an entry point")
            self._values.pop(name, None)
            self._origin.pop(name, None)
            self._ordered = None

    def _name(self, value: T) -> str:
        if self._name_of is not None:
            return self._name_of(value)
        name = getattr(value, "name", None)
        if not isinstance(name, str):
            raise ConfigError(f"a {self.kind} needs a name")
        return name

    def _entries(self) -> dict[str, list[EntryPoint]]:
        """The group's entry points by name, in :meth:`entry_points` order (found once, loaded as asked)."""
        found = self._found
        if found is None:
            points = self.entry_points()
            if self._builtin and not any(ep.dist is not None and ep.dist.name == "ambiforge" for ep in points):
                raise ConfigError(
                    f"ambiforge's installed metadata declares no {self.kind} (entry-point group {self.group}): it "
                    "is older than its pyproject.toml; reinstall ambiforge (pip install -e .)"
                )
            found = {}
            for ep in points:
                found.setdefault(ep.name, []).append(ep)
            self._found = found
        return found

    def _load_entries(self, groups: Iterable[list[EntryPoint]]) -> None:
        """Load ``groups`` of entry points all or nothing: on an error the registry is as before, so the next
        read reports the same error, not a half registry."""
        before = dict(self._values), dict(self._origin)
        try:
            for points in groups:
                for ep in points:
                    value = load_entry_point(ep, self.kind)
                    self._add(self._convert(value) if self._convert is not None else value, ep.name, _origin(ep))
        except ConfigError:
            self._values, self._origin = before
            self._ordered = None
            raise

    def _need(self, name: str) -> None:
        """Load the entry points called ``name`` (two distributions naming it are a conflict), not the others."""
        with self._lock:
            if self._loaded or name in self._done:
                return
            self._load_entries([self._entries().get(name, [])])
            self._done.add(name)

    def _load(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            found = self._entries()
            self._load_entries(points for name, points in found.items() if name not in self._done)
            # registration order is the entry points' whichever names were asked for first (values
            # registered in code come later: registering loads every entry point first)
            rank = {name: i for i, name in enumerate(found)}
            self._values = dict(sorted(self._values.items(), key=lambda kv: rank.get(kv[0], len(rank))))
            self._ordered = None
            self._loaded = True

    def entry_points(self) -> list[EntryPoint]:
        """This group's entry points: ambiforge's own first, then by distribution name, each distribution's
        in the order its metadata declares them (a stable order whatever order the installed distributions
        are found in)."""
        found = list(entry_points(group=self.group))

        def key(indexed: tuple[int, EntryPoint]) -> tuple[int, str, int]:
            index, ep = indexed
            dist = ep.dist.name if ep.dist is not None else ""
            return (0 if dist == "ambiforge" else 1, dist, index)

        seen: set[tuple[str, str]] = set()
        unique = []
        for _, ep in sorted(enumerate(found), key=key):
            dist = ep.dist.name if ep.dist is not None else ""
            if (dist, ep.name) not in seen:  # one distribution found twice on sys.path: the first wins
                seen.add((dist, ep.name))
                unique.append(ep)  # two distributions naming one entry point: a conflict, when loaded
        return unique

    # -- reading ------------------------------------------------------------------------------------------

    def _in_order(self) -> dict[str, T]:
        """The values in name order (shared: callers copy before handing it out)."""
        ordered = self._ordered
        if ordered is None or not self._loaded:
            self._load()
            with self._lock:
                values = dict(self._values)
                if self._order_key is not None:
                    values = dict(sorted(values.items(), key=lambda kv: self._order_key(kv[1])))  # type: ignore[misc]
                ordered = self._ordered = values
        return ordered

    def items(self) -> dict[str, T]:
        return dict(self._in_order())

    def names(self) -> tuple[str, ...]:
        return tuple(self._in_order())

    def get(self, name: str) -> T:
        if not self._loaded:
            if name not in self._done:
                self._need(name)
            if name in self._values:
                return self._values[name]
        values = self._in_order()  # an unknown name: the error lists every known one
        if name not in values:
            raise ConfigError(f"unknown {self.kind} {name!r} (known: {', '.join(values) or 'none'})")
        return values[name]

    def origin(self, name: str) -> str:
        self._need(name)
        return self._origin[name]

    def plugin(self, name: str) -> str | None:
        """``<entry point> (<package>)`` of a value that is not ambiforge's own (a plugin, or a value
        registered in code: ``<name> (registered in code)``), for errors that name who failed; None for
        ambiforge's built-ins, whose failures are ambiforge's bugs and keep their traceback."""
        self._need(name)
        origin = self._origin.get(name)
        if origin is None or origin.endswith("(from ambiforge)"):
            return None
        if origin.startswith("entry point "):
            package = origin.rsplit("(from ", 1)[1].rstrip(")") if "(from " in origin else "unknown package"
            return f"{name} ({package})"
        return f"{name} (registered in code)"

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if not self._loaded:
            self._need(name)
        return name in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._in_order())


def _origin(ep: EntryPoint) -> str:
    dist = f" (from {ep.dist.name})" if ep.dist is not None else ""
    return f"entry point {ep.name} = {ep.value}{dist}"


def load_entry_point(ep: EntryPoint, kind: str) -> Any:
    """The object an entry point names (called when marked with :func:`provides`); a plugin that fails to
    import is a ConfigError naming the entry point, not a traceback."""
    try:
        value = ep.load()
        if callable(value) and getattr(value, _FACTORY, False):
            value = value()
    except ConfigError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of third-party code becomes one line
        message = str(exc).splitlines()[0] if str(exc) else ""
        raise ConfigError(f"{kind} {_origin(ep)} failed to load: {type(exc).__name__}: {message}") from None
    return value
