"""Multi-step tasks: a template's ambiguous (focus) action joined with clear context actions, as people give
a robot several things to do ("Take the butter out of the fridge, then spread it ... and after that ...").

The context actions, joiners and values (quantities, durations, temperatures, places) are data
(``data/composition.yaml``). The focus action is the only clause the ambiguous task rewrites, so the pair
stays minimal; context actions come before or after it and never use the focus action's groups nor any word
that tells the options apart, so the ambiguity stays where the template put it. ``end_of_ambiguity`` is the
focus action's own step plus the steps of the context actions before it; the plans agree before it.
"""

from __future__ import annotations

import dataclasses
import random
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ambiforge import yamlfile
from ambiforge.catalog import Catalog, CatalogObject
from ambiforge.catalog.conditions import Condition
from ambiforge.catalog.world import cached_world
from ambiforge.environment import Scene
from ambiforge.errors import ConfigError
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import phrases
from ambiforge.generation.offline.rendering import (
    Slots,
    draw_determiners,
    draw_fixture_determiners,
    name_fixtures,
    slot_values,
)
from ambiforge.generation.offline.spec import CO_SUFFIXES, KEY_PATTERN
from ambiforge.generation.offline.steps import BoundSteps, StepSpec, check_refs, expected_length, fewest_steps
from ambiforge.models import Frame
from ambiforge.models.scene_graph import SceneGraph
from ambiforge.world import task_values

DATA_FILE = Path(__file__).parent / "data" / "composition.yaml"
#: Values that are no parameter of a step: a manner ("gently") is how and a time ("for dinner") when, not
#: what; a spot is a place (a node).
NOT_PARAMETERS = frozenset({"manner", "later", "spot"})
#: The binding's key for the place a clause's wording names ("on the {spot}").
SPOT_SLOT = "{spot}"


class ContextAction(BaseModel):
    """A clear action that can come before or after the focus action."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=KEY_PATTERN)
    co: dict[str, Condition] = Field(default_factory=dict)
    direct: tuple[str, ...] = Field(min_length=1)
    indirect: tuple[str, ...] = Field(min_length=1)
    plan: tuple[StepSpec, ...] = Field(min_length=1)
    setup: dict[str, str] = Field(default_factory=dict, description="slot -> place the clause presupposes")
    used: tuple[str, ...] = Field(default=(), description="slots presupposed used (dirty), kept where setup says")


class Frames(BaseModel):
    """Sentences said after a task ("I'll be in the garden."); none before it: an opener that only sets the
    scene bears on no request."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    share: float = Field(ge=0, le=1, description="share of tasks that get a frame")
    max_task_words: int = Field(ge=5, description="a frame is left out when the task would get longer")
    after: tuple[str, ...] = Field(min_length=1)
    thanking: tuple[str, ...] = Field(default=(), description="words that thank: a request thanks once")

    def thanks(self, text: str) -> bool:
        return self.thanking_pattern is not None and self.thanking_pattern.search(text) is not None

    @cached_property
    def thanking_pattern(self) -> re.Pattern[str] | None:
        """One pattern for every thanking word (whole words, any case); None: no word thanks."""
        if not self.thanking:
            return None
        return re.compile(rf"\b(?:{'|'.join(re.escape(w) for w in self.thanking)})\b", re.IGNORECASE)


