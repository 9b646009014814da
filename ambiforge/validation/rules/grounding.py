"""grounding: the things named in the tasks and plans are in the scene (or are the kitchen itself).

A mention is grounded when the scene lists it in either number ("onions" / "onion"), when one name contains
the other with the same head noun ("ripe banana" / "banana", "ceramic plate" / "ceramic dinner plate"), or
when the scene name is the mention's modifier ("sourdough bread" / "sourdough"; not a thing named for a scene
thing that is no food, "oven mitts" beside the oven, unless it is that thing's part). It is not an object at all
when it is a measure ("1 tablespoon of", "a cup of"), something every kitchen has (``ambient_nouns``; AmbiK's
seven appliances, ``catalog.APPLIANCES``, are fixtures of every scene), the task's own product ("to make
granola"), made from a scene item ("orange juice" beside an orange), a part of the item a step works on ("the
zest of an orange", "remove the seeds", "squeeze the juice"), a word used as a verb ("to extract the juice",
"juice them", "Spoon 2 tablespoons", "Spoon ranch dip into a bowl" (a tool's name opening a step is its
verb), "grill or bake the salmon": lemminflect's word classes, see
``validation.language``), one of alternatives of which the scene has another or that offer any tool ("on a
plate or napkin", "using gloves or utensils"), or the container food is taken from ("from the fruit bowl",
"from its container": where it lies, like a drawer). A named object whose kind the scene has under another
name ("dish towel" / "kitchen towel") is a warning, and under another material only ("a plastic plate" among
glass ones) an error; one whose kind the scene lacks is an error, as is food the scene lacks ("the lemon", "ice"
in a scene listing none) and a generic kitchen item of which the scene has no kind at all ("a plate" in a
kitchen without plates, "using a knife"). A measure is
a unit after a number or before "of" ("2 cups", "a bowl of muesli"); "into a bowl" is the bowl. Tableware a
plan step puts the finished food on ("Slide the omelette onto a plate", "Serve on a plate") is a warning: a
scene that lists its food may leave tableware out and the task is done without it; the same plate named by
the task, asked about, or a vessel food is worked in ("beat the eggs in a bowl") is missing. Nouns a kitchen
has without listing them, or that name a part or a package (``SOFT_NOUNS``: "set a timer", "from their
containers"), are warnings, except a container a step fills or fetches ("place them in a container").
A tool named for a food is a tool ("pizza cutter" beside the pizzas), and a head only the scene's food has does
not ground a kitchen item ("a baking sheet" beside the lasagna sheets). A thing offered as optional ("if
available") or beside the kitchen's own appliance ("on the stove top or in a rice cooker") is not missing.
The intended option (``user_intent``) a kitchen item the scene lacks ("stir with a spoon", "oven mitts") is
missing too: the robot is told to use what it cannot find. Each (item, thing) is reported once.

What a reader takes as the kitchen's is not missing: a word inside a scene name the text spells whole ("the glass
sundae bowl"), a food the kitchen keeps in chunks ("a mango smoothie"), "the bottle" said alone (a food's
package: a warning), the intended option said short ("the chocolate" of the chocolate ice cream the intent names), a
kind's member without its kind ("the penne" of the penne pasta), a part the item names as one ("each cup of the
muffin tin"), a wrapping taken off ("remove the foil"), the stock of the stockpot, a spoonful ("a spoon of oil"),
an optional garnish ("if desired", "optionally"), the part of a dish a doneness cue watches ("until the cheese
bubbles"). Foil or film a step lines or covers with is fetched, so missing; protective gloves are only a warning
(readers do not count them missing beside the objects they do). A part a thing comes with (a lid, a timer) said
alone is not even a suspicion. The readings of the words around a name (an allergy, a comparison, a form a step
makes, a list, a kind's member said before its kind) are in ``grounding_context``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import TYPE_CHECKING

from ambiforge.catalog import APPLIANCES, Catalog, cached_catalog
from ambiforge.models import Item
from ambiforge.validation.language import FUNCTION_WORDS, classes, is_verb_only, verb_lemmas
from ambiforge.validation.lexicon import Lexicon, Mention, key_of, kinds, kitchen_words, lexicon_for
from ambiforge.validation.rules.base import family_rules
from ambiforge.validation.rules.grounding_context import (
    allergen,
    bracket_head,
    compared,
    cut_name,
    dough_named,
    heated,
    listed,
    listed_allergen,
    made_into,
    member_before,
    moved_product,
    purpose,
    residue,
    scene_tail,
    spelled_on,
    step_form,
)
from ambiforge.validation.rules.text import intent_concepts

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

NUMBERS = frozenset(
    {"a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"}
    | {"half", "quarter", "few", "couple", "several"}
)
#: Verbs whose object is what the task produces, not a scene object: "make granola", "prepare a smoothie".
PRODUCT_VERBS = frozenset(
    {"make", "making", "made", "prepare", "preparing", "create", "creating", "brew", "brewing", "bake", "baking"}
    | {"form", "forming", "whip", "blend", "serve", "simmer"}
)
PRODUCT_WINDOW = 6


def fields(item: Item) -> list[tuple[str, str]]:
    out = [("unambiguous_direct", item.unambiguous_direct), ("ambiguous_task", item.ambiguous_task)]
    out += [(f"plan_for_clear_task[{i}]", s) for i, s in enumerate(item.plan_for_clear_task)]
    out += [(f"plan_for_amb_task[{i}]", s) for i, s in enumerate(item.plan_for_amb_task)]
    return out


def _catalog(ctx: RuleContext) -> Catalog:
    return ctx.catalog or cached_catalog("")


class Scene:
    """A scene's names as lookup keys. Most mentions are grounded by one set lookup; the head-noun index the
    others need is built on first use."""

    __slots__ = ("_by_head", "_grounded", "food_heads", "groups", "keys")

    def __init__(
        self,
        keys: frozenset[tuple[str, ...]],
        groups: frozenset[str] = frozenset(),
        food_heads: frozenset[str] = frozenset(),
    ) -> None:
        self.keys = keys
        self.groups = groups  # catalog groups of the scene's objects ("the fish": a salmon fillet)
        self.food_heads = food_heads  # head nouns only food has ("sheet" of the lasagna sheets, "cup" of a yogurt cup)
        self._by_head: dict[str, list[frozenset[str]]] | None = None
        self._grounded: dict[tuple[str, ...], bool] = {}  # scenes repeat, and so do the things their tasks name

    @classmethod
    def of(cls, item: Item) -> Scene:
        names = tuple(o.name for o in item.environment)
        groups = frozenset(o.group for o in item.environment if o.group)
        foods = frozenset(o.name for o in item.environment if o.kind == "food")
        return _scene(item.environment_short, names, groups, foods)

    @property
    def by_head(self) -> dict[str, list[frozenset[str]]]:
        if self._by_head is None:
            self._by_head = {}
            for k in self.keys:
                self._by_head.setdefault(k[-1], []).append(frozenset(k))
        return self._by_head

    @property
    def heads(self) -> dict[str, list[frozenset[str]]]:
        return self.by_head  # (a dict: "in" and iteration give the head nouns)

    def describes(self, key: tuple[str, ...]) -> bool:
        """``key`` is a scene name or a run of words of one: 'glass' of the glass mug (its attribute)."""
        n = len(key)
        return any(k[i : i + n] == key for k in self.keys for i in range(len(k) - n + 1))

    def grounds(self, key: tuple[str, ...]) -> bool:
        found = self._grounded.get(key)
        if found is None:
            found = self._grounded[key] = self._grounds(key)
        return found

    def _grounds(self, key: tuple[str, ...]) -> bool:
        if key in self.keys or (*key[:-1], key[-1] + "s") in self.keys or (*key[:-1], key[-1] + "es") in self.keys:
            return True  # in either number: the singular rule leaves "kiwis" as it is
        words = set(key)
        for head in (key[-1], key[-1] + "s", key[-1] + "es"):  # same head in either number: "oat" / "rolled oats"
            for scene in self.by_head.get(head, ()):  # "ripe banana" / "banana"
                if (words - {key[-1]}) | {head} <= scene or scene <= words | {head}:
                    return True
        for scene in self.by_head.get(key[0], ()):  # the same words turned round: "coffee grounds" / "ground coffee"
            if scene == words:
                return True
        if len(key) > 1:
            for scene in self.by_head.get(key[-2], ()):  # the scene name modifies: "sourdough bread"
                if scene <= words:
                    return True
        n = len(key)
        if n == 1 and len(key[0]) >= 3 and any(h.endswith(key[0]) for h in self.by_head):  # "berries", "pot"
            return True
        if any(k[:n] == key and key in kinds().get(" ".join(_unformed(k[n:])), ()) for k in self.keys if len(k) > n):
            return True  # a member named without its kind (and form): "the penne" of the penne pasta, "the brie"
            # of the brie cheese wheel
        # a run of consecutive words of a scene name followed only by its form: "cheddar cheese" of the
        # cheddar cheese slices, "oat milk" of the oat milk bottle, "mason jars" of the mason jars with lids,
        # "the bowl" of the bowl of ice water; not "bread" of the bread knife
        return any(
            k[i : i + n] == key
            and (all(w in FORMS for w in k[i + n :]) or k[i + n] in ("in", "on", "from", "with", "of"))
            for k in self.keys
            if len(k) > n
            for i in range(len(k) - n + 1)
        )


#: What a scene name may add after the thing itself: its package, its cut, or where it lies ("honey in
#: cupboard"); any other word makes another thing ("bread knife", "tomato paste", "carrot cake").
FORMS = frozenset(
    {"slice", "package", "cup", "bottle", "can", "bag", "tablet", "stick", "bar", "block", "box", "jar", "carton"}
    | {"pack", "packet", "container", "piece", "loaf", "fillet", "wedge", "cube", "tub", "pot", "pod", "sheet"}
    | {"breast", "thigh", "wing", "drumstick", "leg", "nugget", "ball", "strip", "steak"}  # cuts: "the chicken"
    | {"sirloin", "tenderloin", "loin", "chop", "cutlet", "mince", "brisket", "rib", "shank", "rump"}  # "the beef"
    | {"clove", "sprig", "leaf", "stalk", "bunch", "floret", "head", "segment"}  # "the garlic" of the garlic cloves
    | {"chunk"}  # "a mango smoothie" beside the frozen mango chunks
    | {"wheel", "round"}  # "the brie" of the brie cheese wheel
)


def _unformed(words: tuple[str, ...]) -> tuple[str, ...]:
    """A name without the forms it ends in: "cheese" of "cheese wheel"."""
    while words and words[-1] in FORMS:
        words = words[:-1]
    return words


@lru_cache(maxsize=2048)
def _scene(short: str, names: tuple[str, ...], groups: frozenset[str], foods: frozenset[str] = frozenset()) -> Scene:
    """Scenes repeat across items (copies, shared set-ups), so each is keyed once."""
    every = {*names, *(n.strip() for n in short.split(","))}
    food_heads = {k[-1] for k in map(key_of, foods) if k}
    other_heads = {k[-1] for k in map(key_of, every - foods) if k}
    return Scene(frozenset(k for k in map(key_of, every) if k), groups, frozenset(food_heads - other_heads))


#: What a scene lists that a food is made from: "pizza dough" makes the pizza, "popcorn kernels" the popcorn.
_DOUGHS = frozenset({"dough", "batter", "mix", "starter", "kernel"})
#: Vessels named for the food cooked or served in them: "muffin tin", "cake pan", "soup bowls".
_FOOD_VESSELS = frozenset({"tin", "pan", "dish", "bowl", "stone", "tray", "mold", "mould", "pot", "liner", "sheet"})
#: Verbs that make a dish of ingredients; "oven" said in a step does too ("take the muffin tin out of the oven").
#: Tools that give a food the task makes its shape: "the cookies" scooped with the cookie scoop and baked.
_SHAPERS = frozenset({"cutter", "scoop"})
_COOK_VERBS = frozenset({"bake", "simmer", "roast", "stew", "cook", "boil", "fry"})


def cooks(item: Item) -> bool:
    """A step cooks (bakes, simmers, roasts...) or uses the oven: the task makes a dish."""
    for _, text in fields(item):
        for w in text.lower().split():
            w = w.strip(".,;:!?()")
            if w == "oven" or any(v in _COOK_VERBS for v in verb_lemmas(w)):
                return True
    return False


def made_in_task(key: tuple[str, ...], scene: Scene, cooked: bool) -> bool:
    """A food the task makes rather than takes: the kitchen has its dough ("the pizza" beside the pizza dough,
    "the sugar cookies" beside the sugar cookie dough), or a step cooks and the kitchen has the vessel named
    for it ("the muffins" in the muffin tin out of the oven, "the soup" simmered and ladled into the soup
    bowls), or it is a dish of a scene food the step cooks ("oatmeal" of the rolled oats). "Pour the gravy
    into the gravy boat" with no gravy, no cooking, is the gravy missing."""
    head = key[-1]
    for k in scene.keys:
        if head in k[:-1] and (k[-1] in _DOUGHS or (cooked and k[-1] in _FOOD_VESSELS | _SHAPERS)):
            return True
        if cooked and len(k) == 1 and k[0].startswith(head) and k[0][len(head) :] in _FOOD_VESSELS:
            return True  # "the stock" simmered in the stockpot: a vessel named for it in one word
    if not cooked or len(key) != 1:
        return False
    dishes = _dish_words()
    stems = {w.removesuffix("s") for k in scene.keys for w in k}  # "oats" stays plural in the scene's key
    return any(len(w) >= 3 and head.startswith(w) and head[len(w) :] in dishes for w in stems)


