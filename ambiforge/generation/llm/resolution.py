"""What a model writes, resolved against the pair's scene graph: the checks each step's reply must pass and
the item's :class:`~ambiforge.models.World` built from the names that resolved.

A model names objects in free text, so its claims are only as good as their match with the kitchen: a task
or plan step that names a catalog object the kitchen does not hold, a shortlist or variant that is not an
object of the graph, variants that are not every object the job allows (``afforded``), a shortlist that is
not every object the ambiguous referent fits (``resolve``). Each check returns the problems as one message
that goes back to the model through the repair turns of :func:`ambiforge.llm.ask.ask`; when repairs run
out the step fails and the pair is rejected with that message as its reason, so nothing unresolved ships.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ambiforge.catalog.affordances import cached_affordances
from ambiforge.generation.grounding import node_ids
from ambiforge.models import World
from ambiforge.models.scene_graph import Node, SceneGraph
from ambiforge.world import afforded, resolve
from ambiforge.world.index import index

#: What the intent step writes when the job is none of the affordance actions (a preference, a place).
NO_ACTION = "none"
_ARTICLE = re.compile(r"^(?:the|a|an|some)\s+", re.IGNORECASE)
#: "a teaspoon of sugar", "two tablespoons of oil": a measure, not the object.
_MEASURE = re.compile(r"s?\s+of\b", re.IGNORECASE)

Check = Callable[[dict[str, Any]], "str | None"]


def mentioned(words: str, text: str) -> bool:
    """``words`` occur in ``text`` as whole words (a plural -s/-es allowed): "mug" in "Fill the mugs"."""
    rx = rf"(?<![\w-]){re.escape(words.strip())}(?:s|es)?(?![\w-])"
    return bool(words.strip()) and re.search(rx, text, re.IGNORECASE) is not None


def bare(name: str) -> str:
    """A name as written without its article: ``the glass mug`` -> ``glass mug``."""
    return _ARTICLE.sub("", name.strip()).strip()


class Mentions:
    """Finds the catalog's object names in text (whole words, case-insensitive, the longest name at each
    position, so ``whole milk`` is not also ``milk``)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(n.lower() for n in names)
        self.ascii = all(n.isascii() for n in self.names)
        ordered = sorted(self.names, key=lambda n: (-len(n), n))
        alternation = "|".join(re.escape(n) for n in ordered) or r"(?!x)x"
        self._rx = re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])", re.IGNORECASE)

    def find(self, text: str) -> list[str]:
        return self.find_within(text, None) or []  # None only when asked for a subset's names

    def find_within(self, text: str, names: frozenset[str] | None) -> list[str] | None:
        """:meth:`find`, or None when a match (a measure's too) is not one of ``names``.

        Why: in ASCII text and names, a :class:`Mentions` of a subset of these names finds exactly what
        this one finds whenever every match here is one of the subset's (the alternatives are tried in the
        same order at every position, and none of the subset's can match where none of these does), so
        one compiled for a whole run answers for a graph's names without compiling them per graph (a
        pattern of a graph's names costs 1-2 ms); a match outside them could hide one of theirs, and
        then, or for other text, the answer is None and the caller asks the graph's own."""
        if names is not None and not (self.ascii and text.isascii()):
            return None
        out: list[str] = []
        for match in self._rx.finditer(text):
            name = match.group(0).lower()
            if names is not None and name not in names:
                return None
            if _MEASURE.match(text, match.end()):
                continue
            if name not in out:
                out.append(name)
        return out