class CompositionData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    counts: dict[int, float] = Field(description="number of context actions -> weight")
    min_plan_steps: int = Field(ge=1)
    max_plan_steps: int = Field(ge=1)
    max_task_words: int = Field(ge=5)
    joiners: dict[int, tuple[str, ...]]
    values: dict[str, tuple[str, ...]]
    actions: tuple[ContextAction, ...] = Field(min_length=1)
    frames: Frames
    plain_words: frozenset[str] = Field(
        description="words an answer shares with any answer; its other words tell the options apart"
    )

    @cached_property
    def value_names(self) -> frozenset[str]:
        return frozenset(self.values)

    @cached_property
    def said_by_frame(self) -> dict[tuple[str, ...] | None, Said]:
        """Per frame (its tags; None: no frame), what can be said in it, made the first time a task is
        framed so: every clause of every task in that frame asks."""
        return {}

    def said_in(self, frame: Frame | None) -> Said:
        """What can be said in ``frame`` (:class:`Said`)."""
        return self.said_with(frame.tags() if frame is not None else None)

    def said_with(self, tags: tuple[str, ...] | None) -> Said:
        """:meth:`said_in` for a frame given as its tags (None: no frame)."""
        said = self.said_by_frame.get(tags)
        if said is None:
            if tags is None:
                values = {name: list(options) for name, options in self.values.items()}
            else:
                values = {name: [o for o in opts if phrases.fits_tags(o, tags)] for name, opts in self.values.items()}
            drawn = tuple((name, options) for name, options in values.items() if options)
            said = self.said_by_frame[tags] = Said(tags, values, drawn, frozenset(name for name, _ in drawn))
        return said

    @model_validator(mode="after")
    def _check(self) -> CompositionData:
        most = max(self.counts)
        for n in range(1, most + 2):
            forms = self.joiners.get(n)
            if not forms:
                raise ValueError(f"joiners.{n}: missing (counts allow {most} context actions)")
            for form in forms:
                if _names(form) - phrases.named_slots(form) != {str(i) for i in range(n)}:
                    raise ValueError(f"joiners.{n}: {form!r} must use each of {{0}}..{{{n - 1}}} once")
                _check_lists(f"joiners.{n}", form)
        for sentence in self.frames.after:
            _check_lists("frames.after", sentence)
        keys = [action.key for action in self.actions]
        for key in keys:
            if keys.count(key) > 1:
                raise ValueError(f"actions: {key!r} is used twice (an action is known by its key)")
        for i, action in enumerate(self.actions):
            allowed = {f"{slot}{suffix}" for slot in action.co for suffix in CO_SUFFIXES} | set(self.values)
            for field in ("direct", "indirect"):
                for text in getattr(action, field):
                    unknown = _names(text) - allowed
                    if unknown:
                        raise ValueError(f"actions[{i}] ({action.key}): {field}: unknown slot {{{min(unknown)}}}")
            for text in (p for step in action.plan for p in step.params()):
                unknown = _names(text) - allowed
                if unknown:
                    raise ValueError(f"actions[{i}] ({action.key}): plan: unknown slot {{{min(unknown)}}}")
            places = {p.id for p in cached_world().places}
            check_refs(action.plan, set(action.co), places, f"actions[{i}] ({action.key}): plan")
            for slot, place in action.setup.items():
                if slot not in action.co or place not in places:
                    raise ValueError(f"actions[{i}] ({action.key}): setup: {slot}: expected a slot and a place")
            for slot in action.used:
                if slot not in action.setup:
                    raise ValueError(f"actions[{i}] ({action.key}): used: {slot}: give it a place in 'setup'")
        return self


def _check_lists(where: str, text: str) -> None:
    unknown = phrases.named_slots(text) - set(phrases.word_lists())
    if unknown:
        raise ValueError(f"{where}: {text!r}: unknown word list {{{min(unknown)}}} (phrases.yaml: words)")


@lru_cache(maxsize=4096)
def _names(text: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


@lru_cache(maxsize=4)
def load(path: str = str(DATA_FILE)) -> CompositionData:
    """The composition data, validated (a mistake is a ConfigError naming the file and key)."""
    try:
        raw = yamlfile.load(Path(path).read_text(encoding="utf-8"))
        return CompositionData.model_validate(raw)
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: {str(exc).splitlines()[0]}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"{path}: {loc}: {first['msg'].removeprefix('Value error, ')}") from None


