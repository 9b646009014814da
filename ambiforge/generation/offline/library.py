"""A type's offline templates: ``templates.yaml`` in its folder, read once and checked strictly.

The file::

    defaults:            # optional; merged into every template (mappings one level deep)
      mechanism: choose_member
      target: {clean: true}
    mechanism_defaults:  # optional; merged into the templates of one mechanism
      tool_for_use: {question: "Which {noun} should I use?"}
    templates:
      - key: pour_into
        target: {tags_any: [drinkware]}
        co: {f: {tags_any: [drink]}}
        direct: ["Pour {f} into {t}."]
        ...
      - key: clean_pour_into
        mechanism: partition
        extends: preferences/pour_into   # texts, target and co-slots of another type's template

Layers, later wins: the extended template's texts and slots, ``defaults``, ``mechanism_defaults``, the entry.

Each template is validated by its mechanism's spec model; any mistake is a ConfigError naming the file, the
template and the key (``templates.yaml: templates[3] (dishwasher): target.where.colour: unknown ...``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ambiforge import ambiguity, yamlfile
from ambiforge.catalog import Catalog
from ambiforge.environment import Scene
from ambiforge.errors import ConfigError
from ambiforge.generation.offline import mechanisms
from ambiforge.generation.offline.mechanisms.base import Predicate, SceneTest
from ambiforge.generation.offline.rendering import Candidate
from ambiforge.generation.offline.spec import TemplateSpec
from ambiforge.models.scene_graph import SceneGraph

TEMPLATES_FILE = "templates.yaml"
#: What ``extends`` takes from the other template: its texts and slots, not its mechanism's own fields.
INHERITED = ("direct", "indirect", "plan", "setup", "ambiguous", "plan_amb", "target", "co")


#: A templates file as read: its defaults, its per-mechanism defaults and its entries.
_Read = tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]


def _merge(*layers: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = {**out[key], **value}
            else:
                out[key] = value
    return out


def _read(path: Path) -> _Read:
    if not path.is_file():
        raise ConfigError(f"{path}: offline templates not found")
    try:
        data = yamlfile.load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("templates"), list) or not data["templates"]:
        raise ConfigError(f"{path}: templates: expected a non-empty list of templates")
    unknown = sorted(set(data) - {"defaults", "mechanism_defaults", "templates"})
    if unknown:
        raise ConfigError(f"{path}: {unknown[0]}: unknown key (allowed: defaults, mechanism_defaults, templates)")
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise ConfigError(f"{path}: defaults: expected a mapping")
    by_mechanism = data.get("mechanism_defaults") or {}
    if not isinstance(by_mechanism, dict) or not all(isinstance(v, dict) for v in by_mechanism.values()):
        raise ConfigError(f"{path}: mechanism_defaults: expected a mapping of mechanism name to a mapping")
    for name in by_mechanism:
        if name not in mechanisms.MECHANISMS:
            raise ConfigError(f"{path}: mechanism_defaults.{name}: unknown mechanism")
    for i, entry in enumerate(data["templates"]):
        if not isinstance(entry, dict):
            raise ConfigError(f"{path}: templates[{i}]: expected a mapping")
    return defaults, by_mechanism, data["templates"]


def _raw_entry(type_name: str, key: str, where: str, read: dict[Path, _Read]) -> dict[str, Any]:
    """The named template of another type, with that file's defaults applied (for ``extends``). ``read``:
    the files this parse has read, by path, so a file that several templates extend is parsed once."""
    try:
        path = ambiguity.get(type_name).templates_path
    except ConfigError:
        raise ConfigError(f"{where}: extends: unknown ambiguity type {type_name!r}") from None
    if path not in read:
        read[path] = _read(path)
    defaults, by_mechanism, entries = read[path]
    for entry in entries:
        if entry.get("key") == key:
            if "extends" in entry:
                raise ConfigError(f"{where}: extends: {type_name}/{key} extends another template itself")
            return _merge(defaults, by_mechanism.get(entry.get("mechanism", defaults.get("mechanism")), {}), entry)
    raise ConfigError(f"{where}: extends: {path} has no template {key!r}")


def parse_templates(path: Path, type_name: str) -> tuple[TemplateSpec, ...]:
    read = {path: _read(path)}
    defaults, by_mechanism, entries = read[path]
    specs: list[TemplateSpec] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        where = f"{path}: templates[{i}]" + (f" ({entry['key']})" if isinstance(entry.get("key"), str) else "")
        inherited: dict[str, Any] = {}
        if "extends" in entry:
            ref = entry["extends"]
            if not isinstance(ref, str) or ref.count("/") != 1:
                raise ConfigError(f"{where}: extends: expected '<type>/<key>', got {ref!r}")
            other_type, other_key = ref.split("/")
            other = _raw_entry(other_type, other_key, where, read)
            inherited = {k: other[k] for k in INHERITED if k in other}
        name = entry.get("mechanism", defaults.get("mechanism"))
        own = by_mechanism.get(name, {}) if isinstance(name, str) else {}
        merged = _merge(inherited, defaults, own, {k: v for k, v in entry.items() if k != "extends"})
        if not isinstance(name, str):
            raise ConfigError(f"{where}: mechanism: missing (known: {', '.join(mechanisms.MECHANISMS)})")
        try:
            mechanism = mechanisms.get(name)
        except ConfigError as exc:
            raise ConfigError(f"{where}: mechanism: {exc}") from None
        try:
            spec = mechanism.spec.model_validate({**merged, "ambiguity_type": type_name})
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first["loc"])
            message = first["msg"].removeprefix("Value error, ")
            raise ConfigError(f"{where}: {loc}: {message}" if loc else f"{where}: {message}") from None
        if spec.key in seen:
            raise ConfigError(f"{where}: key: {spec.key!r} is used twice")
        seen.add(spec.key)
        specs.append(spec)
    return tuple(specs)


@lru_cache(maxsize=64)
def _cached(path: str, type_name: str) -> tuple[TemplateSpec, ...]:
    return parse_templates(Path(path), type_name)


def templates_for(type_name: str) -> tuple[TemplateSpec, ...]:
    """The offline templates of a registered type (ConfigError: unknown type, missing or bad file)."""
    return _cached(str(ambiguity.get(type_name).templates_path), type_name)


def has_templates(type_name: str) -> bool:
    """Whether the type can be generated offline (an LLM-only type has no ``templates.yaml``)."""
    return ambiguity.get(type_name).templates_path.is_file()


def candidates(scene: Scene, catalog: Catalog, type_name: str, graph: SceneGraph) -> list[Candidate]:
    """Every way the scene (and its graph) offers to make a pair of the type, template by template."""
    out: list[Candidate] = []
    for spec in templates_for(type_name):
        out.extend(of_template(spec, scene, catalog, graph))
    return out


def of_template(spec: TemplateSpec, scene: Scene, catalog: Catalog, graph: SceneGraph) -> list[Candidate]:
    """The ways one template can make a pair in the scene. The generator asks template by template, in a
    random order, and stops at the first that builds: asking all of them first cost most of a draw."""
    return mechanisms.get(spec.mechanism).candidates(spec, scene, catalog, graph)


def needs(spec: TemplateSpec, catalog: Catalog) -> SceneTest | None:
    """The test a scene passes wherever the template offers candidates (its mechanism's ``needs``, given
    the scene's objects as :meth:`Catalog.bits_of`); None when the mechanism does not say."""
    of = mechanisms.get(spec.mechanism).needs
    return None if of is None else of(spec, catalog)


def requirements(type_name: str) -> dict[str, list[Predicate]]:
    """Per template id: what a scene must hold for it (steers scene sampling); {} for an LLM-only type."""
    if not has_templates(type_name):
        return {}
    return {spec.id: mechanisms.get(spec.mechanism).requirements(spec) for spec in templates_for(type_name)}


def check_templates(type_names: tuple[str, ...] | None = None) -> None:
    """Load every (or the named) registered type's templates now, so a bad file stops a command before any
    work (ConfigError naming the file and key) instead of failing pair by pair."""
    for name in type_names if type_names is not None else ambiguity.names():
        if has_templates(name):
            templates_for(name)
