"""The one Registry type: entry points found in installed distributions' metadata, loaded lazily and once,
in a stable order, with one-line errors for duplicates, broken plugins and unknown names."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from ambiforge.errors import ConfigError
from ambiforge.registry import Registry

GROUP = "ambiforge.tests_registry"


def distribution(root: Path, name: str, entry_points: str, modules: dict[str, str]) -> Path:
    """A distribution as ``pip install`` leaves it: modules plus ``<name>-1.0.dist-info`` with its metadata."""
    root.mkdir(parents=True, exist_ok=True)
    for module, code in modules.items():
        (root / f"{module}.py").write_text(code)
    info = root / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry_points}")
    return root


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Put folders on sys.path for one test; the modules they bring are forgotten after it."""
    before = set(sys.modules)

    def add(*folders: Path) -> None:
        for folder in folders:
            monkeypatch.syspath_prepend(str(folder))
        importlib.invalidate_caches()

    yield add
    for name in set(sys.modules) - before:
        if name.startswith("regplug_"):
            del sys.modules[name]


def test_entry_points_load_lazily_and_once(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    counter = tmp_path / "loads.txt"
    code = (
        f"from pathlib import Path\np = Path({str(counter)!r})\n"
        "p.write_text(p.read_text() + 'x' if p.exists() else 'x')\nVALUE = 42\n"
    )
    on_path(distribution(tmp_path / "site", "regplug-lazy", "answer = regplug_lazy:VALUE\n", {"regplug_lazy": code}))
    registry: Registry[int] = Registry("number", GROUP, name_of=str)
    assert "regplug_lazy" not in sys.modules  # made, not read: nothing imported
    assert registry.get("answer") == 42 and registry.names() == ("answer",) and "answer" in registry
    assert len(registry) == 1 and list(registry) == ["answer"]
    assert counter.read_text() == "x"  # read four times, imported once
    assert registry.origin("answer") == "entry point answer = regplug_lazy:VALUE (from regplug-lazy)"


def test_a_factory_entry_point_registers_its_result_built_once(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    code = (
        "from ambiforge.registry import provides\nCALLS = []\n"
        "@provides\ndef make():\n    CALLS.append(1)\n    return 'made'\n"
    )
    on_path(
        distribution(tmp_path / "site", "regplug-factory", "made = regplug_factory:make\n", {"regplug_factory": code})
    )
    registry: Registry[str] = Registry("thing", GROUP, name_of=str)
    assert registry.get("made") == "made" and registry.get("made") == "made"
    assert sys.modules["regplug_factory"].CALLS == [1]


def test_order_is_by_distribution_name_then_declared_order_whatever_the_path_order(  # type: ignore[no-untyped-def]
    tmp_path: Path, on_path
) -> None:
    values = {"regplug_order": "A = 'a'\nB = 'b'\nC = 'c'\nD = 'd'\n"}
    zeta = distribution(tmp_path / "z", "zeta", "zz = regplug_order:A\nza = regplug_order:B\n", values)
    alpha = distribution(tmp_path / "a", "alpha", "ay = regplug_order:C\nax = regplug_order:D\n", {})
    on_path(alpha, zeta)  # zeta first on sys.path
    registry: Registry[str] = Registry("letter", GROUP, name_of=str)
    registry.register("e", "later")
    assert registry.names() == ("ay", "ax", "zz", "za", "later")
    by_value: Registry[str] = Registry("letter", GROUP, name_of=str, order_key=lambda v: v)
    assert by_value.names() == ("zz", "za", "ay", "ax")  # an order key wins over registration order


def test_duplicate_names_name_both_origins_and_a_repeat_is_harmless(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    on_path(distribution(tmp_path / "site", "regplug-dup", "one = regplug_dup:ONE\n", {"regplug_dup": "ONE = [1]\n"}))
    registry: Registry[list[int]] = Registry("list", GROUP, same=lambda a, b: a == b)
    known = registry.get("one")
    assert registry.register(known, "one") is known and registry.register([1], "one") is known  # same value
    with pytest.raises(ConfigError) as caught:
        registry.register([2], "one", origin="tests/conf.toml")
    assert str(caught.value) == (
        "tests/conf.toml: list 'one' is already registered by entry point one = regplug_dup:ONE (from regplug-dup)"
    )
    with pytest.raises(ValueError, match="comes from an entry point"):
        registry.unregister("one")
    with pytest.raises(ConfigError, match="lowercase letters"):
        registry.register([3], "Two")


def test_two_distributions_claiming_one_name_is_a_conflict(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    first = distribution(tmp_path / "a", "alpha", "same = regplug_two:A\n", {"regplug_two": "A = 'a'\nB = 'b'\n"})
    second = distribution(tmp_path / "b", "beta", "same = regplug_two:B\n", {})
    on_path(first, second)
    registry: Registry[str] = Registry("letter", GROUP, name_of=str)
    with pytest.raises(ConfigError, match=r"\(from beta\): letter 'same' is already registered by .*\(from alpha\)"):
        registry.names()
    with pytest.raises(ConfigError, match="already registered"):  # all or nothing: the same error again
        registry.names()


def test_a_broken_plugin_is_one_line_naming_its_entry_point(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    broken = "import json\nraise RuntimeError('no GPU found\\nsecond line')\n"
    on_path(
        distribution(
            tmp_path / "site",
            "regplug-broken",
            "fine = regplug_fine:X\nbad = regplug_broken:X\nmissing = regplug_fine:NOPE\n",
            {"regplug_fine": "X = 1\n", "regplug_broken": broken},
        )
    )
    registry: Registry[int] = Registry("widget", GROUP, name_of=str)
    assert registry.get("fine") == 1  # the broken one is not asked for: it is not loaded
    for read in (lambda: registry.get("bad"), registry.names):
        with pytest.raises(ConfigError) as caught:
            read()
        assert str(caught.value) == (
            "widget entry point bad = regplug_broken:X (from regplug-broken) failed to load: RuntimeError: no GPU found"
        )
        assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_asking_for_a_name_loads_only_its_entry_point(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    modules = {"regplug_ask_a": "VALUE = 'a'\n", "regplug_ask_b": "VALUE = 'b'\n"}
    entry_points = "second = regplug_ask_b:VALUE\nfirst = regplug_ask_a:VALUE\n"
    on_path(distribution(tmp_path / "site", "regplug-ask", entry_points, modules))
    registry: Registry[str] = Registry("letter", GROUP, name_of=str)
    assert "first" in registry and registry.get("first") == "a" and "nothing" not in registry
    assert "regplug_ask_a" in sys.modules and "regplug_ask_b" not in sys.modules
    assert registry.origin("first") == "entry point first = regplug_ask_a:VALUE (from regplug-ask)"
    assert registry.names() == ("second", "first")  # the metadata's order, not the order asked in
    assert registry.get("second") == "b"


def test_unknown_names_list_the_known_ones(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    registry: Registry[str] = Registry("colour", "ambiforge.tests_registry_empty", name_of=str)
    with pytest.raises(ConfigError, match=r"^unknown colour 'red' \(known: none\)$"):
        registry.get("red")
    registry.register("b", "blue")
    registry.register("g", "green")
    with pytest.raises(ConfigError, match=r"^unknown colour 'red' \(known: blue, green\)$"):
        registry.get("red")
    registry.unregister("blue")
    assert registry.names() == ("green",)


def test_check_refuses_a_malformed_value(tmp_path: Path, on_path) -> None:  # type: ignore[no-untyped-def]
    def positive(name: str, value: int) -> None:
        if value <= 0:
            raise ConfigError(f"number {name!r}: must be positive")

    registry: Registry[int] = Registry("number", "ambiforge.tests_registry_empty", check=positive)
    with pytest.raises(ConfigError, match="must be positive"):
        registry.register(-1, "minus")
    assert "minus" not in registry


def test_every_built_in_registry_reads_ambiforge_s_own_entry_points() -> None:
    """The built-ins are declared in pyproject.toml, in the order outputs depend on."""
    from ambiforge import ambiguity
    from ambiforge.detectors.methods import METHODS
    from ambiforge.generation.offline.mechanisms import MECHANISMS
    from ambiforge.llm.providers import PROVIDERS
    from ambiforge.stages import STAGES
    from ambiforge.validation.rules import RULES

    assert ambiguity.names()[:3] == ("preferences", "common_sense_knowledge", "safety")
    assert RULES.names()[:3] == ("schema", "grounding", "shortlist") and RULES.names()[-1] == "duplicates"
    assert PROVIDERS.names() == ("mistral", "openai")
    assert STAGES.names()[:5] == ("generation", "validation", "judge", "review", "release")
    assert METHODS.names()[:7] == ("knowno", "lap", "lofreecp", "binary", "nohelp", "debate", "dialogue")
    assert MECHANISMS.names() == ("choose_member", "omission", "tool_for_use", "partition", "perturb")
    for registry in (ambiguity.registry.TYPES, RULES, PROVIDERS, STAGES, METHODS, MECHANISMS):
        assert all(registry.origin(name).startswith("entry point") for name in registry.names()[:2])


def test_a_registry_of_built_ins_without_them_says_to_reinstall() -> None:
    """An editable install keeps the metadata of its last install: groups added since then are empty."""
    registry: Registry[str] = Registry("widget", "ambiforge.tests_registry_empty", name_of=str, builtin=True)
    with pytest.raises(ConfigError, match=r"declares no widget .*ambiforge.tests_registry_empty.*reinstall"):
        registry.names()


def test_the_ordered_names_follow_every_change_after_a_read() -> None:
    """Reads share one ordered table (a build reads a registry tens of thousands of times); registering or
    unregistering after a read is seen by the next read, in order, and a copy handed out stays a copy."""
    registry: Registry[str] = Registry("word", GROUP + "_none", name_of=lambda v: v, order_key=lambda v: v)
    registry.register("pear")
    registry.register("apple")
    assert registry.names() == ("apple", "pear") and "apple" in registry and len(registry) == 2
    handed = registry.items()
    handed["zzz"] = "zzz"
    registry.register("fig")
    assert registry.names() == ("apple", "fig", "pear") and registry.get("fig") == "fig"
    registry.unregister("apple")
    assert registry.names() == ("fig", "pear") and "apple" not in registry and "zzz" not in registry
    with pytest.raises(ConfigError, match="unknown word 'apple'"):
        registry.get("apple")
