"""Preferences: the scene holds several objects of one group and only the user knows which one is meant.

The unambiguous task names one object ("the glass mug"); the ambiguous task uses the group noun ("a mug").
The shortlist is the group's objects in the scene that fit the action, the intent is the word that tells the
chosen one apart ("glass"), and the question offers the shortlist. A good agent always asks.
"""

from __future__ import annotations

import random
from functools import partial

from ambiforge.catalog import Catalog, CatalogObject, Group
from ambiforge.environment import Scene
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
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
    target_predicate,
)

_WASHABLE = (
    "drinkware",
    "tableware",
    "cutlery",
    "cookware",
    "utensil",
    "container",
    "bakeware",
    "strainer",
    "board",
)

TEMPLATES: tuple[Template, ...] = (
    Template(
        key="pour_into",
        target_tags=("drinkware", "drink_server"),
        co={"f": ("drink",)},
        direct=("Pour {f} into {t}.", "Fill {t} with {f}."),
        indirect=("Put some of {fi} in {ti}.", "Top up {ti} with {fi}."),
        plan=(
            "Pick up {t}.",
            "Put {t} on the kitchen table.",
            "Pick up {f}.",
            "Pour {f} into {t}.",
            "Put {f} back.",
        ),
    ),
    Template(
        key="bring",
        direct=("Bring me {t}.", "Hand me {t}.", "Give me {t}."),
        indirect=("Fetch {ti} for me.", "Get {ti} and pass it to me."),
        plan=("Find {t}.", "Pick up {t}.", "Give {t} to the user."),
    ),
    Template(
        key="to_table",
        direct=("Put {t} on the kitchen table.", "Place {t} on the kitchen table."),
        indirect=("Move {ti} onto the kitchen table.", "Set {ti} down on the kitchen table."),
        plan=("Pick up {t}.", "Carry {t} to the kitchen table.", "Put {t} on the kitchen table."),
    ),
    Template(
        key="dishwasher",
        target_tags=_WASHABLE,
        target_ok=lambda o: o.dishwasher_safe is True,
        direct=("Put {t} in the dishwasher.", "Load {t} into the dishwasher."),
        indirect=("Let the dishwasher clean {ti}.", "Get {ti} into the dishwasher."),
        plan=("Open the dishwasher.", "Pick up {t}.", "Put {t} in the dishwasher.", "Close the dishwasher."),
    ),
    Template(
        key="rinse",
        target_tags=_WASHABLE,
        direct=("Rinse {t} in the sink.", "Wash {t} in the sink."),
        indirect=("Give {ti} a rinse under the tap.", "Clean {ti} with water at the sink."),
        plan=(
            "Pick up {t}.",
            "Carry {t} to the sink.",
            "Rinse {t} with water.",
            "Put {t} on the kitchen table to dry.",
        ),
    ),
    Template(
        key="make_tea",
        target_tags=("hot_drinkware", "teaware"),
        target_ok=lambda o: o.heat_resistant is not False,
        co={"f": ("hot_drink",)},
        direct=("Make {fb} in {t}.", "Brew {fb} in {t}."),
        indirect=("Prepare some hot {fb} using {ti}.", "Use {ti} to make some {fb}."),
        plan=(
            "Fill the tea kettle with water.",
            "Boil the water in the tea kettle.",
            "Put {f} in {t}.",
            "Pour the hot water into {t}.",
            "Give {t} to the user.",
        ),
    ),
    Template(
        key="serve_on",
        target_tags=("tableware",),
        co={"f": ("snack", "sweets", "fruit", "vegetable")},
        direct=("Put {f} {p} {t}.", "Serve {f} {p} {t}."),
        indirect=("Arrange {fi} {p} {ti}.", "Set out {fi} {p} {ti}."),
        plan=("Pick up {t}.", "Put {t} on the kitchen table.", "Pick up {f}.", "Put {f} {p} {t}."),
    ),
    Template(
        key="store_in",
        target_tags=("container", "storage"),
        co={"f": ("snack", "fruit", "vegetable", "sweets", "cereal", "meat", "fish", "soup", "dairy", "bread")},
        direct=("Put {f} in {t}.", "Pack {f} into {t}."),
        indirect=("Transfer {fi} into {ti}.", "Keep {fi} in {ti}."),
        plan=("Pick up {t}.", "Open {t}.", "Put {f} in {t}.", "Close {t}."),
    ),
    Template(
        key="wipe_table",
        target_tags=("cleaning",),
        target_ok=is_clean,
        direct=("Wipe the kitchen table with {t}.", "Clean the kitchen table with {t}."),
        indirect=("Use {ti} to wipe down the kitchen table.",),
        plan=("Pick up {t}.", "Wet {t} in the sink.", "Wipe the kitchen table with {t}.", "Put {t} back."),
    ),
    Template(
        key="rinse_in",
        target_tags=("strainer",),
        co={"f": ("fruit", "vegetable")},
        direct=("Rinse {f} in {t}.", "Wash {f} in {t}."),
        indirect=("Put {fi} in {ti} and rinse it under the tap.",),
        plan=(
            "Put {t} in the sink.",
            "Put {f} in {t}.",
            "Rinse {f} with cold water.",
            "Let {f} drain in {t}.",
        ),
    ),
    Template(
        key="bake_in",
        target_tags=("bakeware",),
        target_ok=lambda o: o.oven_safe is True,
        co={"f": ("bakeable",)},
        direct=("Put {f} {p} {t} and bake {fit} in the oven.", "Bake {f} in the oven {p} {t}."),
        indirect=("Cook {fi} in the oven using {ti}.",),
        plan=(
            "Preheat the oven.",
            "Put {f} {p} {t}.",
            "Put {t} in the oven.",
            "Take {t} out when the food is done.",
        ),
    ),
    Template(
        key="fridge_out",
        target_ok=lambda o: o.needs_refrigeration is True,
        direct=("Take {t} out of the fridge.", "Get {t} out of the fridge."),
        indirect=("Bring {ti} out of the fridge.", "Fetch {ti} from the fridge."),
        plan=(
            "Open the fridge.",
            "Take {t} out of the fridge.",
            "Close the fridge.",
            "Put {t} on the kitchen table.",
        ),
    ),
    Template(
        key="fridge_in",
        target_ok=lambda o: o.needs_refrigeration is True,
        direct=("Put {t} in the fridge.", "Store {t} in the fridge."),
        indirect=("Keep {ti} cold in the fridge.",),
        plan=("Pick up {t}.", "Open the fridge.", "Put {t} in the fridge.", "Close the fridge."),
    ),
    Template(
        key="pour_drink",
        target_tags=("drink",),
        co={"f": ("drinkware",)},
        co_ok={"f": is_clean},
        direct=("Pour {t} into {f}.", "Fill {f} with {t}."),
        indirect=("Serve {ti} in {fi}.", "Put {ti} in {fi} for me."),
        plan=("Pick up {f}.", "Pick up {t}.", "Pour {t} into {f}.", "Put {t} back."),
    ),
    Template(
        key="spread",
        target_tags=("spreadable",),
        co={"f": ("bread",)},
        direct=("Spread {t} on {f}.", "Put {t} on a slice of {fb}."),
        indirect=("Cover a slice of {fb} with {ti}.",),
        plan=("Pick up {f}.", "Cut a slice of {f}.", "Pick up {t}.", "Spread {t} on the slice."),
    ),
    Template(
        key="heat",
        target_tags=("heatable",),
        direct=("Heat {t} in the microwave.", "Warm up {t} in the microwave."),
        indirect=("Use the microwave to warm {ti}.",),
        plan=(
            "Pick up {t}.",
            "Put {t} in the microwave.",
            "Switch on the microwave.",
            "Take {t} out when it is hot.",
        ),
    ),
    Template(
        key="slice",
        target_tags=("sliceable",),
        direct=("Cut {t} into slices.", "Slice {t}."),
        indirect=("Make slices out of {ti}.",),
        plan=("Pick up {t}.", "Put {t} on the kitchen table.", "Cut {t} into slices."),
    ),
    Template(
        key="serve_snack",
        target_tags=("snack", "cereal"),
        co={"f": ("tableware", "container")},
        co_ok={"f": is_clean},
        direct=("Put {t} {fp} {f}.", "Serve {t} {fp} {f}."),
        indirect=("Set out {ti} {fp} {fi}.",),
        plan=("Pick up {f}.", "Pick up {t}.", "Put {t} {fp} {f}.", "Give {f} to the user."),
    ),
    Template(
        key="peel",
        target_tags=("peelable",),
        direct=("Peel {t}.", "Peel {t} for me."),
        indirect=("Take the skin off {ti}.",),
        plan=("Pick up {t}.", "Peel {t}.", "Put {t} on the kitchen table."),
    ),
    Template(
        key="blend",
        target_tags=("blendable",),
        co={"f": ("blend",)},
        direct=("Blend {t} in {f}.", "Make a smoothie from {t} in {f}."),
        indirect=("Use {f} to blend {ti}.",),
        plan=("Pick up {t}.", "Put {t} in {f}.", "Switch on {f}.", "Switch off {f} when it is smooth."),
    ),
)