@dataclass(frozen=True)
class Said:
    """What can be said in one frame: each value list's options that fit it (in the lists' order), the
    lists with any (a clause draws one value from each, in this order) and their names."""

    tags: tuple[str, ...] | None
    values: dict[str, list[str]]
    drawn: tuple[tuple[str, list[str]], ...]
    names: frozenset[str]
    #: Per context action (its key): its direct and indirect wordings that can be said in the frame, worked
    #: out the first time the action is tried in it.
    wordings: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = dataclasses.field(default_factory=dict)

    def wordings_of(self, action: ContextAction, known: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The action's direct and indirect wordings whose values (of ``known``, the value lists) are drawn
        in this frame and whose own phrases the frame allows."""
        forms = self.wordings.get(action.key)
        if forms is None:
            forms = self.wordings[action.key] = (
                _said_in(action.direct, self.names, known, self.tags),
                _said_in(action.indirect, self.names, known, self.tags),
            )
        return forms


@dataclass(frozen=True)
class Clause:
    direct: str
    indirect: str
    ambiguous: str
    steps: BoundSteps


def as_clause(sentence: str) -> str:
    """'Pour the milk into the mug.' -> 'pour the milk into the mug' (to go inside a longer sentence)."""
    body = sentence.strip().rstrip(".?! ")
    return body[:1].lower() + body[1:]


def focus_groups(draft: Draft, scene: Scene, catalog: Catalog, in_scene: int | None = None) -> set[str]:
    """Groups the focus action refers to (by an object's name or the group noun): context stays off them.
    ``in_scene``: the scene's objects as :meth:`Catalog.bits_of` gives them, when the caller has them."""
    text = " \n ".join(
        [draft.unambiguous_direct, draft.ambiguous_task, *draft.plan_for_clear_task, *draft.plan_for_amb_task]
    )
    in_scene = catalog.bits_of(scene.objects) if in_scene is None else in_scene
    bits, group_bits = catalog.bits, catalog.group_bits
    said_names, said_groups = phrases.names_index(catalog).said(text)
    named = {n for n in said_names if bits[n] & in_scene} | {*draft.amb_shortlist, *draft.candidates}
    named |= {n for clause in draft.clauses for n in clause.binding.values()}
    groups = {catalog.objects[n].group for n in named if n in catalog.objects}
    return groups | {g for g in said_groups if group_bits[g] & in_scene}


def forbidden_words(draft: Draft, data: CompositionData | None = None) -> list[str]:
    """What a context action must not mention: the intent's concepts, the options, and the answer's words
    that the ambiguous focus action does not already use (they would resolve or contradict the ambiguity)."""
    plain = (data or load()).plain_words
    words = [w.lstrip("-") for concept in draft.user_intent for w in concept.split("|")]
    words += draft.variants + draft.amb_shortlist + draft.rivals
    amb = set(phrases.words(" ".join([draft.ambiguous_task, *draft.plan_for_amb_task, draft.question])))
    for token in phrases.words(draft.answer):
        if token not in plain and token not in amb:
            words.append(token)
    return [w for w in dict.fromkeys(words) if w.strip()]


def intent_substrings(draft: Draft) -> list[str]:
    """The intent's concepts, lower-cased: AmbiK reads them as substrings ("-paring" is broken by
    "preparing"), so text added around the focus action must not contain them even inside a word."""
    return [w.lstrip("-").lower() for concept in draft.user_intent for w in concept.split("|") if w.strip("-")]


def says_forbidden(text: str, forbidden: list[str], substrings: list[str]) -> bool:
    """Whether added text names a forbidden word (whole words) or contains an intent concept (anywhere)."""
    lowered = text.lower()
    return any(s in lowered for s in substrings) or phrases.mentions_any(text, forbidden)


def _bind(
    action: ContextAction,
    pool: Sequence[CatalogObject],
    excluded: set[str],
    rng: random.Random,
    catalog: Catalog,
    in_scene: int | None = None,
) -> dict[str, CatalogObject] | None:
    """An object of ``pool`` (the scene's, which are the catalog's) for each co-slot, each of another group
    and none of ``excluded``; None when a slot has none. ``in_scene``: the pool's bits (:meth:`Catalog.bits_of`), so a
    slot nothing fills is found without reading the pool (most actions tried for a task are)."""
    bits, group_bits = catalog.bits, catalog.group_bits
    free = catalog.bits_of(pool) if in_scene is None else in_scene
    for group in excluded:
        free &= ~group_bits.get(group, 0)
    bound: dict[str, CatalogObject] = {}
    for slot, condition in action.co.items():
        options_bits = catalog.meeting_bits(condition) & free
        if not options_bits:
            return None
        options = [o for o in pool if bits.get(o.name, 0) & options_bits]
        bound[slot] = obj = rng.choice(options)
        free &= ~group_bits[obj.group]
    return bound


def context_clause(
    action: ContextAction,
    data: CompositionData,
    scene: Scene,
    catalog: Catalog,
    excluded: set[str],
    rng: random.Random,
    frame: Frame | None = None,
    said: Said | None = None,
    in_scene: int | None = None,
) -> tuple[Clause, set[str]] | None:
    """The action bound to scene objects outside ``excluded`` groups, and the groups it used; its values
    agree with the task's ``frame`` ("for breakfast" is said in the morning, "right away" when needed now).
    ``said``: what can be said in the frame, and ``in_scene`` (the scene's :meth:`Catalog.bits_of`), when
    the caller asks for several clauses."""
    co = _bind(action, scene.objects, excluded, rng, catalog, in_scene)
    if co is None:
        return None
    said = said or data.said_in(frame)
    # a value none of whose options the frame allows leaves out the wordings that say it
    choice = rng.choice  # phrases.pick: the same draw
    values = {name: choice(options) for name, options in said.drawn}
    direct_forms, indirect_forms = said.wordings_of(action, data.value_names)
    if not direct_forms or not indirect_forms:
        return None
    slots = Slots(None, None, co)
    plain = {**slots.plain, **values}
    para = {**slot_values(slots, paraphrase=rng), **values}
    wording = phrases.pick(rng, direct_forms)
    spoken = {**slot_values(slots, determiners=draw_determiners(slots, rng)), **values}
    direct = name_fixtures(wording.format(**spoken), draw_fixture_determiners(rng))
    indirect = phrases.pick(rng, indirect_forms).format(**para)
    binding = {slot: obj.name for slot, obj in co.items()}
    used = _names(wording)
    carried = tuple(values[name] for name in sorted(used) if name in values and name not in NOT_PARAMETERS)
    if "spot" in used:  # a place the wording names: the plan must act on it
        binding[SPOT_SLOT] = values["spot"]
    setup = {binding[slot]: place for slot, place in action.setup.items()}
    soiled = frozenset(binding[slot] for slot in action.used)
    steps = BoundSteps(action.plan, binding, plain, setup, carried, frozenset(set(values) - used), soiled)
    return Clause(direct, indirect, direct, steps), {o.group for o in co.values()}


def said_values(data: CompositionData, frame: Frame | None) -> dict[str, list[str]]:
    """Each value list's options that can be said in ``frame`` (in the lists' order)."""
    return data.said_in(frame).values


def _said_in(
    forms: tuple[str, ...], drawn: frozenset[str], known: frozenset[str], tags: tuple[str, ...] | None
) -> tuple[str, ...]:
    """The wordings whose values (of ``known``, the value lists) are among the ``drawn`` ones and whose own
    phrases the frame of ``tags`` allows: the same for every clause of an action said in one frame."""
    return tuple(f for f in forms if _names(f) & known <= drawn and (tags is None or phrases.text_fits_tags(f, tags)))


def _word_count(text: str) -> int:
    return len(text.split())


def compose(
    draft: Draft,
    scene: Scene,
    catalog: Catalog,
    rng: random.Random,
    data: CompositionData | None = None,
    graph: SceneGraph | None = None,
    in_scene: int | None = None,
) -> Draft:
    """The focus draft (bare sentences from a template) as a framed task of one to three actions; with the
    pair's ``graph`` the plan's length is estimated from where things are (closed places take more steps).
    ``in_scene``: the scene's objects as :meth:`Catalog.bits_of` gives them, when the caller has them."""
    data = data or load()
    focus = Clause(
        as_clause(draft.unambiguous_direct),
        as_clause(draft.unambiguous_indirect),
        as_clause(draft.ambiguous_task),
        draft.clauses[0],
    )
    frame = phrases.draw_frame(rng, " \n ".join([focus.direct, focus.indirect, focus.ambiguous]))
    tags = frame.tags()
    counts = sorted(data.counts)
    wanted = rng.choices(counts, weights=[data.counts[c] for c in counts])[0]
    most = max(counts)
    in_scene = catalog.bits_of(scene.objects) if in_scene is None else in_scene
    excluded = focus_groups(draft, scene, catalog, in_scene)
    forbidden = forbidden_words(draft, data)
    substrings = intent_substrings(draft)
    contexts: list[Clause] = []
    longest = expected_length(focus.steps, graph)
    steps = fewest_steps(focus.steps)
    words = _word_count(focus.direct) + 4
    sayable = data.said_with(tags)
    for index in rng.sample(range(len(data.actions)), len(data.actions)):
        if len(contexts) >= most or (len(contexts) >= wanted and steps >= data.min_plan_steps):
            break
        made = context_clause(data.actions[index], data, scene, catalog, excluded, rng, frame, sayable, in_scene)
        if made is None:
            continue
        clause, groups = made
        n = expected_length(clause.steps, graph)
        if longest + n > data.max_plan_steps or words + _word_count(clause.direct) + 3 > data.max_task_words:
            continue
        if says_forbidden(" \n ".join([clause.direct, clause.indirect]), forbidden, substrings):
            continue
        contexts.append(clause)
        excluded |= groups
        steps, longest, words = steps + n, longest + n, words + _word_count(clause.direct) + 3
    position = rng.randrange(len(contexts) + 1)
    clauses = [*contexts[:position], focus, *contexts[position:]]

    def allowed(text: str) -> bool:
        return not says_forbidden(text, forbidden, substrings)

    joiner = _joiner(rng, data, len(clauses), allowed, tags)
    joiner_indirect = _joiner(rng, data, len(clauses), allowed, tags)
    style = _style(rng, joiner, allowed, frame_tags=tags)
    direct = _frame(joiner, [c.direct for c in clauses], style)
    indirect = _frame(joiner_indirect, [c.indirect for c in clauses], _style(rng, joiner_indirect, allowed, True, tags))
    ambiguous = _frame(joiner, [c.ambiguous for c in clauses], style)
    frames = data.frames
    if rng.random() < frames.share:
        said = phrases.agreeing_tags(frames.after, tags)
        sentence = phrases.capitalize(phrases.expand_in(rng, phrases.pick(rng, said), tags))
        longest_task = max(_word_count(t) for t in (direct, indirect, ambiguous))
        twice = frames.thanks(sentence) and any(frames.thanks(t) for t in (direct, indirect, ambiguous))
        if (
            longest_task + _word_count(sentence) <= frames.max_task_words
            and not twice
            and not says_forbidden(sentence, forbidden, substrings)
        ):
            direct, indirect, ambiguous = (f"{t} {sentence}" for t in (direct, indirect, ambiguous))
    direct, indirect, ambiguous = (phrases.sentence_case(t) for t in (direct, indirect, ambiguous))
    return Draft(
        template=draft.template,
        unambiguous_direct=direct,
        unambiguous_indirect=indirect,
        ambiguous_task=ambiguous,
        question=draft.question,
        answer=draft.answer,
        plan_for_clear_task=[],
        plan_for_amb_task=[],
        user_intent=draft.user_intent,
        variants=draft.variants,
        amb_shortlist=draft.amb_shortlist,
        target=draft.target,
        candidates=draft.candidates,
        fitting=draft.fitting,
        affordance=draft.affordance,
        left_out=draft.left_out,
        rationale=draft.rationale,
        clauses=[c.steps for c in clauses],
        max_steps=data.max_plan_steps,
        focus=position,
        amb_tail=draft.amb_tail,
        end_of_ambiguity=0,
        frame=frame,
    )


def _several_sentences(joiner: str) -> bool:
    return ". " in joiner or ": " in joiner or "; " in joiner


#: Draws of a joiner or style before the plain one is used (when each drawn one says a forbidden word).
_TRIES = 4


def _joiner(
    rng: random.Random,
    data: CompositionData,
    n: int,
    allowed: Callable[[str], bool],
    frame_tags: tuple[str, ...] | None = None,
) -> str:
    """A joiner for ``n`` clauses, its word lists filled, that names no word the focus action forbids (the
    connectives are words too: "go ahead" must not echo an answer's "must not go in the microwave")."""
    for _ in range(_TRIES):
        joiner = phrases.expand_in(rng, phrases.pick(rng, data.joiners[n]), frame_tags)
        if allowed(joiner):
            return joiner
    return ", then ".join(f"{{{i}}}" for i in range(n))


def _style(
    rng: random.Random,
    joiner: str,
    allowed: Callable[[str], bool],
    indirect: bool = False,
    frame_tags: tuple[str, ...] | None = None,
) -> tuple[str, str]:
    """A style drawn for the joined task, its word lists filled: a question only frames one sentence."""
    options = _styles(indirect, _several_sentences(joiner))
    for _ in range(_TRIES):
        prefix, end = phrases.pick(rng, options)
        style = phrases.expand_in(rng, prefix, frame_tags), phrases.expand_in(rng, end, frame_tags)
        if allowed(" ".join(style)):
            return style
    return ("I'd like you to ", ".") if indirect else ("", ".")


@lru_cache(maxsize=4)
def _styles(indirect: bool, several: bool) -> tuple[tuple[str, str], ...]:
    """The styles a task can be framed in: no question around several sentences."""
    options = phrases.styles(indirect)
    return tuple(s for s in options if not s[1].endswith("?")) if several else options


def _frame(joiner: str, clauses: list[str], style: tuple[str, str]) -> str:
    return phrases.apply_style(joiner.format(*clauses), style)


def describe() -> dict[str, Any]:
    """Sizes of the composition data (for the capacity estimate and docs)."""
    data = load()
    return {"actions": len(data.actions), "joiners": {n: len(j) for n, j in data.joiners.items()}}


def _frame_pattern(frame: str) -> re.Pattern[str]:
    lists = phrases.word_lists()
    parts = re.split(r"\{([a-z_]+)\}", frame)
    body = "".join(
        re.escape(part)
        if i % 2 == 0
        else "(?:" + "|".join(map(re.escape, sorted(lists[part], key=len, reverse=True))) + ")"
        for i, part in enumerate(parts)
    )
    return re.compile(body, re.IGNORECASE)


@lru_cache(maxsize=1)
def _framing() -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    frames = load().frames
    sentences = sorted(frames.after, key=len, reverse=True)  # the longest first
    numbered = {w for words in phrases.word_lists().values() for w in words if task_values(w)}
    said = [re.compile(rf"\b{re.escape(w)}\b", re.IGNORECASE) for w in sorted(numbered, key=len, reverse=True)]
    return [_frame_pattern(f) for f in sentences], said


def unframed(task: str) -> str:
    """The task without what composition framed it with: the scene-setting sentences ("a light lunch for
    two") and the styles' and joiners' phrases that say a number ("Quick one, please") ask for no step, so a
    check of the task's amounts against its plan (:func:`ambiforge.world.task_values`) reads the rest."""
    frames, said = _framing()
    for pattern in [*frames, *said]:
        task = pattern.sub("", task)
    return task