@lru_cache(maxsize=1)
def _dish_words() -> frozenset[str]:
    return frozenset(kitchen_words().get("product", ())) | {"meal"}


#: Words that make a scene food into the form a step uses: "ground coffee" of the coffee beans ground in the task.
_PROCESSED = frozenset({"ground", "grated", "chopped", "minced", "sliced", "diced", "crushed", "shredded", "mashed"})
#: Forms a step makes of a food by working it whole ("whipped cream" of the heavy cream, "melted butter"): only of
#: a scene food that is the same food plainly described, not of one whose name makes another thing ("ice cream").
_PREPARED = frozenset({"whipped", "beaten", "melted", "toasted"})


def processed(key: tuple[str, ...], scene: Scene) -> bool:
    """The scene's food in the form a step makes of it: "ground coffee" beside the whole coffee beans."""
    rest = key[1:]
    if len(key) < 2:
        return False
    if key[0] in _PREPARED:
        return _plainly(rest, key[0], scene)
    return key[0] in _PROCESSED and (scene.grounds(rest) or kind_present(rest, scene))


def _plainly(rest: tuple[str, ...], participle: str, scene: Scene) -> bool:
    """A scene name that is ``rest`` with only describing words before it ("heavy cream", "whipping cream" for
    "whipped cream"); a noun before it makes another food ("ice cream")."""
    verbs = set(verb_lemmas(participle))
    n = len(rest)
    return any(
        len(k) >= n
        and k[len(k) - n : -1] == rest[:-1]
        and _same_word(k[-1], rest[-1])
        and all("ADJ" in classes(w) or verbs & set(verb_lemmas(w)) for w in k[: len(k) - n])
        for k in scene.keys
    )


def _named_short(m: Mention, toks: list[str], scene: Scene) -> bool:
    """The mention with the word before it is a run of a scene name: "the first vanilla sponge" of the vanilla
    sponge cakes, the scene's thing without its last word."""
    return m.start > 0 and scene.describes((toks[m.start - 1], *toks[m.start : m.end]))


def asked_about(key: tuple[str, ...], question: frozenset[str], answered: bool) -> bool:
    """The ambiguous task's word for the open point ("in a glass container" when the question asks "Which
    glass container ...?" and the answer names the heat-proof glass jug the kitchen has): the candidates
    the question asks the user to choose from, not a thing of its own."""
    return answered and all(w in question for w in key)


def _other_food(key: tuple[str, ...], scene: Scene, lexicon: Lexicon) -> bool:
    """The named food is made from another food than every scene thing of its head ("olive oil" where the
    kitchen has sunflower oil, "almond milk" beside the whole milk): another food, not another name for it."""
    kin = [k for k in scene.keys if k[-1] == key[-1]]
    for w in key[:-1]:
        entry = lexicon.entries.get((w,))
        if entry is not None and entry.food and not any(w in k for k in kin):
            return True
    return False


#: Words that tell a thing's state, size or place, not its kind: "a tall glass" may be the highball glass.
_NOT_A_KIND = frozenset({"dirty", "clean", "kitchen", "tall", "short", "large", "small", "big", "little", "medium"})
_NOT_A_KIND |= {"new", "old", "empty", "full", "spare", "other", "second", "extra", "sharp"}


def _other_kind(key: tuple[str, ...], scene: Scene) -> bool:
    """The kitchen lists several kinds of the named thing, each by its own word, and not the named one ("a
    chef's knife" where the kitchen has a bread knife and a paring knife): the scene tells the kinds apart, so
    the named kind is another thing. One thing of the head ("dish towel" / "kitchen towel") may be the same
    thing under another name, and so may a thing a kitchen has without listing it (a towel) or one named by its
    state or size ("the dirty sponge", "a tall glass")."""
    if len(key) < 2 or key[-1] in SOFT_NOUNS or any(w in _NOT_A_KIND for w in key[:-1]):
        return False  # "the kitchen towel" beside the dish and tea towels, "the dirty sponge", "a tall glass"
    kin = [k for k in scene.keys if k[-1] == key[-1]]
    return len(kin) >= 2 and all(len(k) > 1 and not set(k[:-1]) & set(key[:-1]) for k in kin)