@dataclass
class Resolver:
    """The checks of one pair's attempt: ``graph`` the kitchen the prompts showed, ``mentions`` the
    catalog's object names (what a text may name that the kitchen lacks); ``node_names``: the names any
    graph of the run may have (the catalog's objects and the world's places), compiled once a run, which
    finds this graph's names in a text as a :class:`Mentions` of them would (see
    :meth:`Mentions.find_within`)."""

    graph: SceneGraph
    mentions: Mentions
    has_shortlist: bool
    node_names: Mentions | None = None

    def node(self, name: str) -> Node | None:
        """The node a written name means: its id or name, else a noun only one node has ("kettle")."""
        text = bare(name)
        node = index(self.graph).find(text)
        if node is None and text:
            found = resolve(self.graph, text)
            node = found[0] if len(found) == 1 else None
        return node

    def strays(self, texts: dict[str, str]) -> list[str]:
        """Catalog objects named in ``texts`` (path -> text) that this kitchen does not hold."""
        ix = index(self.graph)
        problems = []
        for path, text in texts.items():
            missing = [n for n in self.mentions.find(text) if ix.find(n) is None]
            problems += [f"{path} names the {n}, which this kitchen does not have" for n in missing]
        return problems

    def unknown(self, path: str, names: list[str]) -> list[str]:
        """Names of a list (shortlist, variants) that are no object or place of the graph."""
        return [
            f"{path}: {name!r} is not an object of this kitchen (name it exactly as in the kitchen map)"
            for name in names
            if self.node(name) is None
        ]

    def texts(self, field: str, value: Any) -> dict[str, str]:
        if isinstance(value, list):
            return {f"{field}/{i + 1}": str(v) for i, v in enumerate(value)}
        return {field: str(value)}

    def check_texts(self, *fields: str) -> Check:
        """A reply whose ``fields`` (strings or lists of strings) name only objects of the kitchen."""

        def check(value: dict[str, Any]) -> str | None:
            texts: dict[str, str] = {}
            for field in fields:
                texts.update(self.texts(field, value.get(field, "")))
            return message(self.strays(texts))

        return check

    def check_variant(self, value: dict[str, Any]) -> str | None:
        """The ambiguous variant: its texts name objects of the kitchen; a shortlist only for a type that
        has one, of two or more objects of the graph."""
        texts = {k: str(value.get(k, "")) for k in ("ambiguous_task", "question", "answer")}
        problems = self.strays(texts)
        shortlist = [str(s) for s in value.get("shortlist") or []]
        if not self.has_shortlist:
            if shortlist:
                problems.append("shortlist: must be empty for this ambiguity type")
        else:
            problems += self.unknown("shortlist", shortlist)
            if len({n.id for s in shortlist if (n := self.node(s)) is not None}) < 2:
                problems.append("shortlist: must name two or more objects of this kitchen that the task fits")
        return message(problems)

    def check_intent(self, task: str, ambiguous_task: str, shortlist: list[str]) -> Check:
        """The intent step: ``referent`` resolves in the graph (and, for a type with a shortlist, is what the
        ambiguous task says; other types may leave the object out: "Toast the bread"); the variants are
        objects of the graph and, when ``action`` is an affordance, exactly the referent's objects that can
        do it, the object the clear ``task`` uses among them; a type with a shortlist has a referent that
        resolves to exactly the shortlist."""

        def check(value: dict[str, Any]) -> str | None:
            return message(self.intent_problems(value, task, ambiguous_task, shortlist))

        return check

    def intent_problems(self, value: dict[str, Any], task: str, ambiguous_task: str, shortlist: list[str]) -> list[str]:
        referent = bare(str(value.get("referent", "")))
        action = str(value.get("action", NO_ACTION)).strip().lower()
        variants = [str(v) for v in value.get("variants") or []]
        # Variants are objects when they must have an affordance, are a shortlist's choices or one of them
        # is an object; otherwise (a type whose variants are amounts: "a little") only a catalog object the
        # kitchen lacks is wrong in them.
        if action != NO_ACTION or self.has_shortlist or any(self.node(v) is not None for v in variants):
            problems = self.unknown("variants", variants)
        else:
            problems = self.strays(self.texts("variants", variants))
        fits = resolve(self.graph, referent) if referent else []
        if not fits:
            problems.append(f"referent: {referent!r} names nothing in this kitchen")
            return problems
        if self.has_shortlist and not mentioned(referent, ambiguous_task):
            problems.append(f"referent: {referent!r} is not what the ambiguous task says")
        actions = cached_affordances().actions
        if action != NO_ACTION and action not in actions:
            problems.append(f"action: {action!r} is not one of: {', '.join(sorted(actions))}, {NO_ACTION}")
        elif action != NO_ACTION:
            able = afforded(self.graph, referent, action)
            if not able:
                problems.append(f"action: no {referent} of this kitchen can {action}")
            else:
                problems += _same_set("variants", variants, able, f"every {referent} that can {action}", self)
        if self.has_shortlist:
            problems += _same_set("shortlist", shortlist, fits, f"every {referent} of this kitchen", self)
        fitting, used = set(_ids(self, variants)), [n for n in fits if n.id in self.named(task)]
        if fitting and used and not any(n.id in fitting for n in used):
            problems.append(f"variants: leave out the {used[0].name}, which the unambiguous task uses")
        return problems

    @cached_property
    def _own_names(self) -> frozenset[str]:
        return frozenset(n.name.lower() for n in self.graph.nodes)

    @cached_property
    def _node_names(self) -> Mentions:
        return Mentions(self._own_names)

    def names_in(self, text: str) -> list[str]:
        """The graph's node names ``text`` says, as :class:`Mentions` finds them."""
        own, run = self._own_names, self.node_names
        if run is not None and own <= run.names:
            found = run.find_within(text, own)
            if found is not None:
                return found
        return self._node_names.find(text)

    def named(self, text: str) -> set[str]:
        """The ids of the nodes ``text`` names (objects and places, by their exact names)."""
        ix = index(self.graph)
        return {n.id for name in self.names_in(text) if (n := ix.find(name)) is not None}

    def world(
        self, *, task: str, referent: str, shortlist: list[str], variants: list[str], action: str = NO_ACTION
    ) -> World:
        """The item's world from resolved names: candidates = what the referent fits (the shortlist for a
        type that has one), fitting = the variants, target = the candidate the clear task names, affordance =
        the job the intent named (so the checks judge the variants by that job, as the reply was)."""
        ids = _ids(self, shortlist) if self.has_shortlist else [n.id for n in resolve(self.graph, bare(referent))]
        fitting = _ids(self, variants)
        named = self.named(task)
        target = next((i for i in [*ids, *fitting] if i in named), None)
        job = action.strip().lower()
        affordance = job if job != NO_ACTION and job in cached_affordances().actions else None
        return World(graph=self.graph, target=target, candidates=ids, fitting=fitting, affordance=affordance)


def _ids(resolver: Resolver, names: list[str]) -> list[str]:
    return node_ids(resolver.graph, names, resolver.node)


def _same_set(path: str, names: list[str], expected: list[Node], what: str, resolver: Resolver) -> list[str]:
    got = set(_ids(resolver, names))
    want = [n.id for n in expected]
    if got == set(want):
        return []
    missing = [n.name for n in expected if n.id not in got]
    extra = [bare(s) for s in names if (n := resolver.node(s)) is not None and n.id not in want]
    parts = [f"leaves out {', '.join(missing)}"] if missing else []
    parts += [f"should not list {', '.join(extra)}"] if extra else []
    return [f"{path}: must be {what}: {', '.join(n.name for n in expected)} ({'; '.join(parts)})"]


def message(problems: list[str]) -> str | None:
    """The problems as one repair message, or None."""
    if not problems:
        return None
    return "the reply does not fit this kitchen: " + "; ".join(problems)
