"""Is a task one speaker at one moment: a greeting only where the request opens; time references, what a
thing is for and how soon it is needed that agree with each other and with the item's recorded frame; a
clause put later not also done at once; determiners in number with their nouns (``lexicon.yaml``, the
reader's own)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ambiforge import yamlfile
from ambiforge.errors import ConfigError
from ambiforge.models.scene_graph import Node

LEXICON = Path(__file__).with_name("lexicon.yaml")


@lru_cache(maxsize=1)
def lexicon() -> dict[str, Any]:
    try:
        data = yamlfile.load(LEXICON.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{LEXICON}: {str(exc).splitlines()[0]}") from None
    known = {f"{d}:{v}" for d, values in (data.get("frame") or {}).items() for v in values}
    for phrase, tags in (data.get("tags") or {}).items():
        if not tags or not set(tags) <= known:
            raise ConfigError(f"{LEXICON}: tags.{phrase}: expected frame tags of {sorted(known)}")
    for i, pair in enumerate(data.get("incompatible") or ()):
        if len(pair) != 2 or not set(pair) <= known:
            raise ConfigError(f"{LEXICON}: incompatible[{i}]: expected two frame tags")
    for key in ("singular", "plural", "not_mass", "quantifiers", "definite"):
        if not (data.get("determiners") or {}).get(key):
            raise ConfigError(f"{LEXICON}: determiners.{key}: missing")
    return data


@lru_cache(maxsize=1)
def _incompatible() -> frozenset[frozenset[str]]:
    pairs = {frozenset(p) for p in lexicon().get("incompatible") or ()}
    for dim, values in (lexicon().get("frame") or {}).items():
        pairs |= {frozenset((f"{dim}:{a}", f"{dim}:{b}")) for a in values for b in values if a != b}
    return frozenset(pairs)


@lru_cache(maxsize=1)
def _tagged() -> tuple[tuple[str, dict[str, frozenset[str]]], ...]:
    out = []
    for phrase, tags in (lexicon().get("tags") or {}).items():
        grouped: dict[str, set[str]] = {}
        for tag in tags:
            dim, _, value = tag.partition(":")
            grouped.setdefault(dim, set()).add(f"{dim}:{value}")
        out.append((phrase, {d: frozenset(v) for d, v in grouped.items()}))
    return tuple(out)


@lru_cache(maxsize=4096)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A lexicon phrase as a whole-word pattern, compiled once: there are more phrases than ``re`` keeps
    compiled, so building the patterns per text compiled each of them again for every item."""
    return re.compile(rf"(?<![\w'-]){re.escape(phrase)}(?![\w'-])", re.IGNORECASE)


def _find(text: str, phrase: str) -> list[int]:
    return [m.start() for m in _phrase_pattern(phrase).finditer(text)]


def greeting_inside(text: str) -> str | None:
    """A greeting after the request's first words ("..., so I trust your judgement. Hi, I need you to ...")."""
    start = len(text) - len(text.lstrip())
    for greeting in lexicon()["greetings"]:
        for at in _find(text, greeting):
            if at > start:
                return text[at : at + len(greeting)]
    return None


def _said(text: str) -> list[tuple[str, dict[str, frozenset[str]]]]:
    lowered = text.lower()  # most phrases are not in a text at all: a substring test says so before the pattern
    said = [(p, g) for p, g in _tagged() if p.lower() in lowered and _find(text, p)]
    # a phrase inside a longer one found ("this morning" in "later this morning") counts once, as the longer
    return [(p, g) for p, g in said if not any(p != q and p in q for q, _ in said)]


def _apart(a: frozenset[str], frame: Iterable[str]) -> bool:
    """None of a phrase's values ``a`` (alternatives) goes with every tag of ``frame``."""
    bad = _incompatible()
    return all(any(frozenset((x, y)) in bad for y in frame) for x in a)


def _never(a: frozenset[str], b: frozenset[str]) -> bool:
    """No value of ``a`` goes with any value of ``b`` (each set: one phrase's alternatives)."""
    bad = _incompatible()
    return all(frozenset((x, y)) in bad for x in a for y in b)


def time_contradiction(text: str) -> tuple[str, str] | None:
    """Two phrases no one frame allows together ("Good evening" and "around brunch time")."""
    said = _said(text)
    for i, (p, tags) in enumerate(said):
        for q, other in said[i + 1 :]:
            if any(_never(mine, theirs) for mine in tags.values() for theirs in other.values()):
                return p, q
    return None