def _is_number(word: str) -> bool:
    return word in NUMBERS or any(c.isdigit() for c in word)


def _not_an_object(
    m: Mention, toks: list[str], scene: Scene, ctx: RuleContext, made: set[str], breaks: frozenset[int]
) -> bool:
    """A measure, something ambient, made from a scene item, or the task's product. Products are remembered
    in ``made``, so that a later bare "juice" or "granola" is the same product. A scene word before a comma
    makes nothing of the next ("lemon, garlic": the garlic is not the lemon's)."""
    key = tuple(toks[m.start : m.end])
    c = ctx.config
    after = toks[m.end] if m.end < len(toks) else ""
    before = toks[m.start - 1] if m.start else ""
    if " ".join(key) in _ambient(c.ambient_nouns):
        return True
    # "2 cups", "a cup of milk"; "into a bowl" is the bowl, not a measure; "4 ice cubes" is ice
    measure = key[-1] in _units(c.units) and not (m.food and len(key) > 1)
    if measure and (after == "of" or (_is_number(before) and before not in _ARTICLES)):
        return True
    if key in _UTENSIL_MEASURES and after == "of" and _is_number(before):
        return True  # "a spoon of coconut oil"; not "the handle of the spoon"
    if key[-1] in made:
        return True
    window = toks[max(0, m.start - PRODUCT_WINDOW) : m.start]
    # "orange juice" beside the oranges; "the juice from a lemon"
    derived = (
        (before in scene.heads and (m.start - 1) not in breaks)
        or (m.food and any(w in scene.heads for w in key[:-1]))  # not a tool named for it: "pizza cutter"
        or (key[-1] in _PARTS and (after in ("from", "out", "of") or _bare(key, before)))
    )
    verb = max((k for k, w in enumerate(window) if w in PRODUCT_VERBS), default=-1)
    product = verb >= 0 and not any(w in _INPUT_MARKERS for w in window[verb + 1 :])
    if derived or product:
        made.add(key[-1])
        return True
    return False


def _bare(key: tuple[str, ...], before: str) -> bool:
    """A part named on its own ("squeeze the juice", "remove the seeds", "to get juice"): a part of the
    item the step works on, not another object; "lemon juice" is not bare."""
    return len(key) == 1 and (not before or before in FUNCTION_WORDS or is_verb_only(before))


#: Words after a verb used in the imperative: "juice them", "zest the lemon", "to extract the juice".
_OBJECT_STARTS = frozenset({"the", "a", "an", "it", "them", "one", "half", "some", "all", "each", "both", "your"})
_VERB_BEFORE = frozenset({"", "to", "and", "then", "please", "or", "first", "also", "next", "now"})
#: Words that point at a thing ("juice this navel orange", "Robot, juice my red apple"): a bare word with a verb
#: reading straight before one is the verb of an imperative. Commas are gone from the words, so what comes
#: before it may be a vocative ("robot") or a sequence word ("next", "last"); only words that make it a noun
#: (an article, a possessive, a preposition, an amount) rule the verb out.
_POINTING = frozenset({"this", "that", "these", "those", "my", "our"})
_NOT_BEFORE_A_VERB = (
    _POINTING
    | {"the", "a", "an", "your", "its", "their", "some", "any", "no", "more", "less"}
    | {"of", "with", "in", "into", "on", "from", "for", "fresh", "cold", "hot", "warm"}
)
#: Words that open the object of an imperative's verb when a thing of the scene follows them.
_OBJECT_ARTICLES = frozenset({"the", "a", "an", "some"})
#: Words after a verb that cannot follow a noun there ("Whisk together the eggs", "whisk well").
_VERB_AFTER = frozenset({"together", "well", "gently", "briefly", "thoroughly", "vigorously", "until"})
#: Particles that make a step-initial word a phrasal verb ("Plate up the shrimp", "Spoon out the yogurt").
_PARTICLES = frozenset({"up", "out", "over"})


def _verb_use(m: Mention, toks: list[str], scene: Scene | None = None, clause_start: bool = False) -> bool:
    """A one-word name used as a verb ('extract' in "to extract the juice", 'juice' in "juice them", 'spoon'
    in "Spoon 2 tablespoons of hummus", 'plate' in "plate up the shrimp"): a verb reading (lemminflect) at
    the start of a clause, followed by its object, or at a step's start by an amount or a particle. After a
    comma or a stop a clause starts ("In a bowl, whisk together the eggs", "... butter. Grill the sandwich")."""
    if m.end - m.start != 1 or m.end >= len(toks):
        return False
    after = toks[m.end]
    before = "" if clause_start else toks[m.start - 1] if m.start else ""
    if before not in _NOT_BEFORE_A_VERB and not _is_number(before) and "VERB" in classes(toks[m.start]):
        if after in _POINTING:
            return True
        # "Robot, juice the yellow carrot": an article, then a thing the scene has ("pour juice the way ..." is not)
        if (
            scene is not None
            and after in _OBJECT_ARTICLES
            and any(w in scene.heads or w in scene.groups for w in toks[m.end + 1 : m.end + 4])
        ):
            return True
    step_start = not before or (m.start == 1 and before.isdigit())  # "Spoon ...", "3. Spoon ..."
    if step_start and scene is not None and after in _OBJECT_ARTICLES and _thing_follows(toks, m.end + 1, scene):
        return True  # "Bread the chicken wings": no name opens a step with an article and a thing after it
    if _phrasal_in(toks, m.end, before, step_start):
        return True
    run_on = before.isdigit() and after in _OBJECT_ARTICLES  # "... 4 Spoon the hummus": a step run into the last
    if (step_start or run_on) and _imperative(m, toks, after):
        return True
    if after == "or" and _paired_verb(toks, m.end + 1):
        after = "the"  # "grill or bake the salmon": the two verbs share the object
    if not (after in _OBJECT_STARTS | _VERB_AFTER or (step_start and (_is_number(after) or after in _PARTICLES))):
        return False
    if step_start:
        before = ""
    adverb = classes(before) == frozenset({"ADV"})  # "carefully extract the pizza"
    # no noun takes an object pronoun or "up" straight after it ("..., plate them together"), unless an
    # article makes it one ("the pan it was baked in")
    pronoun = after in ("it", "them", "up") and before not in _DETERMINERS and before not in _ARTICLES
    return (before in _VERB_BEFORE or adverb or pronoun) and "VERB" in classes(toks[m.start])


#: Words after a step's first word that make it a noun that is the subject or one of a list ("Spoon and fork
#: go on the tray", "Bowl is ready").
_SUBJECT_AFTER = frozenset({"and", "or", "is", "are", "was", "were", "should", "will", "can", "must", "go", "goes"})
_SUBJECT_AFTER |= frozenset({"to", "of", "for", "with", "from"})


def _imperative(m: Mention, toks: list[str], after: str) -> bool:
    """A kitchen tool's name opening a step is the step's imperative verb ("Spoon ranch dip into a small bowl",
    "Spoon clotted cream into a bowl"): plan steps open with what to do, and a noun opening one is followed by
    its verb or a list, never by the thing acted on. Food names are left to the other readings ("Salt the
    water" is a verb, but a food opening a step is too often the step's subject)."""
    return not m.food and "VERB" in classes(toks[m.start]) and after not in _SUBJECT_AFTER


#: Words that say a thing is not to be used: "not in a metal bowl", "never with a dish towel", "instead of a
#: fork", "avoid using the bread knife", "without the lid".
_DECLINING = frozenset({"not", "never", "don't", "without", "instead", "avoid", "rather", "nor"})


def _declined(j: int, mentions: list[Mention], toks: list[str]) -> bool:
    """The thing is named as one not to use: a word that declines it stands at most four words before it,
    with no other thing between ("do not use a metal container", "stir with the spoon instead of a fork").
    The task does not need it, so the kitchen need not have it."""
    m = mentions[j]
    start = mentions[j - 1].end if j else 0
    return any(w in _DECLINING for w in toks[max(start, m.start - 4) : m.start])


def _phrasal_in(toks: list[str], end: int, before: str, step_start: bool) -> bool:
    """ "whisk in the cocoa", "and stir in the sugar": a verb with "in" and the food it adds; "whisk in the
    bowl", "salt in the metal bowl" name the vessel the thing is in."""
    k = end + 2
    return (
        (step_start or before in _VERB_BEFORE)
        and toks[end : end + 1] == ["in"]
        and k < len(toks)
        and toks[end + 1] in _OBJECT_ARTICLES
        and not any(w in _VESSELS | SERVEWARE for w in toks[k : k + 3])  # "in a measuring cup"
        and "VERB" in classes(toks[end - 1])
    )


