"""What the words around a named thing say about it, for grounding: the readings a reader makes of a name the
scene does not list word for word.

- A food named as what someone is allergic to ("Tom is allergic to peanuts", "a guest has a peanut allergy")
  is kept away from, not fetched: the kitchen need not have it.
  So is each food of a list the allergy opens ("allergic to sesame and peanuts").
- A food said bare after "into" ("blend them into hummus") is the dish a step makes of the others.
- A food the task says it works for ("boil the syrup for the peaches") is the dish the work serves; a plan step
  that works "for tea" still needs the tea, so only the task is read so.
- Words spelling the end of a scene name ("peas and carrots" of the frozen peas and carrots) name that thing.
- A food in the form a step of the task makes of a scene food ("whipped cream" where a step whips the heavy
  cream) is that food.
- A name the text goes on to spell as the start of a scene name ("the tea light" of the tea light candles) is
  that scene thing, read by the lexicon only in part.
- Words of a list ("paprika, dried oregano, salt") are things of their own: a word before a comma does not
  modify the word after it, however much the two read as one name without the comma; words in brackets after
  a thing ("the cakes (lemon, carrot, vanilla)") name its kinds, each the scene's thing of that name.
- A name a step likens something to ("cut it into wedges, like a cake") is no thing the step uses.
- A food said as what an earlier use left ("the used coffee grounds", "the spent tea leaves") or as what
  a step drains off a food the scene keeps packed ("drain the syrup through the colander" of the can of
  peaches) is a residue or the liquid the pack held: no step fetches it.
- A food said hot or warm in a task whose steps heat ("Heat the milk ... Let the hot chocolate cool") is the
  drink or dish the heating made, not a thing fetched.
- A kind's member said before its kind ("crumbled feta cheese" beside the goat cheese; ``kinds`` in
  kitchen_words.yaml) names that member: another food than the kind's member the scene has.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ambiforge.validation.language import FUNCTION_WORDS, classes, is_nominal, verb_lemmas
from ambiforge.validation.lexicon import WORD, kinds

#: Words that say a food is one someone must not eat (singular: "allergies" reads "allergy").
_ALLERGY = frozenset({"allergic", "allergy", "allergen", "intolerant", "intolerance"})
_ALLERGY_WINDOW = 3


def allergen(start: int, end: int, toks: list[str]) -> bool:
    """The food at ``toks[start:end]`` is named as an allergy ("allergic to peanuts", "a peanut allergy")."""
    after = toks[end] if end < len(toks) else ""
    return after in _ALLERGY or any(w in _ALLERGY for w in toks[max(0, start - _ALLERGY_WINDOW) : start])


def step_form(key: tuple[str, ...], texts: Iterable[list[str]]) -> bool:
    """``key`` opens with a participle ("whipped", "toasted") of a verb another word of the item's texts is a
    form of ("Whip the heavy cream", "whipping the cream"): the food in the form the task makes of it. The
    caller has checked that the rest of the name is a scene food."""
    first = key[0]
    if len(key) < 2 or not first.endswith(("ed", "en")):
        return False
    verbs = set(verb_lemmas(first))
    return bool(verbs) and any(w != first and verbs & set(verb_lemmas(w)) for toks in texts for w in toks)


def spelled_on(start: int, end: int, toks: list[str], keys: frozenset[tuple[str, ...]]) -> bool:
    """The name and the word after it open a longer scene name ("tea light" of the tea light candles)."""
    if end >= len(toks):
        return False
    run = tuple(toks[start : end + 1])
    n = len(run)
    return any(len(k) > n and k[:n] == run for k in keys)


_WORD_OR_MARK = re.compile(rf"{WORD.pattern}|[,;:.()!?]")


def listed(text: str) -> frozenset[int]:
    """Positions of the words of ``text`` (as ``lexicon.words`` splits it) that a comma, colon, semicolon, stop
    or bracket follows: the end of a list's item or a clause. Not inside brackets: "the cakes (strawberry,
    chocolate, carrot)" lists the kinds of the thing named before them, each a modifier of it."""
    out: set[int] = set()
    word, depth = -1, 0
    for m in _WORD_OR_MARK.finditer(text.lower()):
        mark = m.group()
        if len(mark) > 1 or mark.isalnum():
            word += 1
        elif mark == "(":
            if depth == 0 and word >= 0:
                out.add(word)
            depth += 1
        elif mark == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and word >= 0:
            out.add(word)
    return frozenset(out)


