"""Prompt templates: ``prompts/<id>.yaml``, one per step; the ambiguous variant's is one per ambiguity type,
``prompts/ambiguous_<type>.yaml`` in the type's folder.

Each file has an ``id``, a ``version`` (bump it whenever the wording changes: the version goes into every
call record and every item's provenance, and a new version is a new cache key), the ``schema`` its reply
must satisfy, and Jinja2 templates for the ``system`` and ``user`` messages. Optional: ``step``, the
generation step the prompt serves (default: its id; the per-type variant prompts share
``ambiguous_variant``) and ``order``, its place in a pair's steps: the list of steps is read from these
files, not written anywhere else; ``examples``, phrases the prompt shows as illustrations, which a reply
must not copy (:mod:`ambiforge.llm.reply_check`). Jinja2 with StrictUndefined:
a variable the code forgot to pass is an error, not an empty string in a paid prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml

from ambiforge import yamlfile
from ambiforge.errors import ConfigError
from ambiforge.models import PromptRef

_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, autoescape=False)
REQUIRED = ("id", "version", "schema", "system", "user")
#: The step whose prompt is the ambiguity type's own (``ambiguous_<type>.yaml`` in the type's folder).
VARIANT_STEP = "ambiguous_variant"


def default_prompts_dir() -> Path:
    """The prompts shipped with ambiforge (the one place that knows where they are)."""
    from ambiforge.resources import prompts_dir as packaged

    return packaged()


def prompts_dir(directory: str = "") -> Path:
    """``[llm] prompts_dir`` when set, else the shipped prompts."""
    return Path(directory) if directory else default_prompts_dir()


@dataclass(frozen=True)
class Prompt:
    id: str
    version: str
    schema: str
    description: str
    system: jinja2.Template
    user: jinja2.Template
    path: str
    step: str = ""
    order: int = 0
    examples: tuple[str, ...] = ()

    @property
    def ref(self) -> PromptRef:
        return PromptRef(id=self.id, version=self.version)

    def render(self, variables: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        try:
            return (
                ("system", self.system.render(variables).strip()),
                ("user", self.user.render(variables).strip()),
            )
        except jinja2.UndefinedError as exc:
            raise ConfigError(f"{self.path}: {exc}") from None


def parse_prompt(text: str, path: str) -> Prompt:
    try:
        data = yamlfile.load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with {', '.join(REQUIRED)}")
    missing = [k for k in REQUIRED if not data.get(k)]
    if missing:
        raise ConfigError(f"{path}: missing {', '.join(missing)}")
    try:
        system, user = _ENV.from_string(str(data["system"])), _ENV.from_string(str(data["user"]))
    except jinja2.TemplateSyntaxError as exc:
        raise ConfigError(f"{path}: template error on line {exc.lineno}: {exc.message}") from None
    return Prompt(
        id=str(data["id"]),
        version=str(data["version"]),
        schema=str(data["schema"]),
        description=str(data.get("description", "")),
        system=system,
        user=user,
        path=path,
        step=str(data.get("step") or data["id"]),
        order=_order(data.get("order", 0), path),
        examples=_examples(data.get("examples"), path),
    )


def _order(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{path}: order must be an integer, got {value!r}")
    return value


def _examples(value: Any, path: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"{path}: examples must be a list of non-empty strings")
    return tuple(value)


@lru_cache(maxsize=64)
def load_prompt(prompt_id: str, directory: str = "", fallback: str = "") -> Prompt:
    """``fallback``: a folder tried when ``directory`` lacks the prompt (an ambiguity type registered from a
    folder keeps its ``ambiguous_<name>.yaml`` in its own ``prompts/``)."""
    path = prompts_dir(directory) / f"{prompt_id}.yaml"
    if not path.exists() and fallback and (Path(fallback) / f"{prompt_id}.yaml").exists():
        path = Path(fallback) / f"{prompt_id}.yaml"
    if not path.exists():
        raise ConfigError(f"{path}: prompt template not found")
    prompt = parse_prompt(path.read_text(encoding="utf-8"), str(path))
    if prompt.id != prompt_id:
        raise ConfigError(f"{path}: id is {prompt.id!r}, expected {prompt_id!r} (the file name)")
    return prompt


@lru_cache(maxsize=8)
def known_steps(directory: str = "") -> tuple[str, ...]:
    """The generation steps, in the order a pair goes through them, read from the prompt files (the
    shipped ones and those of ``[llm] prompts_dir``)."""
    folders = [default_prompts_dir(), *([Path(directory)] if directory else [])]
    paths: list[Path] = []
    for folder in folders:
        if not folder.is_dir():
            raise ConfigError(f"{folder}: prompts directory not found")
        paths += sorted(folder.glob("*.yaml"))
    order: dict[str, int] = {}
    for path in paths:
        prompt = parse_prompt(path.read_text(encoding="utf-8"), str(path))
        order[prompt.step] = min(order.get(prompt.step, prompt.order), prompt.order)
    for path in type_variant_prompts():
        prompt = parse_prompt(path.read_text(encoding="utf-8"), str(path))
        if prompt.step == VARIANT_STEP:
            order[VARIANT_STEP] = min(order.get(VARIANT_STEP, prompt.order), prompt.order)
    return tuple(sorted(order, key=lambda step: (order[step], step)))


def type_variant_prompts() -> list[Path]:
    """The ambiguous-variant prompts the ambiguity types keep in their own folders (``prompts/``): a type
    is one folder, so the built-in types' prompts are there too. A prompt of the same id in the prompts
    folders above overrides it (:func:`load_prompt` looks there first)."""
    from ambiforge import ambiguity

    found = (t.prompts_dir / f"{t.variant_prompt_id}.yaml" for t in ambiguity.types().values())
    return [path for path in found if path.is_file()]