def frame_conflict(text: str, frame_tags: Iterable[str]) -> str | None:
    """A phrase of ``text`` that cannot be said in the item's frame (its tags, ``time:morning``...)."""
    tags = tuple(frame_tags)
    for phrase, grouped in _said(text):
        if any(_apart(values, tags) for values in grouped.values()):
            return phrase
    return None


def frame_clash(frame_tags: Iterable[str]) -> tuple[str, str] | None:
    """Two tags of the frame itself that the incompatible list forbids together."""
    tags = list(frame_tags)
    bad = _incompatible()
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            if frozenset((a, b)) in bad:
                return a, b
    return None


_CLAUSE_SPLIT = re.compile(r"[.;!?]|,\s+(?=(?:and\s+)?(?:then|later|afterwards|after that|next|also|plus)\b)")


def later_at_once(text: str) -> str | None:
    """A clause a connective puts later that is also to be done at once ("Later, wash it right away")."""
    data = lexicon()
    for clause in _CLAUSE_SPLIT.split(text):
        body = clause.strip(" ,").lower()
        lead = next((c for c in data["later_connectives"] if re.match(rf"{re.escape(c)}\b", body)), None)
        if lead is None:
            continue
        now = next((w for w in data["at_once"] if _find(body, w)), None)
        if now is not None:
            return f"{lead} ... {now}"
    return None


def ordinal_out_of_order(text: str) -> str | None:
    """An ordinal that counts the clauses wrong: "second" after a "next" or "then" has numbered a clause."""
    data = lexicon()
    sequencers = "|".join(re.escape(w) for w in data.get("sequencers") or ())
    for word in data.get("ordinals") or ():
        for m in re.finditer(rf"(?:^|[.;!]\s+)({re.escape(word)})\b", text, re.IGNORECASE):
            before = re.search(rf"\b({sequencers})\b", text[: m.start(1)], re.IGNORECASE) if sequencers else None
            if before is not None:
                return f"{before.group(1)} ... {m.group(1)}"
    return None


def hurry_with_wait(text: str) -> str | None:
    """A request said in a hurry that also asks for a wait."""
    data = lexicon()
    hurry = next((w for w in data.get("hurry") or () if _find(text, w)), None)
    if hurry is None:
        return None
    wait = next((w for w in data.get("waits") or () if _find(text, w)), None)
    if wait is None:
        wait = next((m.group(0) for m in re.finditer(r"\bfor \S+ (?:minutes|hours?)\b", text, re.IGNORECASE)), None)
    return None if wait is None else f"{hurry} ... {wait}"


def number_problems(text: str, nodes: Iterable[Node]) -> list[str]:
    """Determiners out of number with the name after them ("this cherry tomatoes", "those banana", "a
    milk"), and determiners stacked on a name ("some our milk")."""
    dets = lexicon()["determiners"]
    names: dict[str, Node] = {}
    for node in nodes:  # places too, so that "a coffee maker" is not read as "a coffee"
        names.setdefault(node.name.lower(), node)
    if not names:
        return []
    out = []
    lowered = text.lower()
    quantifiers = "|".join(re.escape(q) for q in sorted(dets["quantifiers"], key=len, reverse=True))
    definite = "|".join(re.escape(d) for d in dets["definite"])
    for m in re.finditer(rf"(?<![\w'-])({quantifiers})\s+({definite})\s+(?=\w)", lowered):
        out.append(f"stacked determiners {text[m.start() : m.end()].strip()!r}")
    single, plural, not_mass = set(dets["singular"]), set(dets["plural"]), set(dets["not_mass"])
    for start, end, det, name in _determined(lowered, names):
        node = names[name]
        if node.type != "object":
            continue
        said = text[start:end]
        if det in single and node.plural:
            out.append(f"{said!r}: a singular determiner before a plural name")
        elif det in plural and not node.plural:
            out.append(f"{said!r}: a plural determiner before a singular name")
        elif det in not_mass and node.mass:
            out.append(f"{said!r}: {det!r} before a mass name")
    return out


_WORD_THEN_SPACE = re.compile(r"(?<![\w'-])(\w+)\s+")
_TOKEN_END = re.compile(r"[\w'-]")