_Q_ITEM = (
    "Which {noun} should I use: {options}?",
    "Which {noun} do you mean: {options}?",
    "Do you want {options}?",
    "There are several {nouns} here: {options}. Which one?",
)
_Q_FOOD = (
    "Which {noun} would you like: {options}?",
    "Which {noun} do you mean: {options}?",
    "Do you want {options}?",
)
_A_ONE = ("The {name}.", "Use the {name}.", "I'd like the {name}, please.", "The {modifier} one.")
_A_PLURAL = ("The {name}.", "The {name}, please.", "I mean the {name}.")


def question_and_answer(
    group: Group, target: CatalogObject, shortlist: list[CatalogObject], rng: random.Random
) -> tuple[str, str]:
    options = phrases.join_or([o.name for o in shortlist])
    q_forms = _Q_FOOD if group.kind == "food" else _Q_ITEM
    question = phrases.pick(rng, q_forms).format(noun=group.noun, nouns=phrases.plural(group.noun), options=options)
    a_forms = _A_PLURAL if target.plural or target.modifier == target.name else _A_ONE
    answer = phrases.pick(rng, a_forms).format(name=target.name, modifier=target.modifier)
    return question, answer


def _build(
    template: Template, group: Group, members: list[CatalogObject], scene: Scene, rng: random.Random
) -> Draft | None:
    co = bind_co(template, list(scene.objects), rng, group.key)
    if co is None:
        return None
    target = members[rng.randrange(len(members))]
    rendered = render(template, Slots(target, group, co), rng)
    # The distinguishing word must be what the ambiguous task leaves out, and every option must have one.
    if len({m.modifier.lower() for m in members}) < len(members):
        return None
    if any(phrases.mentions(rendered.ambiguous, m.modifier) for m in members):
        return None
    question, answer = question_and_answer(group, target, members, rng)
    return Draft(
        template=f"preferences/{template.key}",
        unambiguous_direct=rendered.direct,
        unambiguous_indirect=rendered.indirect,
        ambiguous_task=rendered.ambiguous,
        question=question,
        answer=answer,
        plan_for_clear_task=rendered.plan_clear,
        plan_for_amb_task=rendered.plan_amb,
        user_intent=[target.modifier],
        variants=[m.name for m in members],
        amb_shortlist=[m.name for m in members],
    )


def candidates(scene: Scene, catalog: Catalog) -> list[Candidate]:
    out: list[Candidate] = []
    for gkey in scene.groups():
        group = catalog.groups[gkey]
        if "small_appliance" in group.tags:
            continue  # a toaster and a blender are not alternatives to one another
        for template in TEMPLATES:
            members = [
                o
                for o in scene.in_group(gkey)
                if is_clean(o)
                and template.target_ok(o)
                and (not template.target_tags or any(o.has(t) for t in template.target_tags))
            ]
            if len(members) >= 2 and bindable(template, list(scene.objects), gkey):
                out.append(Candidate(f"preferences/{template.key}", partial(_build, template, group, members, scene)))
    return out


def requirements() -> dict[str, list[Predicate]]:
    """Per template: what the scene must hold (target first), so the generator can steer sampling."""
    return {
        f"preferences/{t.key}": [lambda o, t=t: is_clean(o) and target_predicate(t)(o), *co_predicates(t)]
        for t in TEMPLATES
    }
