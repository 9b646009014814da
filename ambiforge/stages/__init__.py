"""Pipeline stages as units: a small contract and a registry.

A stage has a ``name``, a ``version`` (bump it whenever what the stage writes would change: the version
goes into every build's fingerprint, so a rerun of an old run folder is refused instead of mixing
outputs), the names of the records it reads (``inputs``) and writes (``outputs``), and ``run``, a function
over records. Flows schedule stages; stages never touch Prefect.

The built-in stages (generation, validation, review, release) are thin adapters over the functions of
their packages (:mod:`ambiforge.stages.builtin`); more are added with :func:`register`.
"""

from ambiforge.stages.contract import FunctionStage, Stage, StageContext
from ambiforge.stages.registry import get, names, register, stages, unregister, versions

__all__ = [
    "FunctionStage",
    "Stage",
    "StageContext",
    "get",
    "names",
    "register",
    "stages",
    "unregister",
    "versions",
]
