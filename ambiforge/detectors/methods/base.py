"""The detector interface shared by every eval method (and by the judge stage's detectors).

A detector looks at one :class:`~ambiforge.detectors.tasks.EvalTask` with an
:class:`~ambiforge.detectors.model.EvalModel` and returns a :class:`Detection`: the candidate next actions
it considered, a score for each, its prediction set, whether it asks the user, and the ids of the calls it
made. A *calibrated* detector (KnowNo, LAP, LofreeCP) returns scores only; the runner calibrates a conformal
threshold on the calibration tasks and :meth:`Detector.decide` turns scores into a set. Other detectors
(Binary, NoHelp, debate, a simulated-user dialogue) decide at once and may keep what they found in
``details`` (verdicts, rounds, questions), which lands in the per-item results.

The methods are found through :data:`METHODS` (entry-point group ``ambiforge.methods``): this module imports
none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict

from ambiforge.detectors.conformal import Calibration, nonconformity, prediction_set
from ambiforge.detectors.intent import is_correct
from ambiforge.detectors.model import EvalModel
from ambiforge.detectors.tasks import EvalTask
from ambiforge.errors import ConfigError
from ambiforge.registry import Registry


class MethodSettings(BaseModel):
    """What every method reads: the run's prompt form and seed. A method with parameters of its own declares
    a subclass as its ``Settings`` (LofreeCP's samples, the debate's :class:`DebateSettings`); the values
    come from the command line and from ``[eval.methods.<name>]`` (:mod:`.settings`), so a new method's
    parameter needs no edit anywhere else. A field's ``option`` (``json_schema_extra``) is the command-line
    option that sets it, in every method that has the field."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    with_plan: bool = True
    seed: int = 0


@dataclass(frozen=True)
class Detection:
    options: list[str]
    scores: list[float]
    prediction_set: list[int] | None  # indexes into options; None until a calibrated method is decided
    asked: bool | None
    calls: list[str] = field(default_factory=list)
    cached_calls: int = 0
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # an unusable reply or a failed call: counted as failed, in no metric

    @property
    def set_options(self) -> list[str]:
        return [self.options[i] for i in self.prediction_set or []]

    def to_record(self) -> dict[str, Any]:
        """The per-item result. ``cached_calls`` stays out: which of two methods sharing a prompt made the call
        and which was served from the cache is a race between threads, and per-item results must be the
        same on every run (the call log, ``calls.jsonl``, records each cache hit)."""
        return {
            "options": self.options,
            "scores": [round(s, 6) for s in self.scores],
            "prediction_set": self.prediction_set,
            "set_options": self.set_options,
            "asked": self.asked,
            "calls": self.calls,
            "details": self.details,
            "error": self.error,
        }


class Detector(Protocol):
    name: ClassVar[str]
    Settings: ClassVar[type[MethodSettings]]  # the method's own settings (MethodSettings when it has none)
    needs_logprobs: ClassVar[bool]
    calibrated: ClassVar[bool]
    sequential_calls: ClassVar[int]  # calls one task makes one after another (schedules long jobs first)

    def detect(self, task: EvalTask, model: EvalModel, settings: MethodSettings) -> Detection: ...

    def decide(self, detection: Detection, calibration: Calibration | None) -> Detection: ...


class ScoredDetector:
    """Shared by the conformal methods: scores -> calibration score -> set; asks when the set has > 1 option."""

    calibrated: ClassVar[bool] = True
    Settings: ClassVar[type[MethodSettings]] = MethodSettings

    def decide(self, detection: Detection, calibration: Calibration | None) -> Detection:
        if calibration is None:
            raise ValueError(f"{type(self).__name__} needs a calibration")
        chosen = prediction_set(detection.scores, calibration)
        return replace(detection, prediction_set=chosen, asked=len(chosen) > 1)


class DirectDetector:
    """Shared by methods that decide without calibration."""

    calibrated: ClassVar[bool] = False
    Settings: ClassVar[type[MethodSettings]] = MethodSettings

    def decide(self, detection: Detection, calibration: Calibration | None) -> Detection:
        return detection


def correct_options(detection: Detection, task: EvalTask) -> list[bool]:
    """Which options are correct. The variants (correct before disambiguation) count on the ambiguous half
    only; the clear task has one answer."""
    variants = task.variants if task.ambiguous else ()
    return [is_correct(o, task.intent, variants) for o in detection.options]


def calibration_score(detection: Detection, task: EvalTask) -> float:
    """``1 - p`` of the best-scoring correct option (see :mod:`ambiforge.detectors.conformal`)."""
    return nonconformity(detection.scores, correct_options(detection, task))


def covers(detection: Detection, task: EvalTask) -> bool:
    """Whether the decided prediction set holds a correct option (what conformal coverage counts)."""
    correct = correct_options(detection, task)
    return any(correct[i] for i in detection.prediction_set or [])


def _check(name: str, method: Callable[[], Detector]) -> None:
    if getattr(method, "name", None) != name:
        raise ConfigError(f"eval method {name!r}: its class is named {getattr(method, 'name', None)!r}")
    if not callable(getattr(method, "detect", None)) or not callable(getattr(method, "decide", None)):
        raise ConfigError(f"eval method {name!r}: expected a Detector class (detect, decide)")


#: The eval methods: Detector classes (one instance per use) from the entry-point group ``ambiforge.methods``
#: and :func:`register`, in their ``order`` (a method without one comes after the built-ins, by name).
METHODS: Registry[Callable[[], Detector]] = Registry(
    "eval method",
    "ambiforge.methods",
    check=_check,
    order_key=lambda method: getattr(method, "order", 1000),
    builtin=True,
)


def register(name: str, factory: Callable[[], Detector]) -> None:
    METHODS.register(factory, name)


def unregister(name: str) -> None:
    """Remove a method added with :func:`register` (tests, plug-ins that are unloaded)."""
    METHODS.unregister(name)


def names() -> tuple[str, ...]:
    return METHODS.names()


def get(name: str) -> Detector:
    known = METHODS.items()
    if name not in known:
        raise ConfigError(f"--method: unknown method {name!r} (known: {', '.join(known)})")
    return known[name]()
