"""Common sense knowledge: the ambiguous task leaves out what any person would infer from the scene.

Three families:
- *where*: the fixed appliance that does the job ("Put the milk away" -> the fridge; "Toast the rye bread"
  -> the toaster on the counter);
- *which tool*: several tools of a kind, one made for the job ("Slice the rye bread with a knife" -> the
  bread knife);
- *which state*: several containers, some dirty ("Pour the milk into a mug" -> a clean one).
A robot cannot know these without world knowledge; a person would not ask. No shortlist (design.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.preferences import TEMPLATES as PREFERENCE_TEMPLATES
from ambiforge.generation.offline.templates import (
    Candidate,
    Predicate,
    Slots,
    Template,
    bind_co,
    bindable,
    co_predicates,
    is_clean,
    render,
    render_text,
)


@dataclass(frozen=True)
class Omission:
    """A task whose ambiguous form drops the place or device; ``{a}`` is the device when it is an object."""

    template: Template
    intent: str
    question: str
    answer: str


OMISSIONS: tuple[Omission, ...] = (
    Omission(
        Template(
            key="store_away",
            co={"f": ()},
            co_ok={"f": lambda o: o.needs_refrigeration is True},
            direct=("Put {f} in the fridge.", "Store {f} in the fridge."),
            ambiguous=("Put {f} away.", "Store {f}."),
            indirect=("Keep {fi} cold in the fridge.", "Get {fi} into the fridge."),
            plan=("Pick up {f}.", "Open the fridge.", "Put {f} in the fridge.", "Close the fridge."),
            plan_amb=("Pick up {f}.", "Put {f} away."),
        ),
        intent="fridge",
        question="Where should I put {f}?",
        answer="In the fridge.",
    ),
    Omission(
        Template(
            key="boil_water",
            co={"f": ("hot_drink",)},
            direct=("Boil water in the tea kettle for {f}.", "Heat water in the tea kettle for {f}."),
            ambiguous=("Boil water for {f}.", "Heat water for {f}."),
            indirect=("Get water boiling in the tea kettle so I can make {fb}.",),
            plan=(
                "Fill the tea kettle with water.",
                "Switch on the tea kettle.",
                "Wait until the water boils.",
                "Pour the water over {f}.",
            ),
            plan_amb=("Get some water.", "Boil the water.", "Pour the water over {f}."),
        ),
        intent="kettle",
        question="What should I boil the water in?",
        answer="In the tea kettle.",
    ),
    Omission(
        Template(
            key="reheat",
            co={"f": ("heatable",)},
            direct=("Reheat {f} in the microwave.", "Warm {f} up in the microwave."),
            ambiguous=("Reheat {f}.", "Warm {f} up."),
            indirect=("Make {fi} hot again in the microwave.",),
            plan=(
                "Pick up {f}.",
                "Put {f} in the microwave.",
                "Run the microwave for two minutes.",
                "Take {f} out of the microwave.",
            ),
            plan_amb=("Pick up {f}.", "Reheat {f}."),
        ),
        intent="microwave",
        question="How should I reheat {f}?",
        answer="In the microwave.",
    ),
    Omission(
        Template(
            key="cook_in_oven",
            co={"f": ("bakeable",)},
            co_ok={"f": lambda o: o.kind == "food"},
            direct=("Cook {f} in the oven.", "Roast {f} in the oven."),
            ambiguous=("Cook {f}.", "Roast {f}."),
            indirect=("Use the oven to cook {fi}.",),
            plan=("Preheat the oven.", "Put {f} in the oven.", "Take {f} out of the oven when {fis} cooked."),
            plan_amb=("Cook {f}.",),
        ),
        intent="oven",
        question="Where should I cook {f}?",
        answer="In the oven.",
    ),
    Omission(
        Template(
            key="toast",
            co={"f": ("toastable",), "a": ("toast",)},
            direct=("Toast {f} in {a}.", "Make toast from {f} in {a}."),
            ambiguous=("Toast {f}.", "Make toast from {f}."),
            indirect=("Use {a} to toast a slice of {fb}.",),
            plan=(
                "Cut a slice of {f}.",
                "Put the slice in {a}.",
                "Switch on {a}.",
                "Take the toast out of {a}.",
            ),
            plan_amb=("Cut a slice of {f}.", "Toast the slice."),
        ),
        intent="toaster",
        question="What should I toast {f} in?",
        answer="In {a}.",
    ),
    Omission(
        Template(
            key="smoothie",
            co={"f": ("blendable",), "a": ("blend",)},
            direct=("Make a smoothie from {f} in {a}.", "Blend {f} into a smoothie in {a}."),
            ambiguous=("Make a smoothie from {f}.", "Blend {f} into a smoothie."),
            indirect=("Use {a} to turn {fi} into a smoothie.",),
            plan=("Put {f} in {a}.", "Switch on {a}.", "Switch off {a} when it is smooth."),
            plan_amb=("Make a smoothie from {f}.",),
        ),
        intent="blender",
        question="What should I use to make the smoothie?",
        answer="Use {a}.",
    ),
    Omission(
        Template(
            key="juice",
            co={"f": ("juiceable",), "a": ("juice",)},
            direct=("Squeeze {f} in {a}.", "Press {f} in {a}."),
            ambiguous=("Squeeze {f}.", "Press {f}."),
            indirect=("Use {a} to squeeze {fi}.",),
            plan=("Cut {f} into pieces.", "Put the pieces in {a}.", "Switch on {a}."),
            plan_amb=("Cut {f} into pieces.", "Squeeze the pieces."),
        ),
        intent="juicer",
        question="What should I squeeze {f} with?",
        answer="Use {a}.",
    ),
    Omission(
        Template(
            key="coffee",
            co={"f": ("coffee",), "a": ("brew_coffee",)},
            direct=("Make coffee from {f} in {a}.", "Brew {f} in {a}."),
            ambiguous=("Make coffee from {f}.", "Brew {f}."),
            indirect=("Use {a} to brew a cup from {fi}.",),
            plan=("Fill {a} with water.", "Put {f} in {a}.", "Switch on {a}."),
            plan_amb=("Make coffee from {f}.",),
        ),
        intent="coffee maker",
        question="How should I make the coffee?",
        answer="In {a}.",
    ),
    Omission(
        Template(
            key="rice",
            co={"f": ("rice",), "a": ("cook_rice",)},
            direct=("Cook {f} in {a}.", "Make {fb} in {a}."),
            ambiguous=("Cook {f}.", "Make {fb}."),
            indirect=("Use {a} to cook {fi}.",),
            plan=("Rinse {f} in the sink.", "Put {f} in {a}.", "Add water to {a}.", "Switch on {a}."),
            plan_amb=("Rinse {f} in the sink.", "Cook {f}."),
        ),
        intent="rice cooker",
        question="What should I cook {f} in?",
        answer="In {a}.",
    ),
    Omission(
        Template(
            key="air_fry",
            co={"f": ("fryable",), "a": ("air_fry",)},
            direct=("Fry {f} in {a}.", "Crisp up {f} in {a}."),
            ambiguous=("Fry {f}.", "Crisp up {f}."),
            indirect=("Use {a} to fry {fi}.",),
            plan=("Put {f} in the basket of {a}.", "Switch on {a}.", "Take {f} out when {fis} golden."),
            plan_amb=("Fry {f}.",),
        ),
        intent="air fryer",
        question="What should I fry {f} in?",
        answer="In {a}.",
    ),
)


@dataclass(frozen=True)
class ToolUse:
    """A job with a tool made for it: among several tools of the group, the one whose ``uses`` has ``use``."""

    use: str
    food_tags: tuple[str, ...]
    direct: tuple[str, ...]
    indirect: str
    verb_step: str


TOOL_USES: tuple[ToolUse, ...] = (
    ToolUse(
        "slice_bread",
        ("bread",),
        ("Slice {f} with {t}.", "Cut {f} with {t}."),
        "Use {ti} to cut {fi}.",
        "Slice {f} with {t}.",
    ),
    ToolUse(
        "chop_vegetables",
        ("vegetable",),
        ("Chop {f} with {t}.",),
        "Use {ti} to chop {fi}.",
        "Chop {f} with {t}.",
    ),
    ToolUse(
        "peel_fruit",
        ("fruit",),
        ("Peel {f} with {t}.",),
        "Take the skin off {fi} with {ti}.",
        "Peel {f} with {t}.",
    ),
    ToolUse(
        "chop_meat",
        ("meat",),
        ("Cut {f} with {t}.", "Chop {f} with {t}."),
        "Use {ti} to cut up {fi}.",
        "Cut {f} with {t}.",
    ),
    ToolUse(
        "fillet_fish",
        ("fish",),
        ("Fillet {f} with {t}.",),
        "Use {ti} to fillet {fi}.",
        "Fillet {f} with {t}.",
    ),
    ToolUse(
        "spread",
        ("spreadable",),
        ("Spread {f} with {t}.",),
        "Use {ti} to spread {fi}.",
        "Spread {f} on a slice with {t}.",
    ),
    ToolUse("stir_tea", ("hot_drink",), ("Stir {f} with {t}.",), "Use {ti} to stir {fi}.", "Stir {f} with {t}."),
    ToolUse("eat_soup", ("soup",), ("Serve {f} with {t}.",), "Give me {fi} with {ti}.", "Put {t} next to {f}."),
    ToolUse(
        "serve_soup",
        ("soup",),
        ("Serve {f} with {t}.", "Ladle {f} out with {t}."),
        "Use {ti} to serve {fi}.",
        "Scoop {f} with {t}.",
    ),
    ToolUse(
        "peel_vegetables",
        ("peelable_vegetable",),
        ("Peel {f} with {t}.",),
        "Use {ti} to peel {fi}.",
        "Peel {f} with {t}.",
    ),
    ToolUse(
        "grate_cheese",
        ("gratable",),
        ("Grate {f} with {t}.",),
        "Use {ti} to grate {fi}.",
        "Grate {f} with {t}.",
    ),
    ToolUse(
        "flip_fish",
        ("fish",),
        ("Turn {f} over with {t}.",),
        "Use {ti} to flip {fi}.",
        "Turn {f} over with {t}.",
    ),
    ToolUse("check_meat", ("meat",), ("Check {f} with {t}.",), "Use {ti} to check {fi}.", "Check {f} with {t}."),
    ToolUse("eat_cake", ("cake",), ("Serve {f} with {t}.",), "Give me {fi} with {ti}.", "Put {t} next to {f}."),
    ToolUse("eat_salad", ("salad",), ("Serve {f} with {t}.",), "Give me {fi} with {ti}.", "Put {t} next to {f}."),
)

_DIRTY_KEYS = ("pour_into", "serve_on", "store_in", "make_tea")


def _draft(key: str, rendered, question: str, answer: str, intent: list[str], variants: list[str]) -> Draft:  # type: ignore[no-untyped-def]
    return Draft(
        template=f"common_sense_knowledge/{key}",
        unambiguous_direct=rendered.direct,
        unambiguous_indirect=rendered.indirect,
        ambiguous_task=rendered.ambiguous,
        question=question,
        answer=answer,
        plan_for_clear_task=rendered.plan_clear,
        plan_for_amb_task=rendered.plan_amb,
        user_intent=intent,
        variants=variants,
    )


def _build_omission(spec: Omission, scene: Scene, rng: random.Random) -> Draft | None:
    co = bind_co(spec.template, list(scene.objects), rng, None)
    if co is None:
        return None
    slots = Slots(None, None, co)
    rendered = render(spec.template, slots, rng)
    if phrases.mentions(rendered.ambiguous, spec.intent):
        return None
    device = co["a"].name if "a" in co else spec.intent
    return _draft(
        spec.template.key,
        rendered,
        render_text(spec.question, slots),
        render_text(spec.answer, slots),
        [spec.intent],
        [device],
    )


def _tool_template(spec: ToolUse) -> Template:
    return Template(
        key=f"tool_{spec.use}",
        co={"f": spec.food_tags},
        direct=spec.direct,
        indirect=(spec.indirect,),
        plan=("Put {f} on the kitchen table.", "Pick up {t}.", spec.verb_step, "Put {t} in the sink."),
    )


def _build_tool(spec: ToolUse, group: Group, tool: CatalogObject, scene: Scene, rng: random.Random) -> Draft | None:
    template = _tool_template(spec)
    co = bind_co(template, list(scene.objects), rng, group.key)
    if co is None:
        return None
    rendered = render(template, Slots(tool, group, co), rng)
    question = f"Which {group.noun} should I use?"
    return _draft(template.key, rendered, question, f"The {tool.name}.", [tool.name], [tool.name])


def _build_clean(
    template: Template, group: Group, clean: list[CatalogObject], scene: Scene, rng: random.Random
) -> Draft | None:
    co = bind_co(template, list(scene.objects), rng, group.key)
    if co is None:
        return None
    target = clean[rng.randrange(len(clean))]
    rendered = render(template, Slots(target, group, co), rng)
    if phrases.mentions(rendered.direct, "dirty"):
        return None
    intent = ["|".join(o.modifier for o in clean), "-dirty"]
    question = f"Which {group.noun} should I use?"
    answer = f"Any clean one, for example the {target.name}; not the dirty one."
    return _draft(f"clean_{template.key}", rendered, question, answer, intent, [o.name for o in clean])


def candidates(scene: Scene, catalog: Catalog) -> list[Candidate]:
    out: list[Candidate] = []
    pool = list(scene.objects)
    for spec in OMISSIONS:
        if bindable(spec.template, pool):
            out.append(Candidate(f"common_sense_knowledge/{spec.template.key}", partial(_build_omission, spec, scene)))
    for gkey in scene.groups():
        group = catalog.groups[gkey]
        members = scene.in_group(gkey)
        if len(members) < 2:
            continue
        for spec in TOOL_USES:
            fit = [m for m in members if spec.use in m.uses]
            if len(fit) == 1 and bindable(_tool_template(spec), pool, gkey):
                out.append(
                    Candidate(
                        f"common_sense_knowledge/tool_{spec.use}",
                        partial(_build_tool, spec, group, fit[0], scene),
                    )
                )
        clean = [m for m in members if is_clean(m)]
        if clean and len(clean) < len(members):
            for template in PREFERENCE_TEMPLATES:
                if template.key in _DIRTY_KEYS and any(any(m.has(t) for t in template.target_tags) for m in clean):
                    fit = [m for m in clean if any(m.has(t) for t in template.target_tags) and template.target_ok(m)]
                    if fit and bindable(template, pool, gkey):
                        out.append(
                            Candidate(
                                f"common_sense_knowledge/clean_{template.key}",
                                partial(_build_clean, template, group, fit, scene),
                            )
                        )
    return out


def requirements() -> dict[str, list[Predicate]]:
    """Per template: what the scene must hold, so the generator can steer sampling toward it."""
    req: dict[str, list[Predicate]] = {}
    for spec in OMISSIONS:
        req[f"common_sense_knowledge/{spec.template.key}"] = co_predicates(spec.template)
    for tool in TOOL_USES:
        req[f"common_sense_knowledge/tool_{tool.use}"] = [
            lambda o, u=tool.use: u in o.uses,
            *co_predicates(_tool_template(tool)),
        ]
    for template in PREFERENCE_TEMPLATES:
        if template.key in _DIRTY_KEYS:
            req[f"common_sense_knowledge/clean_{template.key}"] = [
                lambda o, t=template: o.clean is False and any(o.has(tag) for tag in t.target_tags),
                *co_predicates(template),
            ]
    return req
