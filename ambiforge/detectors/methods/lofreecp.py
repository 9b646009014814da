"""LofreeCP (Su et al. 2024): conformal prediction without log-probabilities.

``m`` samples at temperature > 0; for each distinct response ``y`` (compared after normalising case,
spaces and the final full stop): frequency ``F(y)``, the normalised entropy ``NE`` of the sample
distribution (entropy / log m) and the semantic similarity ``SS(y)`` of ``y`` to the most frequent
response (rapidfuzz's token-set ratio, a cheap stand-in for an embedding similarity; 0 for the top response
itself). The paper's non-conformity ``-F + l1 NE - l2 SS`` becomes the reliability
``r(y) = F(y) - l1 NE + l2 SS(y)`` so the shared conformal module (``1 - r``) applies, l1 = l2 = 0.1.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import ClassVar

from pydantic import Field, field_validator
from rapidfuzz import fuzz

from ambiforge.detectors import prompts
from ambiforge.detectors.methods.base import Detection, MethodSettings, ScoredDetector
from ambiforge.detectors.methods.options import first_line
from ambiforge.detectors.model import CallTag, EvalModel, call_seed
from ambiforge.detectors.tasks import EvalTask
from ambiforge.models.intent import fold

#: samples per task: enough for any frequency estimate, and a bound on the calls one option can order
MAX_SAMPLES = 100


class LofreeSettings(MethodSettings):
    samples: int = Field(default=5, json_schema_extra={"option": "--samples"})  # per task
    temperature: float = 1.0  # sampling
    lambda1: float = 0.1  # normalised entropy weight
    lambda2: float = 0.1  # semantic similarity weight

    @field_validator("samples")
    @classmethod
    def _samples(cls, value: int) -> int:
        if not 1 <= value <= MAX_SAMPLES:
            raise ValueError(f"must be between 1 and {MAX_SAMPLES}, got {value}")
        return value


def _key(text: str) -> str:
    return fold(text).rstrip(".").strip()


def reliability(samples: list[str], lambda1: float, lambda2: float) -> tuple[list[str], list[float], dict[str, object]]:
    """Distinct responses (first spelling kept, most frequent first) and their reliability scores."""
    keys = [_key(s) for s in samples if _key(s)]
    if not keys:
        return [], [], {"normalised_entropy": None}
    counts = Counter(keys)
    m = len(keys)
    spelling = {}
    for s in samples:
        spelling.setdefault(_key(s), s.strip())
    ordered = [k for k, _ in sorted(counts.items(), key=lambda kv: (-kv[1], keys.index(kv[0])))]
    freqs = [counts[k] / m for k in ordered]
    entropy = -sum(f * math.log(f) for f in freqs)
    ne = entropy / math.log(m) if m > 1 else 0.0
    top = ordered[0]
    sims = [0.0 if k == top else fuzz.token_set_ratio(k, top) / 100 for k in ordered]
    scores = [f - lambda1 * ne + lambda2 * s for f, s in zip(freqs, sims, strict=True)]
    details = {"frequencies": freqs, "normalised_entropy": round(ne, 6), "similarity_to_top": sims, "samples": m}
    return [spelling[k] for k in ordered], scores, details


class LofreeCP(ScoredDetector):
    name: ClassVar[str] = "lofreecp"
    order: ClassVar[int] = 3  # place in the method registry (its listings and errors)
    Settings: ClassVar[type[MethodSettings]] = LofreeSettings
    sequential_calls: ClassVar[int] = 5  # a scheduling hint: calls one task makes one after another
    needs_logprobs: ClassVar[bool] = False
    #: ``--calibration-rule authors``: the published code's set rule for this method (conformal.COMPARISONS)
    authors_comparison: ClassVar[str] = "nonconformity_at_least"

    def detect(self, task: EvalTask, model: EvalModel, settings: LofreeSettings) -> Detection:
        prompt, messages = prompts.render("eval_next_action", task, settings.with_plan)
        samples, calls, cached = [], [], 0
        for n in range(settings.samples):
            reply = model.complete(
                messages,
                CallTag("lofreecp.sample", prompt.id, prompt.version, task.key),
                temperature=settings.temperature,
                max_tokens=100,
                seed=call_seed(settings.seed, task.key, "sample", n),
            )
            samples.append(first_line(reply.text))
            calls.append(reply.call_id)
            cached += int(reply.cached)
        options, scores, details = reliability(samples, settings.lambda1, settings.lambda2)
        error = None if options else "every sample was empty"
        return Detection(options, scores, None, None, calls, cached, details, error)