def _thing_follows(toks: list[str], k: int, scene: Scene) -> bool:
    """A thing of the scene is named within three words from ``k``."""
    return any(w in scene.heads or w in scene.groups for w in toks[k : k + 3])


def _paired_verb(toks: list[str], k: int) -> bool:
    """The word at ``k`` is a verb followed by the start of an object ("bake the salmon" of "grill or bake the
    salmon"): the word before "or" is then the other verb of the pair, not a thing."""
    return k + 1 < len(toks) and toks[k + 1] in _OBJECT_STARTS and "VERB" in classes(toks[k])


def _scene_compound(key: tuple[str, ...], m: Mention, toks: list[str], scene: Scene) -> bool:
    """The mention is the first part of a scene object's name that the next word ends in another form: "the
    cream cheese-covered slice" (cream cheese), "the peanut buttered toast" (peanut butter). The whole name
    resolves before its parts."""
    if m.end >= len(toks):
        return False
    following = toks[m.end]
    first = following.split("-")[0]
    forms = {first, first.removesuffix("ed"), first.removesuffix("d")}
    return any((*key, form) in scene.keys for form in forms if form)


def kind_present(key: tuple[str, ...], scene: Scene) -> bool:
    """A kind the scene has a member of: "pasta" beside the fettuccine, "tea" beside the green tea bags
    (``kinds`` in kitchen_words.yaml)."""
    members = kinds().get(" ".join(key), ())
    return bool(members) and any(scene.grounds(m) or any(m[-1] in k and m[0] in k for k in scene.keys) for m in members)


#: What is taken out of a scene item: "the juice from a lemon", "the zest of"...
#: Utensils that measure what they hold: "a spoon of coconut oil", "two ladles of the broth".
_UTENSIL_MEASURES = frozenset({("spoon",), ("ladle",)})
_PARTS = frozenset({"juice", "zest", "peel", "seed", "yolk", "white", "pulp", "flesh", "skin", "rind", "water"})
_INPUT_MARKERS = frozenset({"with", "using", "in", "into", "from", "on"})
_AMBIENT: dict[tuple[str, ...], frozenset[str]] = {}
_UNITS: dict[tuple[str, ...], frozenset[str]] = {}


def _ambient(nouns: tuple[str, ...]) -> frozenset[str]:
    if nouns not in _AMBIENT:
        _AMBIENT[nouns] = frozenset(" ".join(key_of(n)) for n in nouns)
    return _AMBIENT[nouns]


def _units(units: tuple[str, ...]) -> frozenset[str]:
    if units not in _UNITS:
        _UNITS[units] = frozenset(key_of(u)[-1] for u in units if key_of(u))
    return _UNITS[units]


def _modifier(m: Mention, toks: list[str], lexicon: Lexicon, scene: Scene, breaks: frozenset[int]) -> bool:
    """A noun used as a modifier of the next word: 'glass' in 'glass salad plate', 'lemon' in 'lemon zest'
    (not across a comma: "dried oregano, salt"); or a material in a list of materials ("plates (metal,
    plastic, ceramic, and glass)")."""
    if m.end < len(toks) and (toks[m.end] in lexicon.heads or toks[m.end] in scene.heads) and (m.end - 1) not in breaks:
        return True
    if m.end - m.start == 1 and toks[m.start] in _MATERIALS and m.end < len(toks):
        following = toks[m.end]  # "a glass microwave-safe plate": the material of what follows
        if "-" in following or (following not in FUNCTION_WORDS and "ADJ" in classes(following)):
            return True
    before = [t for t in toks[max(0, m.start - 2) : m.start] if t not in ("and", "or")]
    return m.end - m.start == 1 and toks[m.start] in _MATERIALS and bool(before) and before[-1] in _MATERIALS


def _definite(m: Mention, toks: list[str], introduced: set[str]) -> bool:
    """A kitchen item named as a particular one ("use the spatula", "the cutting board"): the scene must have
    one. "a bowl" may come from any cupboard (a warning; but see :func:`_particular`), and so may "the bowl"
    after "a bowl" (``introduced``: heads named before with "a", "an", "some"); a part ("the lid") belongs
    to another item."""
    before = toks[m.start - 1] if m.start else ""
    part = toks[m.end - 1] in _ITEM_PARTS and (m.end - m.start == 1 or m.kind == "fixture")
    package = m.end - m.start == 1 and toks[m.start] in _PACKAGES  # "Open the bottle" of the sparkling wine
    return before == "the" and toks[m.end - 1] not in introduced and not part and not package


#: What food comes in: "the bottle" said alone is most often the package of a food the scene lists (the wine's),
#: so its absence from the list is a suspicion, not a missing thing.
_PACKAGES = frozenset({"bottle", "can", "jar", "box", "bag", "carton", "package", "packet", "tin", "wrapper"})


#: Words before a kitchen item that make it the tool a step is done with ("using a knife", "with a whisk").
_INSTRUMENT = frozenset({"using", "with", "use"})
#: Materials that make "a ceramic dinner plate" one particular item rather than any plate from a cupboard.
_MATERIALS = frozenset(
    {"ceramic", "glass", "plastic", "wooden", "metal", "steel", "stainless", "porcelain", "silicone", "bamboo"}
    | {"copper", "cast", "iron", "enamel", "stoneware", "melamine", "aluminium", "aluminum", "marble", "granite"}
)
_ARTICLES = frozenset({"a", "an"})


def _particular(m: Mention, toks: list[str], previous: tuple[Mention, str | None] | None) -> str | None:
    """An indefinite kitchen item the task cannot do without, so the scene must have one: the tool a step is
    done with ("using a knife", "with a whisk", and "cutting board" in "using a knife and cutting board") or
    an item told apart by its material ("serve it on a ceramic dinner plate"). Returns the words that say so
    (the material's whole phrase), or None. "Put them in a bowl" stays a warning: a container may come from
    any cupboard."""
    start, end = m.start, m.end
    if previous is not None and previous[1] and toks[previous[0].end : start] in (["and"], [","], [",", "and"]):
        return " ".join(toks[start:end])  # "using a knife and cutting board": the second tool of the phrase
    k = start - 1
    while k >= 0 and start - k <= 3 and toks[k] not in _ARTICLES:
        k -= 1
    if k < 0 or toks[k] not in _ARTICLES:
        return None
    if any(t in _MATERIALS for t in toks[k + 1 : start]):
        return " ".join(toks[k + 1 : end])
    if start - k == 1 and k > 0 and toks[k - 1] in _INSTRUMENT:
        return " ".join(toks[start:end])
    return None


def _other_material(key: tuple[str, ...], scene: Scene) -> bool:
    """The named thing is made of one material and every scene thing of its kind of another ("a plastic plate"
    where the plates are glass and metal): another object, not another name for one the kitchen has."""
    made = {w for w in key[:-1] if w in _MATERIALS}
    if not made:
        return False
    kin = [k for k in scene.keys if k[-1] == key[-1]]
    return bool(kin) and all({w for w in k[:-1] if w in _MATERIALS} - made and not made & set(k) for k in kin)


def _introduce(mentions: list[Mention], toks: list[str], introduced: set[str]) -> None:
    for m in mentions:
        if m.start and toks[m.start - 1] in ("a", "an", "some", "another", "any"):
            introduced.add(toks[m.end - 1])


#: Parts a thing comes with ("cover the pot with its lid", "set the timer"): said alone, the part of a scene
#: thing or of the kitchen's appliances, which no reader of the labelled rows counted missing (0 of about 40
#: such warnings), so not even a suspicion.
_OWN_PARTS = frozenset({"lid", "handle", "blade", "cap", "cover", "base", "plug", "cord", "timer", "door"})
_ITEM_PARTS = _OWN_PARTS | {"jar", "tray", "bag", "wrapper", "packaging", "box", "rack", "shelf"}  # a package, a rack


#: Generic nouns a kitchen may have without listing them, or that name a part or a package rather than a
#: thing to fetch ("set a timer", "from their containers", "a clean towel"): a kitchen without one listed is
#: only a suspicion. Any other kitchen item of no kind in the scene ("a plate", "the mixing bowl") is missing.
SOFT_NOUNS = frozenset(
    {"timer", "container", "lid", "bottle", "bag", "brush", "towel", "foil", "napkin", "rack", "tray", "wrap"}
    | {"box", "jar", "cap", "cover", "handle", "paper", "packaging", "wrapper", "package", "can"}
)

