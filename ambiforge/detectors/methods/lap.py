"""LAP (Mullen & Manocha 2024): KnowNo's option probabilities times affordance scores, renormalised.

Context affordance: every object the option names is in the scene (:mod:`.affordance`). Prompt
affordance: P("True") for "is this possible and safe in this scene?", a softmax over the True/False
tokens' log-probabilities (0.5 when neither is among the top tokens). The products are renormalised to
sum to 1 so that the conformal threshold reads them like KnowNo's probabilities.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from ambiforge.detectors import prompts
from ambiforge.detectors.methods.affordance import context_affordance
from ambiforge.detectors.methods.base import Detection, MethodSettings, ScoredDetector
from ambiforge.detectors.methods.knowno import LogprobSettings, propose_and_score
from ambiforge.detectors.model import CallTag, EvalModel, call_seed, pick_tokens, softmax
from ambiforge.detectors.tasks import EvalTask


class LAP(ScoredDetector):
    name: ClassVar[str] = "lap"
    order: ClassVar[int] = 2  # place in the method registry (its listings and errors)
    Settings: ClassVar[type[MethodSettings]] = LogprobSettings
    sequential_calls: ClassVar[int] = 6  # a scheduling hint: calls one task makes one after another
    needs_logprobs: ClassVar[bool] = True
    #: ``--calibration-rule authors``: the published code's set rule for this method (conformal.COMPARISONS)
    authors_comparison: ClassVar[str] = "at_least"

    def detect(self, task: EvalTask, model: EvalModel, settings: LogprobSettings) -> Detection:
        base = propose_and_score("knowno", task, model, settings)
        if base.error:
            return replace(base, details={**base.details, "method": self.name})
        calls, cached = list(base.calls), base.cached_calls
        context, prompt_aff = [], []
        for n, option in enumerate(base.options):
            context.append(context_affordance(option, task.scene_objects))
            prompt, messages = prompts.render("eval_affordance", task, settings.with_plan, action=option)
            seed = call_seed(settings.seed, task.key, "affordance", n)
            top = model.next_token_logprobs(
                messages,
                CallTag("lap.affordance", prompt.id, prompt.version, task.key),
                top=settings.top_logprobs,
                seed=seed,
            )
            calls.append(top.call_id)
            cached += int(top.cached)
            probs = softmax(pick_tokens(top.top, ("True", "False")))
            prompt_aff.append(probs.get("True", 0.0) if probs else 0.5)
        raw = [p * c * a for p, c, a in zip(base.scores, context, prompt_aff, strict=True)]
        total = sum(raw)
        scores = [r / total for r in raw] if total > 0 else [0.0] * len(raw)
        details = {
            **base.details,
            "knowno_scores": [round(s, 6) for s in base.scores],
            "context_affordance": context,
            "prompt_affordance": [round(a, 6) for a in prompt_aff],
        }
        return Detection(base.options, scores, None, None, calls, cached, details)