def bracket_head(start: int, text: str) -> int:
    """The position of the word before the bracket that holds word ``start`` of ``text`` ("cakes" for each of
    "the cakes (lemon, carrot, vanilla)"), or -1: a list in brackets after a thing names its kinds."""
    lower = text.lower()
    spans = [m.span() for m in WORD.finditer(lower)]
    if start >= len(spans):
        return -1
    opened = lower.rfind("(", 0, spans[start][0])
    if opened < 0 or ")" in lower[opened : spans[start][0]]:
        return -1
    before = [i for i, (_, end) in enumerate(spans) if end <= opened]
    return before[-1] if before else -1


#: Words before "like" that make it the verb of a wish ("if you would like a glass"), not a comparison.
_WISHERS = frozenset({"would", "you", "i", "we", "they", "you'd", "i'd", "we'd", "do", "don't", "not"})


def compared(start: int, toks: list[str]) -> bool:
    """The name follows "like a" or "like the" as a comparison ("cut it into wedges, like a cake"): what the
    step is likened to, not a thing it uses."""
    return (
        start >= 2
        and toks[start - 1] in ("a", "an", "the")
        and toks[start - 2] == "like"
        and (start < 3 or toks[start - 3] not in _WISHERS)
    )


def member_before(start: int, key: tuple[str, ...], toks: list[str], keys: frozenset[tuple[str, ...]]) -> str:
    """The kind's member said before the kind ("feta" of "feta cheese") when no scene name has that word; ""
    when there is none."""
    if start == 0:
        return ""
    word = toks[start - 1]
    members = kinds().get(" ".join(key), ())
    if (word,) not in members or any(word in k for k in keys):
        return ""
    return word


def cut_name(start: int, end: int, toks: list[str], keys: frozenset[tuple[str, ...]]) -> bool:
    """The name and a word cut short after it spell the start of a scene name ("halve the cherry toma" of the
    cherry tomatoes): the cut word is a corruption of the scene's name, and the thing is the scene's."""
    if end >= len(toks):
        return False
    cut, run = toks[end], tuple(toks[start:end])
    n = len(run)
    return len(cut) >= 3 and any(len(k) > n and k[:n] == run and k[n] != cut and k[n].startswith(cut) for k in keys)


def dough_named(head: str, texts: Iterable[str], doughs: frozenset[str]) -> bool:
    """The item's own words name what the food is made from ("Bake the cookie dough balls, then cool the
    cookies"): the food is what the task makes of that dough, as when the scene lists the dough. The two
    words stand side by side ("olive oil. Mix until smooth" is no oil mix)."""
    stem = re.escape(head.removesuffix("s"))
    made_from = re.compile(rf"\b{stem}s? (?:{'|'.join(sorted(doughs))})s?\b")
    return any(made_from.search(text.lower()) for text in texts)


#: Verbs that turn ingredients into a dish ("blend until smooth", "simmer for 20 minutes").
_MAKING = frozenset({"blend", "puree", "purée", "process", "whisk", "whip", "mix", "simmer", "cook", "bake", "churn"})
#: Verbs that move a finished food out of what made it ("scrape the hummus into the bowl").
_MOVING_OUT = frozenset({"scrape", "spoon", "ladle", "scoop"})


def moved_product(start: int, toks: list[str], before: list[str]) -> bool:
    """A food first named as the thing a step moves out ("scrape the hummus into the serving bowl") after the
    same text or the step before it made something ("Blend until smooth."): the dish the task made, which
    no scene lists. A food added in ("add the eggs", "pour the milk") is not read so."""
    if start < 2 or toks[start - 1] != "the" or not set(verb_lemmas(toks[start - 2])) & _MOVING_OUT:
        return False
    return any(set(verb_lemmas(w)) & _MAKING for w in (*before, *toks[: start - 2]))