#: What a step wears to protect the hands ("using protective gloves to avoid burns"): readers of the published rows
#: never count it missing beside the objects they do, so a kitchen without it is a suspicion.
_WORN = frozenset({"glove"})

#: Soft nouns that name bakeware when qualified: "a baking tray" is a tool to fetch like a baking sheet, "parchment
#: paper" a lining the step cannot do without.
_BAKEWARE = frozenset(
    {("baking", "tray"), ("oven", "tray"), ("roasting", "tray"), ("parchment", "paper"), ("baking", "paper")}
)


#: Tableware food is put on or in to be served ("serve on a plate", "pour into a glass"). A scene that lists
#: its food may leave its tableware out, and the task is done without it, so serving on one the scene lacks
#: is a suspicion; a vessel a step cooks or mixes in ("beat the eggs in a bowl", "a baking dish") is needed to
#: do the task, and its absence stays an error.
SERVEWARE = frozenset({"plate", "platter", "saucer", "glass", "mug", "cup", "bowl", "dish", "ramekin"})
#: Modifiers that make a vessel one to cook or mix in: "a baking dish", "a mixing bowl".
_WORKWARE = frozenset(
    {"baking", "casserole", "roasting", "mixing", "pie", "microwave", "microwave-safe", "oven", "oven-safe"}
    | {"ovenproof", "gratin", "soup", "pasta", "salad"}
)
_SERVE_VERBS = frozenset(
    {"serve", "transfer", "place", "put", "arrange", "slide", "set", "lay", "plate", "move", "pour", "spoon"}
    | {"ladle", "scoop", "present", "divide", "pile", "portion", "tip", "empty", "remove", "take", "lift"}
)
#: Verbs of working in the vessel: said beside it, the vessel is where the food is prepared, not served.
_WORK_VERBS = frozenset(
    {"mix", "whisk", "beat", "stir", "combine", "toss", "mash", "knead", "marinate", "microwave", "heat", "melt"}
    | {"blend", "cook", "bake", "season", "crack", "soak", "dissolve", "fold", "coat", "warm", "reheat", "add"}
    | {"whip", "cream", "sift", "break", "rest", "rise", "chill", "cool", "refrigerate", "freeze", "store"}
)
_SERVE_PREPS = frozenset({"on", "onto", "to", "into", "in"})
_SERVE_WINDOW = 8


#: Verbs that put food into a vessel or fetch one to do so ("place them in a container", "Get a container").
_FILL_VERBS = frozenset({"place", "put", "pour", "transfer", "heat", "fill", "get", "take", "grab", "fetch"})
_FILL_VERBS |= {"retrieve", "mix", "combine", "add", "scoop", "spoon", "squeeze", "chop", "slice", "cut"}


#: Things a scene lists that are containers too: "a container" in a kitchen with one of them may be it.
_VESSELS = frozenset(
    {"bowl", "pot", "saucepan", "pan", "skillet", "wok", "jar", "cup", "mug", "glass", "dish", "box", "tub"}
    | {"pitcher", "jug", "carafe", "flask", "tumbler", "ramekin", "stockpot", "casserole", "tupperware"}
)


def _vessel(m: Mention, toks: list[str], raw: str, scene: Scene) -> bool:
    """ "a container" a step puts food into or fetches to do so ("place the carrot in a container", "Get a
    container from the cabinet", "Heat the peas in a separate container"): a vessel the task needs, not the
    package food comes in ("a container of yogurt", "from their containers") nor one it is stored in for later
    ("store in an airtight container"), and not in a kitchen that lists a vessel of another name (the saucepan
    may be the container meant)."""
    key = toks[m.start : m.end]
    if key[-1] != "container" or raw.endswith("s") or (m.end < len(toks) and toks[m.end] == "of"):
        return False
    if any(h in _VESSELS for h in scene.heads):
        return False
    k = m.start - 1
    while k >= 0 and m.start - k <= 4 and toks[k] not in _ARTICLES:
        if toks[k] not in _SERVE_PREPS and "ADJ" not in classes(toks[k]):
            return False
        k -= 1
    if k < 0 or toks[k] not in _ARTICLES:
        return False
    before = toks[max(0, k - _SERVE_WINDOW) : k + 1]
    lemmas = {v for w in before for v in verb_lemmas(w)}
    return bool(lemmas & _FILL_VERBS) and not lemmas & {"store", "serve"}


def _worked_in(m: Mention, toks: list[str]) -> bool:
    """A verb of working food said beside the mention ("mash the bananas on the plate"): the vessel is where
    the food is prepared. Carrying the plate to the table is not."""
    near = (*toks[max(0, m.start - _SERVE_WINDOW) : m.start], *toks[m.end : m.end + _SERVE_WINDOW])
    return any(v in _WORK_VERBS for w in near for v in verb_lemmas(w))


def _open_point(item: Item) -> frozenset[str]:
    """The words of what the item asks about (question, answer, shortlist, intent, variants), singular: tableware
    that is the open point ("Which bowl?") is a thing the task is about, not one it serves on."""
    text = " ".join((item.question, item.answer, *item.amb_shortlist, *item.user_intent, *item.variants))
    return frozenset(key_of(text))


def _serving(m: Mention, toks: list[str]) -> bool:
    """Tableware a plan step puts the food on or in after it is made, in a clause that moves food there ("Transfer the
    chicken to a plate", "Serve the pasta on a plate", "pour the juice into a glass") and works no food in it
    ("place the flour in a bowl and whisk"): the vessel the food is served in, not one the task needs."""
    key = toks[m.start : m.end]
    if key[-1] not in SERVEWARE or any(w in _WORKWARE for w in key[:-1]):
        return False
    k = m.start - 1
    while k >= 0 and m.start - k <= 5 and toks[k] not in _SERVE_PREPS:
        # "on a clean plate", "on a plate or bowl"; "a plate" after a verb or a noun is not where food is put
        if (
            toks[k] not in _DETERMINERS
            and toks[k] not in SERVEWARE
            and toks[k] != "or"
            and "ADJ" not in classes(toks[k])
        ):
            return False
        k -= 1
    if k < 0 or toks[k] not in _SERVE_PREPS:
        return False
    before = toks[max(0, k - _SERVE_WINDOW) : k]
    after = toks[m.end : m.end + _SERVE_WINDOW]
    if not any(v in _SERVE_VERBS for w in before for v in verb_lemmas(w)):
        return False
    return not any(v in _WORK_VERBS for w in (*before, *after) for v in verb_lemmas(w))


#: Words a step says over each of a thing's parts: "put a liner in each cup", "wash the tin cup by cup".
_DISTRIBUTIVE = frozenset({"each", "every"})


def _each_part(m: Mention, toks: list[str], scene: Scene) -> bool:
    """A kitchen item said over each of its kind ("in each cup", "cup by cup") with no such item in the scene
    but a vessel that has such parts (a tin, a tray, a pan): the parts of that vessel the step goes round (the
    cups of the muffin tin), not things it fetches. With no vessel ("Fill each cup with batter" beside the
    batter and a spatula) the cups are missing."""
    if m.end - m.start != 1 or not any(h in _FOOD_VESSELS or h in _VESSELS for h in scene.heads):
        return False
    word = toks[m.start]
    return (
        (m.start > 0 and toks[m.start - 1] in _DISTRIBUTIVE)
        or toks[m.end : m.end + 2] == ["by", word]
        or toks[max(0, m.start - 2) : m.start] == [word, "by"]
    )


def _made_of(m: Mention, toks: list[str], scene: Scene) -> bool:
    """A food said as made of a scene thing ("a broth of miso paste stirred into hot water"): the dish the step
    makes, not a thing to fetch. (Only food: "a cup of milk" is a measure, "a can of beans" a package.)"""
    if m.end >= len(toks) or toks[m.end] != "of":
        return False
    start = m.end + 1 + (m.end + 1 < len(toks) and toks[m.end + 1] in _DETERMINERS)
    return any(tuple(toks[start : start + len(k)]) == k for k in scene.keys)


def _generic_vessel(key: tuple[str, ...], scene: Scene) -> bool:
    """ "the container" in a kitchen that lists a vessel of another name: the jar or the saucepan may be the
    container meant (see :func:`_vessel`), so it is a suspicion, not a missing thing."""
    return key[-1] == "container" and any(h in _VESSELS for h in scene.heads)


@dataclass(frozen=True)
class Ungrounded:
    rule: str
    field: str
    text: str
    message: str


def _in_scene(m: Mention, toks: list[str], scene: Scene) -> bool:
    key = tuple(toks[m.start : m.end])
    return (
        (m.kind == "noun" and m.name in scene.groups)
        or scene.grounds(key)
        or _scene_compound(key, m, toks, scene)
        or _spelled_out(m, toks, scene)
    )


