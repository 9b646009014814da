"""The eval prompts (``prompts/eval/*.yaml``) rendered for one task.

They use the project's prompt files (id, version, Jinja2 with StrictUndefined) so each call's record names
its prompt and version, and a wording change is a new cache key. The three shots live in
``prompts/eval/examples.yaml``, shared by every eval prompt.

The method prompts give the model AmbiK's context (``knowno/prompts/*.txt`` in cog-model/AmbiK-dataset):
the scene as ``environment_full``, the task, "Your previous actions were:" with the plan up to the ambiguous
step (or "Your first action is:" when it is the first), and "Your next action is:" with that step; the options
are candidates for that step. ``--action-only`` leaves out the previous actions, not the step.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ambiforge import yamlfile
from ambiforge.detectors.tasks import EvalTask
from ambiforge.errors import ConfigError
from ambiforge.llm.prompts import Prompt, default_prompts_dir, load_prompt

EVAL_DIR = "eval"


def eval_prompts_dir() -> Path:
    return default_prompts_dir() / EVAL_DIR


@lru_cache(maxsize=1)
def examples() -> list[dict[str, Any]]:
    path = eval_prompts_dir() / "examples.yaml"
    try:
        data = yamlfile.load(path.read_text(encoding="utf-8"))
        return list(data["examples"])
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path}: cannot read the eval examples: {exc}") from None


def prompt(prompt_id: str) -> Prompt:
    return load_prompt(prompt_id, str(eval_prompts_dir()))


def render(prompt_id: str, task: EvalTask, with_plan: bool, **extra: Any) -> tuple[Prompt, tuple[tuple[str, str], ...]]:
    p = prompt(prompt_id)
    variables = {
        "appliances": list(task.appliances),
        "environment": task.environment,
        "environment_full": task.environment_full or task.environment,
        "task": task.task,
        "next_step": task.next_step,
        "previous_steps": list(task.previous_steps) if with_plan else [],
        "with_plan": with_plan,
        "examples": examples(),
        **extra,
    }
    return p, p.render(variables)
