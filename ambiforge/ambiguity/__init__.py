"""Ambiguity types as units: a registry of folders, each with its definition, offline templates and prompts."""

from ambiforge.ambiguity.definition import AmbiguityType
from ambiforge.ambiguity.mix import check_mix
from ambiforge.ambiguity.registry import (
    default_mix,
    get,
    level,
    load_definition,
    names,
    register,
    register_folder,
    register_folders,
    types,
    unregister,
)

__all__ = [
    "AmbiguityType",
    "check_mix",
    "default_mix",
    "get",
    "level",
    "load_definition",
    "names",
    "register",
    "register_folder",
    "register_folders",
    "types",
    "unregister",
]
