"""Rendering a template's texts for concrete objects, and binding co-slots to objects of a scene.

The ambiguous task is the direct task with only the target slot rewritten ("the glass mug" -> "a mug")
or an explicit ambiguous wording ("Put the milk away."). Plans are rendered the same way, so the two plans
agree until the step the ambiguity touches. Slot names are documented in :mod:`.spec`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from ambiforge.catalog import APPLIANCES, Catalog, CatalogObject, Group
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.spec import TemplateSpec as Template
from ambiforge.generation.offline.steps import BoundSteps


@dataclass(frozen=True)
class Slots:
    """Concrete objects bound to a template's slots."""

    target: CatalogObject | None
    group: Group | None
    co: Mapping[str, CatalogObject]

    @cached_property
    def plain(self) -> dict[str, str]:
        """The text of every slot as a plan says it ("the glass mug"), worked out once for the bound
        objects: a template's texts, plan and rationale are all rendered from it (read it, never change it)."""
        values: dict[str, str] = {}
        for slot, obj in self.co.items():
            values[slot] = phrases.the(obj)
            values[f"{slot}i"] = phrases.indirect(obj)
            values[f"{slot}b"] = obj.name
            values[f"{slot}p"] = phrases.preposition(obj.noun)
            values[f"{slot}it"] = "them" if obj.plural else "it"
            values[f"{slot}is"] = "they are" if obj.plural else "it is"
            values[f"{slot}are"] = "are" if obj.plural else "is"
        if self.target is not None and self.group is not None:
            t, g = self.target, self.group
            values["p"] = phrases.preposition(g.noun)
            values["ti"] = phrases.indirect(t)
            values["t"] = phrases.the(t)
            values["tb"] = t.name
        return values


_PLURAL_DEMONSTRATIVE = {"this": "these", "that": "those"}


def _agreeing(determiner: str, obj: CatalogObject) -> str:
    """The determiner in number with its object: "those baby carrots", not "that baby carrots"."""
    return _PLURAL_DEMONSTRATIVE.get(determiner, determiner) if obj.plural else determiner