#: Words that say a scene food comes in its liquid: "can of peaches", "canned chickpeas", "jar of olives".
_PACKED = frozenset({"canned", "jarred", "tinned"})


def _packed(scene: Scene) -> bool:
    """The scene keeps a food in a can or a jar, whose liquid a step may drain off."""
    return any(k[0] in _PACKED or (len(k) > 2 and k[0] in ("can", "jar", "tin") and k[1] == "of") for k in scene.keys)


#: Parts an appliance or a vessel is made with: "the blender jar", "the oven rack", "the fryer basket" are the
#: scene thing's own; "a freezer bag" is not the freezer's.
_FITTED = _OWN_PARTS | {"jar", "tray", "rack", "shelf", "basket", "bowl", "drawer"}


def _fitted_part(key: tuple[str, ...], scene: Scene) -> bool:
    """A part an appliance or a vessel is made with, named after the last word of a scene thing that is no food
    ("the steamer basket" of the microwave steamer, "the fryer basket" of the air fryer): that thing's own. A
    vessel's parts are its lid and its handle ("the dish rack" beside the baking dish is a rack of its own), and
    a material names no thing ("the glass jar" beside the wine glass is a jar of glass)."""
    if len(key) != 2 or key[0] not in scene.heads or key[0] in scene.food_heads or key[0] in _MATERIALS:
        return False
    return key[-1] in (_OWN_PARTS if key[0] in _VESSELS or key[0] in _FOOD_VESSELS else _FITTED)


def _named_for(m: Mention, key: tuple[str, ...], scene: Scene) -> bool:
    """A kitchen thing named for another scene thing that is no food ("the oven mitts" beside the oven, "a
    freezer bag" beside the freezer, "the pot holder" beside the pot): another thing, which the scene's name as
    its modifier does not ground. Not a part of that thing (``_FITTED``: "the blender jar"), one of its
    material ("a glass cup" beside the glass), or a thing named for a food ("the butter knife" beside the
    butter: that reading is the modifier rule's)."""
    if m.food or len(key) < 2 or key[-1] in _FITTED or key[-2] in _MATERIALS or key[-2] in scene.food_heads:
        return False
    words = set(key)
    named = {s for s in scene.by_head.get(key[-2], ()) if s <= words}
    if not named:
        return False
    rest = Scene(frozenset(k for k in scene.keys if frozenset(k) not in named), scene.groups, scene.food_heads)
    return not rest.grounds(key)


def _same_word(a: str, b: str) -> bool:
    """One word in either number: the scene's "potato chips" stays plural in its key, a text's "potato chip
    crust" does not."""
    return a == b or a.removesuffix("s") == b.removesuffix("s") or a.removesuffix("es") == b.removesuffix("es")


def _spelled_out(m: Mention, toks: list[str], scene: Scene) -> bool:
    """The mention lies inside words that spell a scene thing's whole name ("the glass sundae bowl", "a
    chocolate pudding cup", "a crushed potato chip crust" beside the potato chips): the lexicon read a part of
    the name, and the text names the scene's thing."""
    for k in scene.keys:
        n = len(k)
        if n <= m.end - m.start:
            continue
        for i in range(max(0, m.end - n), min(m.start, len(toks) - n) + 1):
            if all(_same_word(toks[i + j], k[j]) for j in range(n)):
                return True
    return False


def _intended_short(key: tuple[str, ...], item: Item, scene: Scene) -> bool:
    """The mention is the intended option said short ("the chocolate" where the intent is "chocolate ice
    cream|chocolate" and the kitchen has the chocolate ice cream): another wording of the same option names a
    scene thing, so the mention names it too (a leak of the answer, perhaps, but no missing object)."""
    name = " ".join(key)
    for alternatives in intent_concepts(item.user_intent)[0]:
        keys = [key_of(a) for a in alternatives]
        if any(" ".join(k) == name for k in keys) and any(k and k != key and scene.grounds(k) for k in keys):
            return True
    return False


#: Words that may stand between two things offered as alternatives: "a plate or napkin", "on a plate or in
#: a bowl", "a butter knife or spoon".
_OR_GAP = frozenset({"or", "a", "an", "the", "some", "in", "on", "onto", "into", "with", "use", "using"})


#: Kinds of tools offered as the alternative ("using gloves or utensils"): every kitchen has some, so the step
#: can be done with what it has. A kind of food ("crackers or fruit slices") needs a member in the scene.
_TOOL_KINDS = frozenset({"utensil", "tool", "cutlery", "dishware", "tableware", "appliance"})


def _alternative_present(j: int, mentions: list[Mention], present: list[bool], toks: list[str]) -> bool:
    """The thing is one of alternatives joined by "or" and another of them is in the scene ("on a plate or
    napkin" beside the napkins, "a whisk or spoon") or is a kind of tool ("or utensils"): the step can be
    done with what the kitchen has."""
    m = mentions[j]
    for k in (j - 1, j + 1):
        if not 0 <= k < len(mentions) or not present[k]:
            continue
        if mentions[k].kind == "fixture" and not _tool_fixture(mentions[k].name):
            continue
        o = mentions[k]
        gap = toks[o.end : m.start] if k < j else toks[m.end : o.start]
        if "or" in gap and len(gap) <= 3 and all(t in _OR_GAP for t in gap):
            return True
    return False


_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "your", "one", "some"})


def _tool_fixture(name: str) -> bool:
    """A fixture a step can be done with in place of a tool: a kind of tool ("or utensils") or the kitchen's
    own appliance ("on the stove top or in a rice cooker"); not a product ("the salad or a bowl")."""
    key = key_of(name)
    return bool(key) and (key[-1] in _TOOL_KINDS or " ".join(key) in _COOKING_FIXTURES)


#: The kitchen's own appliances: always there, so a step offering one as the other way is done with it.
_COOKING_FIXTURES = frozenset(" ".join(key_of(n)) for n in (*APPLIANCES, "stove", "stovetop", "stove top", "burner"))


def _food_store(j: int, mentions: list[Mention], toks: list[str]) -> bool:
    """The container a step takes food from ("take apples from the fruit bowl", "take the coffee beans from
    the container"): where the food lies, like a drawer or the fridge, not a thing the task uses. The food
    is named before "from", or the container is named for it ("from the bread basket")."""
    m = mentions[j]
    if m.food:
        return False
    start = m.start
    if j and mentions[j - 1].end == start and (mentions[j - 1].food or mentions[j - 1].kind == "fixture"):
        start = mentions[j - 1].start  # "fruit" of "the fruit bowl"
    k = start - 1
    while k >= 0 and toks[k] in _DETERMINERS:
        k -= 1
    if k < 0 or toks[k] != "from":
        return False
    return start != m.start or any(o.food and o.end <= k for o in mentions[:j])


#: A doneness cue that opens with the thing it watches: "until the cheese bubbles", "once the crust browns".
_CUES = (["until", "the"], ["till", "the"], ["once", "the"], ["when", "the"])
#: Words after a thing that make it optional: "a rice cooker if available", "edible flowers if desired".
_IF_WORDS = frozenset({"available", "you", "there", "desired", "wanted", "preferred", "liked", "any"})
_OPTIONAL_WINDOW = 12


def _optional(m: Mention, toks: list[str]) -> bool:
    """The step offers the thing as optional ("a rice cooker if available", "mint leaves or edible flowers
    if desired", "Optionally garnish with fresh mint"): the task is done without it, so it is not missing."""
    after = toks[m.end : m.end + 6]
    if any(w == "if" and i + 1 < len(after) and after[i + 1] in _IF_WORDS for i, w in enumerate(after)):
        return True
    return any(w in ("optionally", "optional") for w in toks[max(0, m.start - _OPTIONAL_WINDOW) : m.start])


#: Words between a part and the thing it belongs to: "each cup of the muffin tin", "the neck of its bottle".
_OWNERS = frozenset({"the", "its", "their", "each", "every"})


def _parts(item: Item, lexicon: Lexicon, scene: Scene) -> frozenset[str]:
    """Heads the item itself names as parts of a kitchen thing the scene has ("each cup of the muffin tin"):
    the same word said alone elsewhere ("fill each cup two-thirds full") is that part, not a missing cup."""
    out: set[str] = set()
    for _, text in fields(item):
        toks, mentions = lexicon.scan(text)
        for j, m in enumerate(mentions[:-1]):
            o = mentions[j + 1]
            between = toks[m.end : o.start]
            if (
                not m.food
                and not o.food
                and len(between) == 2
                and between[0] == "of"
                and between[1] in _OWNERS
                and (o.kind == "fixture" or _in_scene(o, toks, scene))
            ):
                out.add(toks[m.end - 1])
    return frozenset(out)


