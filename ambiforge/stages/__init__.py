"""Pipeline stages as units: a small contract and a registry.

A stage has a ``name``, a ``version`` (bump it whenever what the stage writes would change: the version
goes into every build's fingerprint, so a rerun of an old run folder is refused instead of mixing
outputs), the names of the records it reads (``inputs``) and writes (``outputs``), and ``run``, a function
over records and a typed :class:`StageContext`. The engine schedules stages; stages never touch Prefect.
:func:`check_pipeline` checks, when a pipeline is assembled, that each stage's inputs are there.

The built-in stages (generation, validation, judge, review, release) are thin adapters over the functions
of their packages (:mod:`ambiforge.stages.builtin`); they and a plugin's stages are entry points of
``ambiforge.stages``, and more are added with :func:`register`.
"""

from ambiforge.stages.assembly import check_pipeline
from ambiforge.stages.contract import FunctionStage, Stage, StageContext
from ambiforge.stages.registry import STAGES, get, names, register, stages, unregister, versions

__all__ = [
    "STAGES",
    "FunctionStage",
    "Stage",
    "StageContext",
    "check_pipeline",
    "get",
    "names",
    "register",
    "stages",
    "unregister",
    "versions",
]
