"""Filling a pydantic model's instance directly, for values code made itself and checked as a whole.

A build makes hundreds of thousands of actions, scene objects and graphs whose fields need no validation
(see each ``made``). ``object.__setattr__`` finds each of BaseModel's four slots by name on every call;
the slot descriptors' own setters, taken once here, skip that lookup: a third less per instance. The
instances are equal to validated ones (tests/unit/world/test_scene_graph_model.py).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

_SLOTS: Any = BaseModel.__dict__

#: ``object.__new__``: an instance with no slot set yet.
new = object.__new__
set_values = _SLOTS["__dict__"].__set__
set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
set_extra = _SLOTS["__pydantic_extra__"].__set__
set_private = _SLOTS["__pydantic_private__"].__set__