#: Verbs that take a wrapping off the thing it is on: "Remove the foil from the neck of the bottle".
_UNWRAP_VERBS = frozenset({"remove", "peel", "unwrap", "discard", "tear", "strip"})
#: What is taken off a thing rather than fetched: not "remove the container from the microwave".
_WRAPPINGS = frozenset({"foil", "wrap", "film", "wrapper", "packaging", "lid", "cap", "cover", "seal", "paper"})


def _unwrapped(m: Mention, toks: list[str]) -> bool:
    """A wrapping named bare and taken off ("remove the foil", "peel off the film"): the package of a thing
    the scene has, not a thing to fetch; the same word a step lines or covers with is fetched."""
    if m.end - m.start != 1 or toks[m.start] not in _WRAPPINGS or m.start < 2:
        return False
    before = toks[max(0, m.start - 3) : m.start]
    return before[-1] in ("the", "its", "their") and any(v in _UNWRAP_VERBS for w in before for v in verb_lemmas(w))


#: Wrappings a step lines or covers with ("line the baking sheet with foil", "cover it with plastic wrap"):
#: the step cannot be done without one, like parchment paper.
_WRAPS = frozenset({"foil", "wrap", "film"})
_LINING_VERBS = frozenset({"line", "cover", "wrap"})


def _lining(m: Mention, toks: list[str]) -> bool:
    """Foil or a film a step lines or covers something with: "covered with aluminum foil", "a baking sheet
    lined with foil"."""
    if toks[m.end - 1] not in _WRAPS:
        return False
    before = toks[max(0, m.start - 6) : m.start]
    return "with" in before and any(v in _LINING_VERBS for w in before for v in verb_lemmas(w))


def _with_catalog_groups(item: Item, scene: Scene, lexicon: Lexicon, catalog: Catalog) -> Scene:
    """The scene with the catalog groups of the things it lists in another number or wording than the catalog's
    ("salmon fillets" for the catalog's salmon fillet, of the fish): "the fish" then names it."""
    groups = set(scene.groups)
    for name in item.environment_short.split(","):
        toks, mentions = lexicon.scan(name)
        if len(mentions) == 1 and mentions[0].kind == "object" and mentions[0].end - mentions[0].start == len(toks):
            obj = catalog.objects.get(mentions[0].name)
            if obj is not None and obj.group:
                groups.add(obj.group)
    if groups <= scene.groups:
        return scene
    names = tuple(o.name for o in item.environment)
    foods = frozenset(o.name for o in item.environment if o.kind == "food")
    return _scene(item.environment_short, names, frozenset(groups), foods)


#: The most words a vaguer wording of the open point replaces on either side ("two crumpets" / "two breakfast
#: breads"); a longer change is another task, not a word for the choice.
_REPLACED_WORDS = 3


def _replaced_option(item: Item, lexicon: Lexicon, scene: Scene) -> frozenset[int]:
    """Word positions of the ambiguous task that stand where the clear task names a scene thing ("Toast two
    breakfast breads" for "Toast two crumpets"): the vaguer word that leaves the choice open, whose
    candidates the kitchen has; not a thing of its own."""
    clear = lexicon.scan(item.unambiguous_direct)[0]
    amb = lexicon.scan(item.ambiguous_task)[0]
    out: set[int] = set()
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=clear, b=amb, autojunk=False).get_opcodes():
        if tag != "replace" or i2 - i1 > _REPLACED_WORDS or j2 - j1 > _REPLACED_WORDS:
            continue
        runs = (tuple(clear[s:e]) for s in range(i1, i2) for e in range(s + 1, i2 + 1))
        if any(run in scene.keys or scene.grounds(run) for run in runs):
            out.update(range(j1, j2))
    return frozenset(out)


#: Words that say a thing is the option the user picks: "the chosen sauce", "the selected knife".
_CHOSEN = frozenset({"chosen", "selected", "preferred"})


def _chosen(start: int, toks: list[str]) -> bool:
    """The ambiguous half calls the thing the option still to be chosen ("Take two pieces of the chosen
    bread"): the open point's kind, whose candidates the question asks about."""
    return any(w in _CHOSEN for w in toks[max(0, start - 2) : start])


