"""Packaging hook: carry the top-level ``prompts/``, ``schemas/`` and ``annotation/`` (its own files: the
labeling config template and the guidelines, not the per-run exports below it) into the wheel as package data.

The repository keeps them at the top (the layout users edit and CI checks); an installed ambiforge reads them
from ``ambiforge/_resources/`` through :mod:`ambiforge.resources`. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
RESOURCES = ("prompts", "schemas")
ANNOTATION_FILES = ("labeling_config.xml.j2", "labeling_config.xml", "guidelines.md")


class build_py_with_resources(build_py):  # noqa: N801 - setuptools command naming
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's folders directly
        target = Path(self.build_lib) / "ambiforge" / "_resources"
        for name in RESOURCES:
            source = HERE / name
            if not source.is_dir():
                raise FileNotFoundError(f"{source}: resource folder missing from the source tree")
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        (target / "annotation").mkdir(parents=True, exist_ok=True)
        for name in ANNOTATION_FILES:
            shutil.copy2(HERE / "annotation" / name, target / "annotation" / name)


setup(cmdclass={"build_py": build_py_with_resources})