def slot_values(
    slots: Slots,
    ambiguous: bool = False,
    first: bool = True,
    paraphrase: random.Random | None = None,
    determiners: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The text of every slot for ``slots`` (see :mod:`.spec` for the names); ``determiners``: the word a
    co-slot's object is named with in a task ("my", "that"; "the" when not given, as in every plan);
    ``paraphrase``: draw the ``{ti}``/``{fi}`` references from the phrase table with this generator."""
    values = dict(slots.plain)
    if determiners or paraphrase is not None:
        for slot, obj in slots.co.items():
            if determiners and slot in determiners:
                values[slot] = f"{_agreeing(determiners[slot], obj)} {obj.name}"
            if paraphrase is not None:
                values[f"{slot}i"] = phrases.indirect(obj, paraphrase)
    t, g = slots.target, slots.group
    if t is not None and g is not None:
        if paraphrase is not None:
            values["ti"] = phrases.indirect(t, paraphrase)
        if ambiguous:
            values["t"] = phrases.some(g) if first else phrases.the_noun(g)
            values["tb"] = g.noun
        elif determiners and "t" in determiners:
            values["t"] = f"{_agreeing(determiners['t'], t)} {t.name}"
    return values


def render_text(
    text: str,
    slots: Slots,
    ambiguous: bool = False,
    first: bool = True,
    paraphrase: random.Random | None = None,
    determiners: Mapping[str, str] | None = None,
) -> str:
    """``text`` with its slots filled; ``paraphrase``: draw the ``{ti}``/``{fi}`` references from the phrase
    table with this generator (without it they take the table's first form)."""
    if not ambiguous and paraphrase is None and not determiners:
        return text.format(**slots.plain)
    return text.format(**slot_values(slots, ambiguous, first, paraphrase, determiners))


def rationale(template: Template, slots: Slots, name: str, noun: str) -> str | None:
    """The template's ``why`` with its slots filled (``{name}``: the intended one, ``{noun}``: the words
    that leave it open); None when the template gives none."""
    why = getattr(template, "why", "")
    if not why:
        return None
    return str(why.format(**{**slots.plain, "name": name, "noun": noun}))


def name_fixtures(text: str, determiners: Mapping[str, str]) -> str:
    """``text`` with "the fridge" said as "our fridge" where ``determiners`` says so (per fixture, drawn
    once per task so that the direct and the ambiguous task say the same; plans keep "the")."""
    for fixture, word in determiners.items():
        if word != "the":
            text = text.replace(f"the {fixture}", f"{word} {fixture}")
    return text


def draw_fixture_determiners(rng: random.Random) -> dict[str, str]:
    """A determiner per fixture of every kitchen (phrases.yaml ``words.fixture_determiner``)."""
    options = phrases.word_lists()["fixture_determiner"]
    return {fixture: phrases.pick(rng, options) for fixture in APPLIANCES}


def draw_determiners(slots: Slots, rng: random.Random) -> dict[str, str]:
    """A determiner per co-slot for a task's text (phrases.yaml ``words.determiner``): people say "my
    butter" and "that pan" as often as "the"; the direct and the ambiguous task share them."""
    options = phrases.word_lists()["determiner"]
    names = [*slots.co, *(["t"] if slots.target is not None else [])]
    return {slot: phrases.pick(rng, options) for slot in names}


@dataclass(frozen=True)
class Rendered:
    """The template's texts for bound slots; the plan is its steps bound to the slots' objects (built into
    actions on the graph and rendered from them by :mod:`.planning`), ``amb_tail`` an omission's own
    ambiguous steps."""

    direct: str
    indirect: str
    ambiguous: str
    clause: BoundSteps
    amb_tail: list[str]


def bound_steps(template: Template, slots: Slots) -> BoundSteps:
    """The template's plan with its slots bound to the objects' names, its values the slots' texts."""
    binding = {slot: obj.name for slot, obj in slots.co.items()}
    if slots.target is not None:
        binding["t"] = slots.target.name
    setup = {binding[slot]: place for slot, place in template.setup.items() if slot in binding}
    used = frozenset(binding[slot] for slot in template.used if slot in binding)
    return BoundSteps(template.plan, binding, slots.plain, setup, used=used)


def render(template: Template, slots: Slots, rng: random.Random) -> Rendered:
    """The template's texts for ``slots``: bare imperative sentences; the composition
    (:mod:`.composition`) joins them with other actions and frames the whole task in a style."""
    bound = [*slots.co.values(), *([slots.target] if slots.target is not None else [])]
    said = template.ambiguous or template.direct
    fitting = [
        i
        for i in range(len(template.direct))
        if phrases.presupposed(template.direct[i], bound) and phrases.presupposed(said[i], bound)
    ]
    i = phrases.pick(rng, fitting or list(range(len(template.direct))))
    determiners = draw_determiners(slots, rng)
    fixtures = draw_fixture_determiners(rng)
    direct = name_fixtures(render_text(template.direct[i], slots, determiners=determiners), fixtures)
    if template.ambiguous:
        ambiguous = render_text(template.ambiguous[i], slots, determiners=determiners)
    else:
        ambiguous = render_text(template.direct[i], slots, ambiguous=True, determiners=determiners)
    ambiguous = name_fixtures(ambiguous, fixtures)
    indirect_forms = [f for f in template.indirect if phrases.presupposed(f, bound)] or list(template.indirect)
    indirect = render_text(phrases.pick(rng, indirect_forms), slots, paraphrase=rng)
    amb_tail = [render_text(step, slots) for step in template.plan_amb]
    return Rendered(direct, indirect, ambiguous, bound_steps(template, slots), amb_tail)


def bind_co(
    template: Template, pool: list[CatalogObject], rng: random.Random, exclude_group: str | None
) -> dict[str, CatalogObject] | None:
    """Pick an object for each co-slot from the scene (each from another group), or None when one lacks."""
    bound: dict[str, CatalogObject] = {}
    used_groups = {exclude_group}
    for slot, condition in template.co.items():
        options = [o for o in pool if o.group not in used_groups and condition.matches(o)]
        if not options:
            return None
        bound[slot] = rng.choice(options)
        used_groups.add(bound[slot].group)
    return bound


def bindable(
    template: Template,
    pool: list[CatalogObject],
    catalog: Catalog,
    exclude_group: str | None = None,
    in_scene: int | None = None,
) -> bool:
    """Whether every co-slot has at least one object in the scene (a cheap pre-check before building);
    ``pool``: the scene's objects, which are ``catalog``'s; ``in_scene``: their :meth:`Catalog.bits_of`
    when the caller has them (each template of a draw asks it of the same scene)."""
    free = catalog.bits_of(pool) if in_scene is None else in_scene
    if exclude_group is not None:
        free &= ~catalog.group_bits.get(exclude_group, 0)
    return all(catalog.meeting_bits(condition) & free for condition in template.co.values())


@dataclass(frozen=True)
class Candidate:
    """One way to make a pair of a given type in a given scene; ``build`` may still find it unfit."""

    key: str
    build: Callable[[random.Random], object]


def draft_of(
    template: Template,
    rendered: Rendered,
    *,
    question: str,
    answer: str,
    intent: list[str],
    variants: list[str],
    shortlist: list[str] | None = None,
    target: str | None = None,
    candidates: list[str] | None = None,
    fitting: list[str] | None = None,
    left_out: list[tuple[str, str, str]] | None = None,
    rationale: str | None = None,
) -> Draft:
    """The draft of a rendered template; a mechanism supplies what it alone knows (question, intent...)."""
    return Draft(
        template=template.id,
        unambiguous_direct=rendered.direct,
        unambiguous_indirect=rendered.indirect,
        ambiguous_task=rendered.ambiguous,
        question=question,
        answer=answer,
        plan_for_clear_task=[],
        plan_for_amb_task=[],
        user_intent=intent,
        variants=variants,
        amb_shortlist=shortlist or [],
        target=target,
        candidates=candidates or [],
        fitting=fitting or [],
        affordance=getattr(template, "action", None),
        left_out=left_out or [],
        rationale=rationale,
        rivals=list(getattr(template, "rivals", ())),
        clauses=[rendered.clause],
        amb_tail=rendered.amb_tail,
        end_of_ambiguity=0,
    )
