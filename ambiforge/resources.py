"""Where ambiforge's own files are: the top-level ``prompts/``, ``schemas/`` and ``annotation/`` (labeling
config template, guidelines) of the repository.

In a wheel they are package data under ``ambiforge/_resources/`` (``setup.py`` copies them there at build
time, so the repository keeps the layout its users were promised), found with :mod:`importlib.resources`;
in a source checkout (an editable install, ``PYTHONPATH``) they are read where they are. Every module that
needs a prompt or a schema asks here, so an installed ambiforge needs no checkout.

A user's own prompts directory (``[llm] prompts_dir``) overrides the packaged prompts; that choice is the
caller's (:func:`prompts_dir` takes it as an argument).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

#: The packaged copies live here inside the wheel; the names match the repository's top-level folders.
PACKAGE_DATA = "_resources"
RESOURCE_NAMES = ("prompts", "schemas", "annotation")


@cache
def resource_dir(name: str) -> Path:
    """The folder holding resource ``name`` (``prompts``, ``schemas``, ``annotation``): packaged, else the
    checkout's.

    ``importlib.resources.files`` gives a real directory for a normal install (a wheel unpacked into
    site-packages); ambiforge is not zip-safe, so ``as_file`` is not needed.
    """
    if name not in RESOURCE_NAMES:
        raise ValueError(f"unknown resource {name!r} (known: {', '.join(RESOURCE_NAMES)})")
    packaged = Path(str(resources.files("ambiforge").joinpath(PACKAGE_DATA, name)))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / name  # a source checkout: the top-level folder


def prompts_dir(user_dir: str | Path = "") -> Path:
    """The prompt templates: the user's ``[llm] prompts_dir`` when set, else ambiforge's own."""
    return Path(user_dir) if user_dir else resource_dir("prompts")


def schemas_dir() -> Path:
    return resource_dir("schemas")


def schema_path(name: str) -> Path:
    """``schemas/<name>`` (``item.schema.json``, ``manifest.schema.json``, ``llm/plan.schema.json``)."""
    return schemas_dir() / name