def ungrounded(item: Item, ctx: RuleContext) -> list[Ungrounded]:
    """Each ungrounded thing once, at its first field, with the rule it falls under."""
    catalog = _catalog(ctx)
    lexicon = lexicon_for(catalog)
    scene = _with_catalog_groups(item, Scene.of(item), lexicon, catalog)
    seen: dict[str, int] = {}
    made: set[str] = set()
    introduced: set[str] = set()
    asked = _open_point(item)
    served: dict[str, int] = {}  # things first named as tableware to serve on, by their place in ``out``
    out: list[Ungrounded] = []
    question = frozenset(key_of(item.question))
    answer_toks, answer_mentions = lexicon.scan(item.answer)
    answered = any(a.kind != "fixture" and _in_scene(a, answer_toks, scene) for a in answer_mentions)
    shortened: set[str] = set()  # heads of scene things named without their last word ("the vanilla sponge")
    cooked: bool | None = None
    parts = _parts(item, lexicon, scene)
    toks: list[str] = []
    for field_name, text in fields(item):
        # the words of the plan step before this one (none before a plan's first step)
        step_before = toks if field_name.startswith("plan") and not field_name.endswith("[0]") else []
        toks, mentions = lexicon.scan(text)
        breaks: frozenset[int] | None = None  # words a comma or a stop follows: read when a name is not in the scene
        _introduce(mentions, toks, introduced)
        previous: tuple[Mention, str | None] | None = None
        present = [
            m.kind == "fixture"
            or (_in_scene(m, toks, scene) and not _named_for(m, tuple(toks[m.start : m.end]), scene))
            for m in mentions
        ]
        for j, m in enumerate(mentions):
            particular = _particular(m, toks, previous)
            previous = (m, particular)
            if m.kind == "fixture":
                continue
            key = tuple(toks[m.start : m.end])
            if present[j]:
                if len(key) > 1 and key not in scene.keys and key[-1] not in scene.heads:
                    made.add(key[-1])  # "orange juice" beside the oranges: a later "juice" is that juice
                if m.food and not scene.grounds(key) and _spelled_out(m, toks, scene):
                    shortened.add(key[-1])  # "the chocolate" after "the dark chocolate chips"
                member = member_before(m.start, key, toks, scene.keys) if m.food else ""
                name = f"{member} {' '.join(key)}"
                if member and name not in seen and not _optional(m, toks) and not _declined(j, mentions, toks):
                    seen[name] = len(out)
                    others = ", ".join(sorted(" ".join(k) for k in scene.keys if k[-1] == key[-1]))
                    message = f"names '{name}', which is not in the environment (it has {others}: another food)"
                    out.append(Ungrounded("grounding", field_name, name, message))
                continue
            if (
                _named_short(m, toks, scene)
                or key[-1] in shortened
                or scene_tail(m.start, m.end, toks, scene.keys)
                or spelled_on(m.start, m.end, toks, scene.keys)
                or cut_name(m.start, m.end, toks, scene.keys)
            ):
                shortened.add(key[-1])  # "the second sponge" after "the first vanilla sponge"
                continue
            if field_name.startswith(("ambiguous_task", "plan_for_amb_task")) and asked_about(key, question, answered):
                continue
            if field_name == "ambiguous_task" and m.start in _replaced_option(item, lexicon, scene):
                continue  # "two breakfast breads" where the clear task toasts two crumpets
            if field_name.startswith(("ambiguous_task", "plan_for_amb_task")) and _chosen(m.start, toks):
                continue  # "the chosen bread": the option the user will pick, not a thing of its own
            if not m.food and _fitted_part(key, scene):
                continue  # "the steamer basket" of the microwave steamer
            if _intended_short(key, item, scene) or (not m.food and key[-1] in parts) or _unwrapped(m, toks):
                continue
            if not m.food and _each_part(m, toks, scene):
                continue  # "put a liner in each cup" of the muffin tin
            if m.food and m.start >= 2 and toks[m.start - 2 : m.start] in _CUES:
                continue  # "bake until the cheese bubbles": a part of the dish the step cooks, named first there
            if m.food:
                if cooked is None:
                    cooked = cooks(item)
                if (
                    processed(key, scene)
                    or made_in_task(key, scene, cooked)
                    or dough_named(key[-1], (t for _, t in fields(item)), _DOUGHS)
                    or _made_of(m, toks, scene)
                    or moved_product(m.start, toks, step_before)
                    or heated(m.start, toks, (t for _, t in fields(item)))
                    or (
                        len(key) > 1
                        and scene.grounds(key[1:])
                        and step_form(key, (lexicon.scan(t)[0] for _, t in fields(item)))
                    )
                ):
                    made.add(key[-1])
                    continue
            if m.food and (
                listed_allergen(m.start, toks, text, ((x.start, x.end) for x in mentions if x.food))
                or made_into(m.start, toks)
                or (not field_name.startswith("plan") and purpose(m.start, toks))
            ):
                continue  # "allergic to sesame and peanuts", "blend ... into hummus"
            if (m.food and allergen(m.start, m.end, toks)) or compared(m.start, toks):
                continue  # "Tom is allergic to peanuts", "wedges, like a cake": nothing the task fetches
            if m.food and residue(m.start, toks, _packed(scene)):
                continue  # "the used coffee grounds", "drain the syrup": left by a use or drained off
            if "(" in text and (h := bracket_head(m.start, text)) >= 0 and scene.grounds((*key, toks[h])):
                continue  # "the cakes (lemon, carrot)": the carrot cake
            if breaks is None:
                breaks = listed(text)
            if (
                _verb_use(m, toks, scene, m.start > 0 and (m.start - 1) in breaks)
                or _modifier(m, toks, lexicon, scene, breaks)
                or _not_an_object(m, toks, scene, ctx, made, breaks)
            ):
                continue
            if _alternative_present(j, mentions, present, toks) or _food_store(j, mentions, toks):
                continue
            if _optional(m, toks):
                continue  # "using a rice cooker if available", "optionally garnish with mint leaves"
            if _declined(j, mentions, toks):
                continue  # "not in a metal bowl", "instead of a fork": a thing the task says not to use
            name = " ".join(key)
            at = len(out)
            if name in seen or (len(key) == 1 and any(k.endswith(" " + name) for k in seen)):
                if name not in served or not _worked_in(m, toks):
                    continue  # once a thing; "the cheese" after "cheddar cheese" is that cheese again
                at = served.pop(name)  # served first, worked in later ("whisk in the bowl"): judged again
            if kind_present(key, scene):
                continue
            seen[name] = at
            # a kitchen item whose head only the scene's food has ("a baking sheet" beside the lasagna sheets)
            has_head = key[-1] in scene.heads and (m.food or key[-1] not in scene.food_heads)
            worn = key[-1] in _WORN and m.kind != "object"
            shown = m.text
            found: Ungrounded | None = None
            if m.kind == "object" and has_head:
                others = ", ".join(sorted(" ".join(k) for k in scene.keys if k[-1] == key[-1]))
                found = (
                    Ungrounded(
                        "grounding",
                        field_name,
                        shown,
                        f"names '{shown}', which is not in the environment (it has {others}: another "
                        f"{'material' if _other_material(key, scene) else 'food' if m.food else 'kind'})",
                    )
                    if _other_material(key, scene)
                    or (m.food and _other_food(key, scene, lexicon))
                    or _other_kind(key, scene)
                    else Ungrounded(
                        "grounding_variant",
                        field_name,
                        shown,
                        f"names '{shown}'; the environment has {others} (another name?)",
                    )
                )
            elif m.kind == "object" or m.food:
                found = Ungrounded("grounding", field_name, shown, f"names '{shown}', which is not in the environment")
            elif not has_head and worn:
                found = Ungrounded(
                    "grounding_noun",
                    field_name,
                    shown,
                    f"protects the hands with '{shown}', which the environment does not list (list oven mitts or "
                    "a potholder if a step needs them)",
                )
            elif not has_head and _definite(m, toks, introduced) and not _generic_vessel(key, scene):
                found = Ungrounded(
                    "grounding",
                    field_name,
                    shown,
                    f"names 'the {shown}', which is not in the environment (no {key[-1]} of any kind)",
                )
            elif not has_head and particular is not None:
                found = Ungrounded(
                    "grounding",
                    field_name,
                    particular,
                    f"names '{particular}', which the task needs and the environment lacks (no {key[-1]} of any kind)",
                )
            elif not has_head and field_name.startswith("plan") and key[-1] not in asked and _serving(m, toks):
                found = Ungrounded(
                    "grounding_noun",
                    field_name,
                    shown,
                    f"serves on '{shown}', which the environment does not list (tableware a scene may leave "
                    "out; list it if the task needs one)",
                )
            elif not has_head and (
                key[-1] not in SOFT_NOUNS
                or key in _BAKEWARE
                or _vessel(m, toks, shown.lower(), scene)
                or _lining(m, toks)
            ):
                found = Ungrounded(
                    "grounding",
                    field_name,
                    shown,
                    f"uses '{shown}', which the environment lacks (no {key[-1]} of any kind)",
                )
            elif not has_head and key[-1] not in _OWN_PARTS:
                found = Ungrounded(
                    "grounding_noun", field_name, shown, f"refers to '{shown}' but the environment has none"
                )
            if found is None:
                continue
            if found.message.startswith("serves on"):
                served[name] = at
            if at < len(out):
                out[at] = found
            else:
                out.append(found)
    return out


#: A question about an amount: its intended "cup" or "glass" is a measure, not a vessel.
_AMOUNT_ASKED = re.compile(r"\bhow (?:much|many|long)\b|\bamount\b|\bquantity\b|\bportion\b", re.I)


def _vessel_said(key: list[str], answer: list[str]) -> bool:
    """The answer names the unit word as a thing: after an article and not before "of" or another word of a
    name ("Use a cup.", "in a glass for the juice"; not "1 teaspoon of oil", "the glass food container")."""
    n = len(key)
    for i in range(1, len(answer) - n + 1):
        if answer[i : i + n] == key and answer[i - 1] in ("a", "an", "the"):
            after = answer[i + n] if i + n < len(answer) else ""
            if not after or (after != "of" and after in FUNCTION_WORDS):
                return True
    return False


def intended_missing(item: Item, ctx: RuleContext, found: list[Ungrounded]) -> list[Ungrounded]:
    """The intended option is a kitchen item the scene lacks: an intent concept every alternative of which
    is a tool, vessel or utensil the kitchen has no kind of ("spoon" for "stir it with a spoon", "oven
    mitts", "cup|mug" asked where to serve), the whole alternative one name, not food, a part ("the lid" of
    the blender), a thing a kitchen has without listing it (``SOFT_NOUNS``) nor a part of the kitchen. The
    robot is told to use what it cannot find. Amounts and units among the alternatives ("cup|ml") do not
    count unless the answer names the unit word as a thing; a thing already reported (the plan uses it) is
    not reported again."""
    lexicon = lexicon_for(_catalog(ctx))
    scene = Scene.of(item)
    reported = {key_of(u.text)[-1] for u in found if key_of(u.text)}
    units = _units(ctx.config.units)
    asks_amount = bool(_AMOUNT_ASKED.search(item.question))
    answer = lexicon.scan(item.answer)[0]
    positives, _ = intent_concepts(item.user_intent)
    out: list[Ungrounded] = []
    for alternatives in positives:
        named: list[tuple[str, tuple[str, ...]]] = []
        for alt in alternatives:
            toks, mentions = lexicon.scan(alt)
            amount = all(t in units or _is_number(t) for t in toks)
            if not toks or (amount and (asks_amount or not mentions or not _vessel_said(toks, answer))):
                continue  # "ml", "2"; "cup" unless the answer says "Use a cup."
            if len(mentions) != 1 or (mentions[0].start, mentions[0].end) != (0, len(toks)):
                break  # not one name ("stir", "mix", "a warm plate")
            m = mentions[0]
            key = tuple(toks)
            if m.food or m.kind == "fixture" or key[-1] in _TOOL_KINDS | SOFT_NOUNS | _ITEM_PARTS:
                break
            if _in_scene(m, toks, scene) or kind_present(key, scene) or key[-1] in scene.heads:
                break
            if scene.describes(key):
                break  # "sponge" of the sponge cake: the word that tells a scene thing from the others
            named.append((alt, key))
        else:
            if named and not any(key[-1] in reported for _, key in named):
                shown = " or ".join(f"'{alt}'" for alt, _ in named)
                out.append(
                    Ungrounded(
                        "grounding",
                        "user_intent",
                        named[0][0],
                        f"the intended {shown} is not in the environment (no {named[0][1][-1]} of any kind)",
                    )
                )
    return out


def check_family(item: Item, ctx: RuleContext) -> list[tuple[str, str]]:
    found = ungrounded(item, ctx)
    found += intended_missing(item, ctx, found)
    return [(u.rule, f"{u.field}: {u.message}") for u in found]


ORDER = 20  # where the family runs among the rules (plugins: 1000 unless they say)
RULES = family_rules(
    check_family,
    ("grounding", "error", "objects and food named in tasks and plans are in the environment"),
    ("grounding_variant", "warning", "a named object the environment has under another name ('dish towel')"),
    ("grounding_noun", "warning", "generic nouns ('a mug') have an object of that kind"),
)