def _determined(lowered: str, names: Iterable[str]) -> list[tuple[int, int, str, str]]:
    """Each word followed by a scene name (the longest that fits), left to right without overlap, as
    ``(start, end, the word, the name)``. Names are looked up by their first letter rather than joined into
    one pattern: such a pattern differs for every scene, and compiling one per text costs more than reading it."""
    by_start: dict[str, list[str]] = {}
    for each in sorted(names, key=len, reverse=True):
        by_start.setdefault(each[:1], []).append(each)
    out = []
    pos = 0
    while (m := _WORD_THEN_SPACE.search(lowered, pos)) is not None:
        at = m.end()
        name = next(
            (
                n
                for n in by_start.get(lowered[at : at + 1], ())
                if lowered.startswith(n, at) and not _TOKEN_END.match(lowered, at + len(n))
            ),
            None,
        )
        if name is None:
            pos = m.start() + 1
            continue
        out.append((m.start(), at + len(name), m.group(1), name))
        pos = at + len(name)
    return out


@lru_cache(maxsize=4096)
def _heated_again(name: str) -> re.Pattern[str]:
    """Heating words said of the food ``name`` again, compiled once per name (see :func:`_phrase_pattern`)."""
    escaped = re.escape(name)
    return re.compile(
        rf"\breheat\w*\s+(?:\w+\s+){{0,3}}{escaped}\b"
        rf"|\b(?:heat|warm|make)\s+(?:\w+\s+){{0,3}}{escaped}\s+(?:up\s+|hot\s+|warm\s+)?again\b",
        re.IGNORECASE,
    )


def again_unsupported(text: str, nodes: Iterable[Node]) -> str | None:
    """A food heated "again" (or reheated) that was never hot: milk from the fridge is warmed, not reheated.
    The food is the one the heating words are said of ("reheat the soup", "make my milk hot again")."""
    lowered = text.lower()
    if "reheat" not in lowered and "again" not in lowered:  # both of the patterns' forms need one of them
        return None
    cooked = set(lexicon().get("heated_before") or ())
    for node in nodes:
        if node.type != "object" or node.kind != "food" or node.group in cooked:
            continue
        if _heated_again(node.name).search(text):
            return node.name
    return None


def unsaid_phrasing(text: str) -> list[str]:
    """Sentences no one says, by the lexicon's patterns ("Brilliant, thank you." before the work is done,
    ", would be lovely.", "leave it out before we eat, on the table"), and thanks said twice."""
    out = [
        f"{m.group(0)!r}: {rule['why']}"
        for rule in lexicon().get("phrasing") or ()
        if (m := re.search(rule["pattern"], text, re.IGNORECASE)) is not None
    ]
    words = "|".join(re.escape(w) for w in lexicon().get("thanking") or ())
    thanks = re.findall(rf"\b(?:{words})\b", text, re.IGNORECASE) if words else []
    if len(thanks) > 1:
        out.append(f"{' ... '.join(thanks)!r}: a request thanks once")
    return out


def speech_problems(
    field: str, text: str, frame_tags: Iterable[str] | None = None, nodes: Iterable[Node] = ()
) -> list[str]:
    out = []
    frame_tags = tuple(frame_tags) if frame_tags is not None else None
    greeting = greeting_inside(text)
    if greeting is not None:
        out.append(f"{field}: a greeting ({greeting!r}) after the request has begun: a greeting only opens a request")
    clash = time_contradiction(text)
    if clash is not None:
        out.append(f"{field}: {clash[0]!r} and {clash[1]!r} cannot be said at one moment (a time contradiction)")
    later = later_at_once(text)
    if later is not None:
        out.append(f"{field}: {later!r}: a clause put later is not also done at once (a time contradiction)")
    if frame_tags is not None:
        phrase = frame_conflict(text, frame_tags)
        if phrase is not None:
            out.append(f"{field}: {phrase!r} cannot be said in the item's frame ({', '.join(frame_tags)})")
    ordinal = ordinal_out_of_order(text)
    if ordinal is not None:
        out.append(f"{field}: {ordinal!r}: an ordinal out of order with the clauses before it")
    hurry = hurry_with_wait(text)
    if hurry is not None:
        out.append(f"{field}: {hurry!r}: a request in a hurry that asks for a wait (a contradiction)")
    nodes = tuple(nodes)
    food = again_unsupported(text, nodes)
    if food is not None:
        out.append(f"{field}: says the {food} is heated again, but it was never hot (a presupposition)")
    for problem in number_problems(text, nodes):
        out.append(f"{field}: number agreement: {problem}")
    out += [f"{field}: {problem}" for problem in unsaid_phrasing(text)]
    return out
