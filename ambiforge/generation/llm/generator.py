"""The LLM generator: scene and its graph -> unambiguous task -> paraphrase and plan -> K ambiguous candidates
(variant, plan rewrite, intent) -> the best candidate by the validators -> item with its world.

Every prompt shows the kitchen as its scene graph (:func:`ambiforge.world.prompt_view.prompt_view`; the
graph is built as the offline generator builds it, :func:`ambiforge.generation.grounding.scene_graph`),
and every reply is resolved against that graph (:mod:`.resolution`): a name the kitchen lacks, variants
that are not the affordance set, a shortlist that is not what the referent fits go back to the model as a
repair, and fail the candidate when repairs run out. The item's world (target, candidates, fitting) is
filled from the names that resolved.

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
from functools import partial
from pathlib import Path
from typing import Any

from ambiforge import ambiguity
from ambiforge.catalog import Catalog
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.catalog.world import cached_world
from ambiforge.config.llm import LLMConfig
from ambiforge.config.sampler import SamplerConfig
from ambiforge.config.validation import ValidationConfig
from ambiforge.environment import Scene, render_environment
from ambiforge.errors import BudgetExceeded, GenerationError, LLMError
from ambiforge.generation.draft import Draft, provenance_of, to_item
from ambiforge.generation.grounding import scene_graph
from ambiforge.generation.llm import environment
from ambiforge.generation.llm.resolution import NO_ACTION, Check, Mentions, Resolver
from ambiforge.generation.llm.selection import Candidate, choose, score
from ambiforge.generation.offline import OfflineGenerator, scene_steering
from ambiforge.llm.ask import StepAnswer, ask
from ambiforge.llm.budget import Budget, BudgetedLimiter
from ambiforge.llm.calls import CALLS_FILE, CallCache, CallLog
from ambiforge.llm.client import CallPurpose, LLMClient
from ambiforge.llm.limiter import Limiter, shared_limiter
from ambiforge.llm.prompts import Prompt, load_prompt
from ambiforge.models import Item, PromptRef, Provenance, StepModel, World
from ambiforge.textnorm import signature
from ambiforge.validation.context import RuleContext
from ambiforge.world.prompt_view import prompt_view

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
        self.mentions = Mentions(catalog.objects)
        self.node_names = Mentions([*catalog.objects, *(place.name for place in cached_world().places)])
        self.actions = [(name, a.description) for name, a in sorted(cached_affordances().actions.items())]
        #: Environment-induced types: their two kitchens are drawn as the offline generator draws them.
        self.offline = OfflineGenerator(catalog, seed, run_id, limits)

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
        self,
        step: str,
        prompt: Prompt,
        variables: dict[str, Any],
        index: int,
        attempt: int,
        candidate: int = 0,
        check: Check | None = None,
    ) -> StepAnswer:
        """``check``: what the reply must satisfy in this pair's graph (repaired like a schema error)."""
        purpose = CallPurpose(self.run_id, step, prompt.id, prompt.version, index, candidate)
        seed = self.call_seed(index, attempt, step, candidate)
        return ask(self.client, prompt, variables, self.llm.steps[step], purpose, seed, check)

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
        if environment.is_environment(ambiguity_type):
            return self.environment_outcome(index, ambiguity_type, taken, first_attempt)
        steering = ambiguity.get(ambiguity_type).llm_steering
        for attempt in range(first_attempt, first_attempt + self.max_attempts):
            rng = random.Random(f"{self.seed}:{index}:{attempt}")
            scene, _ = self.steering.scene(rng, ambiguity_type)
            graph = scene_graph(scene, self.seed, index, attempt)
            resolver = Resolver(graph, self.mentions, ambiguity.get(ambiguity_type).has_shortlist, self.node_names)
            short, full = render_environment(scene)
            base = {
                "environment_short": short,
                "environment_full": full,
                "ambiguity_type": ambiguity_type,
                "world": prompt_view(graph),
            }
            first = self.step(
                "unambiguous_task",
                self.prompt("unambiguous_task"),
                {**base, "ambiguity_steering": steering},
                index,
                attempt,
                check=resolver.check_texts("task"),
            )
            task = first.value["task"].strip()
            if taken is not None and signature(task) in taken:
                continue
            shared = {**base, "task": task}
            indirect = self.step(
                "indirect", self.prompt("indirect"), shared, index, attempt, check=resolver.check_texts("paraphrase")
            )
            plan = self.step(
                "plan_clear", self.prompt("plan_clear"), shared, index, attempt, check=resolver.check_texts("plan")
            )
            plan_clear = clean_plan(plan.value["plan"])
            shared_calls = first.call_ids + indirect.call_ids + plan.call_ids
            paraphrase = indirect.value["paraphrase"].strip()
            candidates = []
            for c in range(self.candidates):
                candidate, draft, world = self.candidate(
                    c, index, attempt, ambiguity_type, shared, paraphrase, plan_clear, resolver
                )
                if draft is not None and world is not None:
                    candidate.item = self.to_item(
                        draft, ambiguity_type, scene, index, attempt, shared_calls + candidate.call_ids, world
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

    def environment_outcome(
        self, index: int, ambiguity_type: str, taken: AbstractSet[str] | None, first_attempt: int
    ) -> tuple[Item, int, dict[str, Any]]:
        """An environment-induced pair: the world draws both kitchens, the plans, the end of ambiguity and the
        intent (:mod:`.environment`); the model writes the instruction, paraphrase, question and answer in
        ``candidates`` variants, each resolved on both graphs and repaired, and the validators keep the best.
        Scenes that offer no pair of the type are drawn again without a call; a task in ``taken`` is asked
        for again in a new scene, up to ``max_attempts`` asked scenes."""
        asked, attempt = 0, first_attempt
        while asked < self.max_attempts and attempt < first_attempt + self.offline.max_attempts:
            drawn = self.offline.draw(index, ambiguity_type, attempt)
            attempt += 1
            if drawn is None:
                continue
            scene, _, plain, _ = drawn
            if taken is not None and signature(plain.unambiguous_direct) in taken:
                continue
            asked += 1
            short = render_environment(scene)[0]
            variables = environment.prompt_variables(plain, ambiguity_type, short)
            prompt = self.variant_prompt(ambiguity_type)

            item_of = partial(
                self.environment_item,
                ambiguity_type=ambiguity_type,
                scene=scene,
                index=index,
                attempt=attempt - 1,
                prompt=prompt,
            )
            check = environment.reply_check(plain, self.mentions, partial(item_of, call_ids=[]), self.ctx)
            candidates = []
            for c in range(self.candidates):
                try:
                    reply = self.step("ambiguous_variant", prompt, variables, index, attempt - 1, c, check=check)
                except BudgetExceeded:
                    raise
                except LLMError as exc:
                    candidates.append(Candidate(c, error=str(exc), stage=exc.stage))
                    continue
                draft = environment.worded(plain, reply.value, c)
                candidate = Candidate(c, call_ids=reply.call_ids)
                candidate.item = item_of(draft, call_ids=reply.call_ids)
                candidates.append(score(candidate, self.ctx))
            best = choose(candidates)
            meta = {"candidates": [c.record(c is best) for c in candidates], "shared_call_ids": []}
            if best is None or best.item is None:
                reasons = "; ".join(f"candidate {c.number}: {c.error}" for c in candidates)
                error = LLMError(f"pair {index}: every candidate failed: {reasons}")
                error.stage = candidates[0].stage or "llm"
                raise error
            if taken is not None and signature(best.item.unambiguous_direct) in taken:
                continue
            return best.item, attempt - 1, meta
        raise GenerationError(
            f"pair {index}: no {ambiguity_type} pair with a task not made before in {attempt - first_attempt} "
            f"sampled scenes ({asked} asked of the model)"
        )

    def environment_item(
        self,
        draft: Draft,
        ambiguity_type: str,
        scene: Scene,
        index: int,
        attempt: int,
        call_ids: list[str],
        prompt: Prompt,
    ) -> Item:
        """The item of an environment pair: its world is the one the draft was drawn with; one prompt made it."""
        assert draft.world is not None
        provenance = self.provenance(draft, index, attempt, [prompt], call_ids)
        return to_item(draft, ambiguity_type, draft.scene or scene, provenance, draft.world)

    def provenance(
        self, draft: Draft, index: int, attempt: int, prompts: list[Prompt], call_ids: list[str]
    ) -> Provenance:
        """Where an LLM item came from: the run, its pair and attempt, the models per step, the prompts used."""
        return provenance_of(
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

    def candidate(
        self,
        number: int,
        index: int,
        attempt: int,
        ambiguity_type: str,
        shared: dict[str, Any],
        paraphrase: str,
        plan: list[str],
        resolver: Resolver,
    ) -> tuple[Candidate, Draft | None, World | None]:
        """One ambiguous variant with its plan and intent, as a draft of the whole pair and its world; a failed
        step (a reply that does not resolve in the graph after its repairs included) makes a failed candidate
        (no draft), except a spent budget, which stops the pair."""
        calls: list[str] = []
        try:
            variant = self.step(
                "ambiguous_variant",
                self.variant_prompt(ambiguity_type),
                shared,
                index,
                attempt,
                number,
                check=resolver.check_variant,
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
                check=resolver.check_texts("plan"),
            )
            calls += rewrite.call_ids
            start = int(rewrite.value["ambiguity_starts_at_step"]) - 1
            end_step = plan[start] if 0 <= start < len(plan) else ""
            shortlist = [s.strip() for s in v["shortlist"]]
            intent = self.step(
                "intent",
                self.prompt("intent"),
                {**shared, **v, "end_step": end_step, "actions": self.actions},
                index,
                attempt,
                number,
                check=resolver.check_intent(shared["task"], v["ambiguous_task"], shortlist),
            )
            calls += intent.call_ids
        except BudgetExceeded:
            raise
        except LLMError as exc:
            return Candidate(number, error=str(exc), stage=exc.stage, call_ids=calls), None, None
        variants = [s.strip() for s in intent.value["variants"]]
        world = resolver.world(
            task=shared["task"],
            referent=intent.value["referent"],
            shortlist=shortlist,
            variants=variants,
            action=str(intent.value.get("action", NO_ACTION)),
        )
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
            variants=variants,
            amb_shortlist=shortlist,
            target=world.graph.node(world.target).name if world.target else None,
            end_of_ambiguity=max(start, 0),
        )
        return Candidate(number, call_ids=calls), draft, world

    def to_item(
        self,
        draft: Draft,
        ambiguity_type: str,
        scene: Scene,
        index: int,
        attempt: int,
        call_ids: list[str],
        world: World,
    ) -> Item:
        prompts = [self.prompt(p) for p in ("unambiguous_task", "indirect", "plan_clear")]
        prompts += [self.variant_prompt(ambiguity_type), self.prompt("plan_ambiguous"), self.prompt("intent")]
        provenance = self.provenance(draft, index, attempt, prompts, call_ids)
        return to_item(draft, ambiguity_type, scene, provenance, world)