#: Words before a food that say an earlier use left it: "the used coffee grounds", "the spent tea leaves".
_SPENT = frozenset({"used", "spent"})
#: Verbs that clear a residue away: "old" said of the food they clear is what a use left ("clean the old oils out
#: of the grinder"); said of a food a step works ("mash the old bananas") it is that food, fetched.
_CLEARING = frozenset({"clean", "remove", "scrape", "wipe", "rinse", "clear", "discard", "pick", "empty", "dump"})
#: Words that may stand between a verb and its object: "drain the syrup", "drain off all the liquid".
_OBJECT_LEAD = frozenset({"the", "a", "an", "any", "all", "its", "their", "excess", "off", "away", "out"})


def residue(start: int, toks: list[str], packed: bool) -> bool:
    """The food at ``toks[start]`` is what an earlier use left ("scrape the used coffee grounds", "clean the old
    oils out of the grinder") or, in a kitchen keeping a food ``packed`` in a can or jar, what a step drains
    away ("drain the syrup"): a residue or the liquid the pack held, never fetched. "Drain the fusilli" beside
    no fusilli is the fusilli missing; "mash the old bananas" beside no bananas, the bananas."""
    if start and toks[start - 1] in _SPENT:
        return True
    if start and toks[start - 1] == "old" and any(set(verb_lemmas(w)) & _CLEARING for w in toks[: start - 1]):
        return True
    if not packed:
        return False
    k = start - 1
    while k >= 0 and toks[k] in _OBJECT_LEAD:
        k -= 1
    return k >= 0 and k < start - 1 and "drain" in verb_lemmas(toks[k])


#: Words that say a food is at the heat a step brought it to: "the hot chocolate", "the warm custard".
_HEATED = frozenset({"hot", "warm"})
#: Verbs that heat a food: said of a step, the hot food the task names after is what the heating made.
_HEATING = frozenset({"heat", "warm", "boil", "simmer", "microwave", "cook", "bake", "roast", "fry", "toast"})


def heated(start: int, toks: list[str], texts: Iterable[str]) -> bool:
    """The food at ``toks[start]`` is said hot or warm ("let the hot chocolate cool") in an item whose texts heat
    something ("Heat the milk in the saucepan"): the drink or dish the task made by heating, which no kitchen
    lists. "Serve with hot chocolate" in a task that heats nothing is the hot chocolate missing. A heating verb
    counts where it leads a clause or is no noun: "the toast" and "the roast" heat nothing."""
    if not start or toks[start - 1] not in _HEATED:
        return False
    return any(_heats(clause) for text in texts for clause in _CLAUSE.split(text.lower()))


#: Where a clause of a task or a step begins: after a stop, a semicolon or a "then".
_CLAUSE = re.compile(r"[.;:!?\n]|,?\s+then\b")
#: Words that may stand before a clause's verb: "Please heat the milk", "First toast the bread".
_CLAUSE_LEAD = frozenset({"please", "first", "now", "next", "then", "and", "finally"})


def _heats(clause: str) -> bool:
    """The clause heats something: its leading verb, or a word of it that is no noun, is a heating verb."""
    ws = WORD.findall(clause)
    while ws and ws[0] in _CLAUSE_LEAD:
        ws = ws[1:]
    return any(
        set(verb_lemmas(w)) & _HEATING and (i == 0 or (w not in _HEATED and "NOUN" not in classes(w)))
        for i, w in enumerate(ws)
    )


#: Words that join the things of a list: an allergy said before a list holds for each of them.
_LIST_JOINS = frozenset({"and", "or", "nor"})
_ALLERGY_LIST_WINDOW = 6


#: Words that may stand between an allergy and the things of its list: "allergic to the eggs and milk".
_LIST_LEAD = frozenset({"to", "of", "with", "the", "a", "an", "any", "all", "some"})


