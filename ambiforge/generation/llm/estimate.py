"""What an LLM build would cost, before paying for it: calls, tokens and USD per step and model.

The estimate is a model of the calls :class:`~ambiforge.generation.llm.LLMGenerator` makes, not a table of
constants. A few pairs of the build's own plan (their types, seeds and indices) are drawn from the offline
sampler: the scene each pair's first attempt would show the model (the same draw the LLM generator makes)
and the offline generator's texts for that pair. Each step's prompt is rendered with those variables,
exactly as the generator renders it, and counted; the reply is modelled as the step's JSON filled with the
offline pair's texts (a task, a paraphrase, a plan, ...), capped at the step's ``max_tokens``. Then:

- calls per pair: one per shared step, ``candidates`` per candidate step (the variant, its plan, its intent);
  an environment-induced pair makes only its variant call (its kitchens and plans come from the world);
- repairs: the figures assume every reply is usable the first time; how much :data:`REPAIR_RATE` of the
  calls asked again would add (a repair turn resends the conversation with the bad reply and the error; a
  duplicate task is asked again in a new scene) is given beside them, since the rate depends on the model;
- tokens: ``tiktoken`` when it is installed, else :data:`CHARS_PER_TOKEN` characters a token (OpenAI's
  rule of thumb for English), plus :data:`MESSAGE_OVERHEAD` tokens a message for the chat format;
- cost: ``[llm.prices]`` per million tokens; a model without a price is named and its calls are not
  counted (as the build counts them: free, with a warning).

Limits: replies of real models vary in length and repairs depend on the model; the judge stage's calls are
not estimated; a resumed run pays only for calls not in the cache, the estimate assumes none are.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ambiforge import ambiguity
from ambiforge.catalog import Catalog
from ambiforge.catalog.affordances import cached_affordances
from ambiforge.config.llm import LLMConfig
from ambiforge.config.sampler import SamplerConfig
from ambiforge.environment import render_environment
from ambiforge.errors import GenerationError
from ambiforge.generation.grounding import scene_graph
from ambiforge.generation.llm import environment
from ambiforge.generation.llm.generator import clean_plan
from ambiforge.generation.offline import OfflineGenerator
from ambiforge.llm.prompts import Prompt, load_prompt
from ambiforge.models import Item
from ambiforge.world.prompt_view import prompt_view

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Share of calls asked again (repair turns, a duplicate task asked for in a new scene) for the figure
#: given beside the estimate: what repairs would add, not a rate known in advance.
REPAIR_RATE = 0.10
#: Characters a token when tiktoken is not installed (OpenAI's rule of thumb for English text).
CHARS_PER_TOKEN = 4.0
#: Tokens a chat message adds for its role and separators (OpenAI's chat format adds about 3-4).
MESSAGE_OVERHEAD = 4
#: Pairs of the plan whose prompts are rendered and counted (spread over the plan).
SAMPLE_PAIRS = 12
#: The generator's steps: shared by a pair, or made once per candidate.
SHARED_STEPS = ("unambiguous_task", "indirect", "plan_clear")
CANDIDATE_STEPS = ("ambiguous_variant", "plan_ambiguous", "intent")
#: The repair turn's instruction (:data:`ambiforge.llm.ask.REPAIR` with a typical error), in tokens.
REPAIR_TURN_TOKENS = 40


@dataclass(frozen=True)
class StepEstimate:
    step: str
    provider: str
    model: str
    calls: float
    input_tokens: float
    output_tokens: float
    cost_usd: float | None  # None: the model has no price


@cache
def _encoder() -> Callable[[str], int] | None:
    try:
        import tiktoken
    except ImportError:
        return None
    encoding = tiktoken.get_encoding("o200k_base")
    return lambda text: len(encoding.encode(text))


def count_tokens(text: str) -> int:
    encode = _encoder()
    return encode(text) if encode is not None else math.ceil(len(text) / CHARS_PER_TOKEN)


def token_method() -> str:
    return "tiktoken (o200k_base)" if _encoder() is not None else f"{CHARS_PER_TOKEN:g} characters a token"


def _messages_tokens(messages: Sequence[tuple[str, str]]) -> int:
    return sum(count_tokens(content) + MESSAGE_OVERHEAD for _, content in messages)


@dataclass(frozen=True)
class _PairSample:
    """One pair as the steps would see it: their variables and a reply of typical size for each."""

    variables: dict[str, dict[str, Any]]
    replies: dict[str, dict[str, Any]]


def _sample(
    catalog: Catalog, limits: SamplerConfig, seed: int, index: int, ambiguity_type: str, offline: OfflineGenerator
) -> _PairSample:
    rng = random.Random(f"{seed}:{index}:0")  # the LLM generator's first attempt at this pair
    scene, _ = offline.steering.scene(rng, ambiguity_type)
    graph = scene_graph(scene, seed, index, 0)
    short, full = render_environment(scene)
    item: Item = offline.generate(index, ambiguity_type)[0]
    if environment.is_environment(ambiguity_type):
        words = {"task": item.unambiguous_direct, "paraphrase": item.unambiguous_indirect}
        return _PairSample(
            variables={"ambiguous_variant": environment.prompt_variables(item, ambiguity_type, item.environment_short)},
            replies={"ambiguous_variant": words | {"question": item.question, "answer": item.answer}},
        )
    base = {"environment_short": short, "environment_full": full, "ambiguity_type": ambiguity_type}
    base["world"] = prompt_view(graph)
    shared = {**base, "task": item.unambiguous_direct}
    plan = clean_plan(item.plan_for_clear_task)
    variant = {
        "ambiguous_task": item.ambiguous_task,
        "question": item.question,
        "answer": item.answer,
        "shortlist": item.amb_shortlist,
    }
    end_step = plan[item.end_of_ambiguity] if item.end_of_ambiguity < len(plan) else ""
    actions = [(name, a.description) for name, a in sorted(cached_affordances().actions.items())]
    referent = item.variants[0] if item.variants else item.ambiguous_task.split()[-1]
    return _PairSample(
        variables={
            "unambiguous_task": {**base, "ambiguity_steering": ambiguity.get(ambiguity_type).llm_steering},
            "indirect": shared,
            "plan_clear": shared,
            "ambiguous_variant": shared,
            "plan_ambiguous": {**shared, "plan_clear": plan, "ambiguous_task": item.ambiguous_task},
            "intent": {**shared, **variant, "end_step": end_step, "actions": actions},
        },
        replies={
            "unambiguous_task": {"task": item.unambiguous_direct},
            "indirect": {"paraphrase": item.unambiguous_indirect or item.unambiguous_direct},
            "plan_clear": {"plan": plan},
            "ambiguous_variant": variant,
            "plan_ambiguous": {
                "plan": clean_plan(item.plan_for_amb_task),
                "ambiguity_starts_at_step": item.end_of_ambiguity + 1,
            },
            "intent": {
                "user_intent": item.user_intent,
                "variants": item.variants,
                "referent": referent,
                "action": actions[0][0],
            },
        },
    )


def _prompt(llm: LLMConfig, step: str, ambiguity_type: str) -> Prompt:
    if step == "ambiguous_variant":
        kind = ambiguity.get(ambiguity_type)
        return load_prompt(kind.variant_prompt_id, llm.prompts_dir, str(kind.prompts_dir))
    return load_prompt(step, llm.prompts_dir)


def _makes(ambiguity_type: str, step: str) -> bool:
    """Whether a pair of the type makes the step's call: an environment-induced pair makes only the variant
    (:mod:`.environment`: the world draws its kitchens and plans)."""
    return step == "ambiguous_variant" or not environment.is_environment(ambiguity_type)


def estimate_steps(
    llm: LLMConfig,
    catalog: Catalog,
    limits: SamplerConfig,
    seed: int,
    plan: Sequence[tuple[int, str]],
    candidates: int,
    repair_rate: float = 0.0,
) -> list[StepEstimate]:
    """Per step, over every pair of ``plan`` ((index, ambiguity type) in build order): the expected calls,
    tokens and cost when ``repair_rate`` of the calls are asked again. The prompts of up to
    :data:`SAMPLE_PAIRS` pairs spread over the plan are rendered."""
    if not plan:
        return []
    chosen = sorted({round(i * (len(plan) - 1) / max(SAMPLE_PAIRS - 1, 1)) for i in range(SAMPLE_PAIRS)})
    offline = OfflineGenerator(catalog, seed, "estimate", limits)
    samples: list[tuple[str, _PairSample]] = []
    for position in chosen:
        index, kind = plan[position]
        try:
            samples.append((kind, _sample(catalog, limits, seed, index, kind, offline)))
        except GenerationError:
            continue  # a type the offline sampler cannot draw here; the others stand for it
    if not samples:
        raise GenerationError("no pair of this build could be sampled offline to estimate its prompts")
    out: list[StepEstimate] = []
    for step in (*SHARED_STEPS, *CANDIDATE_STEPS):
        settings = llm.steps[step]
        inputs, outputs = [], []
        for kind, sample in samples:
            if step not in sample.variables:
                continue  # an environment-induced pair makes only its variant call
            messages = _prompt(llm, step, kind).render(sample.variables[step])
            reply = min(count_tokens(json.dumps(sample.replies[step], ensure_ascii=False)), settings.max_tokens)
            first = _messages_tokens(messages)
            # a repair resends the prompt with the bad reply and the error after it
            repair = first + reply + MESSAGE_OVERHEAD + REPAIR_TURN_TOKENS + MESSAGE_OVERHEAD
            inputs.append((first + repair_rate * repair) / (1 + repair_rate))
            outputs.append(reply)
        making = sum(1 for _, kind in plan if _makes(kind, step))
        if not inputs or not making:
            continue
        per_pair = candidates if step in CANDIDATE_STEPS else 1
        calls = making * per_pair * (1 + repair_rate)
        input_tokens = calls * sum(inputs) / len(inputs)
        output_tokens = calls * sum(outputs) / len(outputs)
        price = llm.prices.get(settings.model)
        cost = None if price is None else (input_tokens * price.input + output_tokens * price.output) / 1_000_000
        out.append(StepEstimate(step, settings.provider, settings.model, calls, input_tokens, output_tokens, cost))
    return out


def _row(calls: int, input_tokens: int, output_tokens: int, cost: float | None) -> dict[str, Any]:
    return {"calls": calls, "input_tokens": input_tokens, "output_tokens": output_tokens, "cost_usd": cost}


def record_of(steps: Sequence[StepEstimate], repaired: Sequence[StepEstimate]) -> dict[str, Any]:
    """``steps``, ``per_model``, ``totals`` (counts rounded per step, the others their sums, so the table
    adds up), ``with_repairs`` (the totals of ``repaired``, the same steps with :data:`REPAIR_RATE` of the
    calls asked again), ``models_without_price`` and the ``assumptions`` the figures rest on."""
    rows = {
        s.step: {
            "provider": s.provider,
            "model": s.model,
            **_row(round(s.calls), round(s.input_tokens), round(s.output_tokens), _usd(s.cost_usd)),
        }
        for s in steps
    }
    per_model: dict[str, dict[str, Any]] = {}
    for r in rows.values():
        into = per_model.setdefault(f"{r['provider']}/{r['model']}", _row(0, 0, 0, 0.0))
        for key in ("calls", "input_tokens", "output_tokens"):
            into[key] += r[key]
        into["cost_usd"] = None if None in (into["cost_usd"], r["cost_usd"]) else into["cost_usd"] + r["cost_usd"]
    for into in per_model.values():
        into["cost_usd"] = _usd(into["cost_usd"])
    totals = _row(
        sum(r["calls"] for r in rows.values()),
        sum(r["input_tokens"] for r in rows.values()),
        sum(r["output_tokens"] for r in rows.values()),
        _usd(sum((s.cost_usd or 0.0 for s in steps), 0.0)),
    )
    assumptions = [
        f"prompts rendered for up to {SAMPLE_PAIRS} pairs of this build's plan, scenes and texts from the "
        "offline sampler",
        f"tokens counted with {token_method()}, plus {MESSAGE_OVERHEAD} a message",
        "replies as long as the offline pair's texts in the step's JSON (at most the step's max_tokens)",
        "every reply usable the first time (no repairs), no call served from the cache",
        "the judge stage's calls are not included",
    ]
    return {
        "steps": rows,
        "per_model": per_model,
        "totals": totals,
        "with_repairs": {
            "repair_rate": REPAIR_RATE,
            "calls": sum(round(s.calls) for s in repaired),
            "cost_usd": _usd(sum(s.cost_usd or 0.0 for s in repaired)),
        }
        if repaired
        else None,
        "models_without_price": sorted({s.model for s in steps if s.cost_usd is None}),
        "assumptions": assumptions if steps else [],
    }


def _usd(cost: float | None) -> float | None:
    return None if cost is None else round(cost, 6)
