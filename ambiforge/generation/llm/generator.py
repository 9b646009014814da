"""The LLM generator: scene -> unambiguous task -> paraphrase and plan -> K ambiguous candidates (variant,
plan rewrite, intent) -> the best candidate by the validators -> item.

The steps follow AmbiK's method, one prompt per step and one per ambiguity type for the variant
(``prompts/``). Every call's seed is derived from the run seed, the pair, the attempt, the step and the
candidate, so a request is the same in every run with the same options: a resumed or repeated run is
served from the call cache and yields the same items.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from ambiforge import ambiguity
from ambiforge.catalog import Catalog
from ambiforge.config.llm import LLMConfig
from ambiforge.config.sampler import SamplerConfig
from ambiforge.config.validation import ValidationConfig
from ambiforge.environment import Scene, render_environment
from ambiforge.errors import BudgetExceeded, GenerationError, LLMError
from ambiforge.generation.draft import Draft, provenance_of, to_item
from ambiforge.generation.llm.selection import Candidate, choose, score
from ambiforge.generation.offline import scene_steering
from ambiforge.llm.ask import StepAnswer, ask
from ambiforge.llm.budget import Budget, BudgetedLimiter
from ambiforge.llm.calls import CALLS_FILE, CallCache, CallLog
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.limiter import Limiter, shared_limiter
from ambiforge.llm.prompts import Prompt, load_prompt
from ambiforge.models import Item, PromptRef, StepModel
from ambiforge.textnorm import signature
from ambiforge.validation.context import RuleContext

_NUMBERED = re.compile(r"^\s*(?:step\s*)?\d+\s*[.):-]\s*", re.IGNORECASE)


def clean_plan(steps: list[str]) -> list[str]:
    """Plans are stored unnumbered; models number them anyway."""
    return [_NUMBERED.sub("", s).strip() for s in steps if s.strip()]


class LLMGenerator:
    name = "llm"

    def __init__(
        self,
        catalog: Catalog,
        seed: int,
        run_id: str,
        llm: LLMConfig,
        run_directory: Path,
        cache_directory: Path,
        limits: SamplerConfig = SamplerConfig(),  # noqa: B008
        candidates: int = 1,
        limiter: Limiter | None = None,
        validation: ValidationConfig | None = None,
        max_attempts: int = 3,
    ) -> None:
        self.catalog, self.seed, self.run_id, self.llm = catalog, seed, run_id, llm
        self.steering = scene_steering(catalog, limits)
        self.candidates, self.max_attempts = candidates, max_attempts
        log = CallLog(run_directory / CALLS_FILE)
        budget = Budget(log.path, llm.max_cost)
        self.client = LLMClient(
            llm,
            log,
            CallCache(cache_directory),
            BudgetedLimiter(limiter or shared_limiter(llm.concurrency, llm.rpm), budget),
            budget,
        )
        # ``generate_batch`` keeps parallelism x calls_per_pair pairs in flight: each pair is a chain of
        # calls, so that many chains keep ``concurrency`` calls waiting at the limiter at every moment.
        self.parallelism = llm.concurrency
        self.calls_per_pair = 3 + 3 * candidates
        self.ctx = RuleContext(catalog=catalog, config=validation or ValidationConfig())
        self.prompts: dict[str, Prompt] = {}

    def prompt(self, prompt_id: str, fallback: str = "") -> Prompt:
        """``fallback``: where else the prompt may be (a type registered from a folder keeps its prompts)."""
        if prompt_id not in self.prompts:
            self.prompts[prompt_id] = load_prompt(prompt_id, self.llm.prompts_dir, fallback)
        return self.prompts[prompt_id]

    def variant_prompt(self, ambiguity_type: str) -> Prompt:
        kind = ambiguity.get(ambiguity_type)
        return self.prompt(kind.variant_prompt_id, str(kind.prompts_dir))

    def call_seed(self, index: int, attempt: int, step: str, candidate: int = 0) -> int:
        text = f"{self.seed}:{index}:{attempt}:{step}:{candidate}"
        return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % 2**31  # int32: Mistral's random_seed

    def step(
        self, step: str, prompt: Prompt, variables: dict[str, Any], index: int, attempt: int, candidate: int = 0
    ) -> StepAnswer:
        purpose = CallPurpose(self.run_id, step, prompt.id, prompt.version, index, candidate)
        seed = self.call_seed(index, attempt, step, candidate)
        return ask(self.client, prompt, variables, self.llm.steps[step], purpose, seed)

    def generate(
        self, index: int, ambiguity_type: str, taken: AbstractSet[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int]:
        item, attempt, _ = self.generate_outcome(index, ambiguity_type, taken, first_attempt)
        return item, attempt

    def generate_outcome(
        self, index: int, ambiguity_type: str, taken: AbstractSet[str] | None = None, first_attempt: int = 0
    ) -> tuple[Item, int, dict[str, Any]]:
        """A task whose signature is in ``taken`` (a duplicate) is asked for again in a new scene, up to
        ``max_attempts`` times; LLM failures are not retried with new scenes (that would pay twice)."""
        if ambiguity_type not in ambiguity.names():
            raise GenerationError(f"pair {index}: unknown ambiguity type {ambiguity_type!r}")
        steering = ambiguity.get(ambiguity_type).llm_steering
        for attempt in range(first_attempt, first_attempt + self.max_attempts):
            rng = random.Random(f"{self.seed}:{index}:{attempt}")
            scene, _ = self.steering.scene(rng, ambiguity_type)
            short, full = render_environment(scene)
            base = {"environment_short": short, "environment_full": full, "ambiguity_type": ambiguity_type}
            first = self.step(
                "unambiguous_task",
                self.prompt("unambiguous_task"),
                {**base, "ambiguity_steering": steering},
                index,
                attempt,
            )
            task = first.value["task"].strip()
            if taken is not None and signature(task) in taken:
                continue
            shared = {**base, "task": task}
            indirect = self.step("indirect", self.prompt("indirect"), shared, index, attempt)
            plan = self.step("plan_clear", self.prompt("plan_clear"), shared, index, attempt)
            plan_clear = clean_plan(plan.value["plan"])
            shared_calls = first.call_ids + indirect.call_ids + plan.call_ids
            paraphrase = indirect.value["paraphrase"].strip()
            candidates = []
            for c in range(self.candidates):
                candidate, draft = self.candidate(c, index, attempt, ambiguity_type, shared, paraphrase, plan_clear)
                if draft is not None:
                    candidate.item = self.to_item(
                        draft, ambiguity_type, scene, index, attempt, shared_calls + candidate.call_ids
                    )
                    score(candidate, self.ctx)
                candidates.append(candidate)
            best = choose(candidates)
            meta = {"candidates": [c.record(c is best) for c in candidates], "shared_call_ids": shared_calls}
            if best is None or best.item is None:
                reasons = "; ".join(f"candidate {c.number}: {c.error}" for c in candidates)
                error = LLMError(f"pair {index}: every candidate failed: {reasons}")
                error.stage = candidates[0].stage or "llm"
                raise error
            return best.item, attempt, meta
        raise GenerationError(
            f"pair {index}: the model repeated an existing unambiguous task in {self.max_attempts} scenes"
        )

    def candidate(
        self,
        number: int,
        index: int,
        attempt: int,
        ambiguity_type: str,
        shared: dict[str, Any],
        paraphrase: str,
        plan: list[str],
    ) -> tuple[Candidate, Draft | None]:
        """One ambiguous variant with its plan and intent, as a draft of the whole pair; a failed step makes a
        failed candidate (no draft), except a spent budget, which stops the pair."""
        calls: list[str] = []
        try:
            variant = self.step(
                "ambiguous_variant", self.variant_prompt(ambiguity_type), shared, index, attempt, number
            )
            calls += variant.call_ids
            v = variant.value
            rewrite = self.step(
                "plan_ambiguous",
                self.prompt("plan_ambiguous"),
                {**shared, "plan_clear": plan, "ambiguous_task": v["ambiguous_task"]},
                index,
                attempt,
                number,
            )
            calls += rewrite.call_ids
            start = int(rewrite.value["ambiguity_starts_at_step"]) - 1
            end_step = plan[start] if 0 <= start < len(plan) else ""
            intent = self.step(
                "intent",
                self.prompt("intent"),
                {**shared, **v, "end_step": end_step},
                index,
                attempt,
                number,
            )
            calls += intent.call_ids
        except BudgetExceeded:
            raise
        except LLMError as exc:
            return Candidate(number, error=str(exc), stage=exc.stage, call_ids=calls), None
        draft = Draft(
            template=f"candidate={number}",
            unambiguous_direct=shared["task"],
            unambiguous_indirect=paraphrase,
            ambiguous_task=v["ambiguous_task"].strip(),
            question=v["question"].strip(),
            answer=v["answer"].strip(),
            plan_for_clear_task=plan,
            plan_for_amb_task=clean_plan(rewrite.value["plan"]),
            user_intent=[s.strip() for s in intent.value["user_intent"]],
            variants=[s.strip() for s in intent.value["variants"]],
            amb_shortlist=[s.strip() for s in v["shortlist"]],
            end_of_ambiguity=max(start, 0),
        )
        return Candidate(number, call_ids=calls), draft

    def to_item(
        self, draft: Draft, ambiguity_type: str, scene: Scene, index: int, attempt: int, call_ids: list[str]
    ) -> Item:
        prompts = [self.prompt(p) for p in ("unambiguous_task", "indirect", "plan_clear")]
        prompts += [self.variant_prompt(ambiguity_type), self.prompt("plan_ambiguous"), self.prompt("intent")]
        provenance = provenance_of(
            "llm",
            draft,
            run_id=self.run_id,
            seed=self.seed,
            index=index,
            attempt=attempt,
            catalog=self.catalog,
            models=[StepModel(step=name, provider=s.provider, model=s.model) for name, s in self.llm.steps.items()],
            prompts=[PromptRef(id=p.id, version=p.version) for p in prompts],
            call_ids=call_ids,
        )
        return to_item(draft, ambiguity_type, scene, provenance)