def listed_allergen(start: int, toks: list[str], text: str, foods: Iterable[tuple[int, int]]) -> bool:
    """The food closes a list an allergy opens ("allergic to sesame and peanuts", "allergic to eggs, sesame
    and peanuts"): each thing of the list is kept away from, like the first. Between the allergy and the food
    stand only the list's foods (the spans ``foods`` and nouns of no verb), its joins and commas: in "allergic
    to eggs; use bread and jam" the allergy's clause has closed, and the jam is fetched."""
    before = toks[max(0, start - _ALLERGY_LIST_WINDOW) : start]
    if not any(w in _LIST_JOINS for w in before[-3:]):
        return False
    opened = max((i for i in range(start - len(before), start) if toks[i] in _ALLERGY), default=-1)
    if opened < 0:
        return False
    items = {i for s, e in foods for i in range(s, e)}
    if not all(i in items or _list_word(toks[i]) for i in range(opened + 1, start)):
        return False
    marks = _marks_after(text)
    return all(marks.get(i, ",") == "," for i in range(opened, start))


def _list_word(word: str) -> bool:
    """A word a list of foods may hold besides the foods the lexicon knows: a join, an article, or a noun that
    reads as no verb ("sesame", "dairy"; "use" of "use bread and jam" is a verb, and a new clause)."""
    if word in _LIST_JOINS or word in _LIST_LEAD:
        return True
    return word not in FUNCTION_WORDS and is_nominal(word) and "VERB" not in classes(word)


def _marks_after(text: str) -> dict[int, str]:
    """The marks that follow each word of ``text`` (as ``lexicon.words`` splits it), for the words some follow."""
    out: dict[int, str] = {}
    word = -1
    for m in _WORD_OR_MARK.finditer(text.lower()):
        mark = m.group()
        if len(mark) > 1 or mark.isalnum():
            word += 1
        elif word >= 0:
            out[word] = out.get(word, "") + mark
    return out


def scene_tail(start: int, end: int, toks: list[str], keys: frozenset[tuple[str, ...]]) -> bool:
    """The words around the name spell the end of a scene name, two words or more with its head ("peas and
    carrots" of the frozen peas and carrots): the scene's thing, said without its first words."""
    for k in keys:
        for i in range(1, len(k) - 1):
            tail = k[i:]
            if tail[0] in _LIST_JOINS or tail[0] in ("of", "with", "in", "on", "for"):
                continue
            n = len(tail)
            for s in range(max(0, end - n), min(start, len(toks) - n) + 1):
                if tuple(toks[s : s + n]) == tail:
                    return True
    return False


#: Verbs of a step that makes a dish of other foods: "blend them into hummus", "shape the dough into rolls".
_MAKING_INTO = frozenset(
    {"blend", "puree", "purée", "process", "shape", "form", "turn", "make", "mould", "mold", "roll"}
)


def made_into(start: int, toks: list[str]) -> bool:
    """A food said bare after "into" in a step that makes something ("blend them ... into hummus", "shape the
    dough into rolls"): the dish a step turns the other foods into, not one it fetches. With an article ("stir
    it into the soup") or after a step that only adds ("stir the eggs into sugar"), the food is there."""
    return (
        start > 0 and toks[start - 1] == "into" and any(set(verb_lemmas(w)) & _MAKING_INTO for w in toks[: start - 1])
    )


#: Words that may stand between "for" and the food it is for: "for the peaches", "for our bread-and-butter pickles".
_FOR_GAP = frozenset({"the", "a", "an", "our", "your", "my", "their", "some", "this", "that", "these", "those"})
_FOR_WINDOW = 3


def purpose(start: int, toks: list[str]) -> bool:
    """The food is what the task is for ("boil the syrup for the peaches", "salt the slices for bread-and-butter
    pickles"): the dish or the food the work serves, which this task does not fetch."""
    for k in range(start - 1, max(-1, start - 1 - _FOR_WINDOW), -1):
        if toks[k] == "for":
            return all(w in _FOR_GAP or "-" in w for w in toks[k + 1 : start])
    return False
