"""type: the ambiguity type fits what is asked. A safety item asks about a hazard; when its question, answer and intent
name none (no heat, blade, dirt, spoilage, electricity, spilling over, unsafe material, a thing kept from someone
("nut-free", "contains nuts") or "safe" itself: "Should I peel the onion?" "Yes."; a hazard word counts where a word
starts with it: "drawer" says nothing raw, "crackers" nothing cracked), nor does the reason its clear task gives
("because a guest has a nut allergy"), its answer keeps nothing from happening ("so the cork cannot hit someone") or
at a distance ("away from the edge"), and gives no reason of its own ("The plastic cups. Glass can shatter ..."), the
item is another type. A preferences item leaves a choice among things open; when what it asks is an amount, a time,
a setting or a way of doing ("How many eggs should I crack?" "Three.", "Should I make juice or blend these fruits?"
"Blend.") and its intent names nothing of the kitchen beyond what the question names, there is no choice to prefer; nor
is there when, with nothing listed, it asks how to do it ("How should I cut the omelette?"), asks a yes or no ("Should I
wash the vegetables first?", its options at most a yes and a no, unless the answer refuses and names another thing), or
asks where to put something and wants only a place ("On the kitchen table."). A common-sense or safety item whose
question asks the user's taste ("Which style would you prefer?") or whose answer gives one ("I'd like ...") is a
preferences item: no kitchen knowledge settles a taste; so is one whose answer's reason is the liking of the user or of
the people served ("I just like it better", "I don't like it too spicy", "that is how the kids like them", "whatever
looks nice to you"), unless the answer opens with what the question already fixes ("... for medium-rare?" "Medium-rare
means ..., that is how we like it": the liking is of the given). A preferences item whose one listed option is the
intended thing, with nothing else of its kind in the kitchen, offers no choice (variants naming two things of the
kitchen are a choice, whatever noun the question asks them by); one whose answer's reason is harm or damage ("because
the plastic one is not safe in the oven") is settled by a fact, not a taste.
Registered with the hygiene family (see there)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ambiforge.catalog import cached_catalog
from ambiforge.models import Item
from ambiforge.textnorm import singular
from ambiforge.validation.language import classes, is_number, words
from ambiforge.validation.lexicon import key_of, lexicon_for
from ambiforge.validation.rules.base import Rule
from ambiforge.validation.rules.grounding import Scene
from ambiforge.validation.rules.text import has, intent_concepts

if TYPE_CHECKING:
    from ambiforge.validation.context import RuleContext

#: Foods kept from someone who cannot eat them: a "-free" or a "contains" of one of them is a hazard ("nut-free",
#: "contains traces of peanuts"), one of anything else is not ("streak-free", "Which jar contains the sugar?").
_ALLERGEN = (
    r"(?:(?:pea|tree[\s-]?|hazel|wal|brazil[\s-]?)?nuts?|almonds?|cashews?|pecans?|pistachios?|macadamias?|gluten"
    r"|dairy|milk|eggs?|soy|soya|sesame|shellfish|fish|wheat|lactose|allergens?)"
)
#: Word stems that name a kitchen hazard or its protection; one of them in the question, answer or intent
#: makes a safety item plausible. Plain kitchen work ("cut", "chop", "water", "oil") is no hazard by itself; the
#: body kept from harm is ("away from your hand", "your fingers can get caught"). A stem counts at a word's start,
#: or after a prefix ("unsafe", "nontoxic", "dishwasher"): inside a word it says nothing ("raw" of "drawer").
_HAZARD = re.compile(
    r"(?<![a-z])(?:un|pre|re|over|under|dish|non|anti|in)?"
    r"(?:safe|hazard|danger|injur|careful|caution|hot|heat|warm|burn|scald|steam|boil|fire|flame|smok|°|degree"
    r"|temperature|cool|cold|freez|fridge|refrigerat|mitt|potholder|pot holder|glove|sharp|knife|knives|blade"
    r"|grater|microwave|oven|stove|electric|shock|unplug|plug|dirt|clean|wash|rinse|sanit|hygien|bacteri"
    r"|germ(?!an)|contamin|raw|undercook|spoil|expire|mold|mould|rotten|allerg|spill|slip|grease|melt|pressure|toxic"
    r"|poison|crude|bleach|detergent|soap|chemical|edible|chick(?!pea)|poultry|pork|meat|choke|child|broken|crack(?!er)"
    r"|(?:bubbl|boil)\w* over|overflow|splatter|spatter"
    r"|\b(?:your|the|my) (?:hand|hands|finger|fingers|fingertips|skin|eyes)\b|\bcaught\b|\bhurt|\bwound"
    r"|\bbleed|\bcut (?:yourself|myself|your|my)\b"
    rf"|{_ALLERGEN}-free\b|contain(?:s|ed|ing)?\s+(?:[a-z]+\s+){{0,2}}?{_ALLERGEN}\b)",
    re.I,
)

#: Questions whose answer is an amount, a time, a setting or a way of doing, never a thing to prefer.
_NOT_A_THING = re.compile(
    r"^\s*(?:\w+,\s*)?(?:how\s+(?:many|much|long|often|big|thick|hot)\b|how\s+(?:do|can|will|should)\s+(?:i|we|you)"
    r"\s+(?:know|tell)\b|(?:at|to)\s+what\b|what\s+(?:temperature|degree|heat|level|setting|speed|size|amount)\b)",
    re.I,
)
#: Questions whose answer is a way of doing or a sign to watch for ("How should I cut the omelette?", "How do I
#: know when the chicken is done?"): things the intent names there are the means or the sign, not options.
_A_WAY = re.compile(
    r"^\s*(?:\w+,\s*)?how\s+(?:(?:should|shall|would|do|can|will)\s+(?:i|we|you)\s+(?:know|tell)\b"
    r"|(?:should|shall)\s+(?:i|we|you)\s+\w+)",
    re.I,
)
#: A yes/no question that offers nothing to choose ("Should I wash vegetables before cutting them?").
_YES_NO = re.compile(r"^\s*(?:\w+,\s*)?(?:should|shall|do|can|must)\s+(?:i|we|you)\b(?!.*\bor\b)", re.I)
#: Places a kitchen puts things in or on: an intent naming only these after "Where ...?" asks for a place.
_PLACES = frozenset(
    {"table", "kitchen table", "counter", "countertop", "kitchen counter", "fridge", "refrigerator", "freezer"}
    | {"cupboard", "cabinet", "shelf", "pantry", "drawer", "sink", "dish rack", "rack", "knife block", "surface"}
)
_WHERE = re.compile(r"^\s*(?:\w+,\s*)?where\b", re.I)
#: An option that is a yes or a no ("Yes, rinse it", "No, use it as it is"): it names no thing to choose.
_YES_OR_NO = re.compile(r"^\W*(?:yes|no)\b", re.I)
#: A yes/no question offering two ways of doing ("Should I make juice or blend these fruits?").
_WHICH_WAY = re.compile(r"^\s*(?:\w+,\s*)?(?:should|shall|do|can)\s+(?:i|we|you)\s+\w+.*\bor\b", re.I)


#: A question that asks the user's taste, or an answer that gives it: no kitchen knowledge settles it.
_TASTE_ASKED = re.compile(
    r"\b(?:prefer|preference|preferred|would you like|do you like|your (?:favou?rite|taste|liking)"
    r"|to your (?:taste|liking)|would you rather|do you fancy)\b",
    re.I,
)
#: An answer that says, anywhere, that taste decides or nothing does ("Personally, the blue one.", "It doesn't
#: matter, any of them is fine.", "Up to you."): no kitchen knowledge or hazard settles the choice.
_TASTE_SAID = re.compile(
    r"\b(?:i(?:'d| would)?\s+(?:rather|prefer|love|fancy|enjoy)|my (?:preference|favou?rite)|personally"
    r"|up to you|your (?:choice|call|preference)|whichever (?:you|one you)|(?:it )?does(?:n'?t| not) matter"
    r"|no preference|as you (?:like|wish|prefer|want)|(?:any|either) (?:of them |one )?(?:is fine|will do|works)"
    r"|i(?:'m| am) in the mood|i feel like)\b",
    re.I,
)
#: An answer whose reason is the liking of the user or the people served ("The large mug, I just like it
#: better.", "we love its nutty taste", "I don't like it too spicy", "that is how the kids like them") or that
#: leaves the matter to the user's eye ("Whatever size looks nice to you."): a taste.
_LIKING = re.compile(
    r"\b(?:i|we)\s+(?:(?:just|really|simply|both|all|always|do|much)\s+)*(?:like|love|prefer|enjoy|adore|fancy)"
    r"(?:s|d)?\b|\b(?:whatever|however|whichever)\s+(?:[a-z]+\s+){0,2}(?:you\s+(?:like|want|prefer|wish|fancy"
    r"|choose)|looks|seems|feels)\b|\b(?:nice|good|best|right)\s+to\s+you\b|\b(?:our|my)\s+(?:favou?rite|taste"
    r"|preference)\b|\b(?:any|either)\s+(?:[a-z]+\s+){1,2}(?:is fine|will do|works)\b"
    r"|\b(?:i|we)\s+(?:don'?t|do not|never)\s+(?:like|love|enjoy|want)\b"
    r"|\bhow\s+(?:[a-z]+\s+){1,3}(?:like|likes|love|loves|prefer|prefers|enjoy|enjoys)\s+(?:it|them)\b",
    re.I,
)
#: An answer that gives a reason of harm or damage ("..., because plastic melts in the oven", "so it does not
#: burn you"): kitchen knowledge or safety settles the matter, not the user's taste.
_HARM_REASON = re.compile(
    r"\b(?:because|since|so|otherwise|or else|to avoid|to prevent)\b[^.;]{0,60}?\b(?:unsafe|safe(?:ly|r)?|burn"
    r"|scald|injur\w*|danger\w*|hazard\w*|shatter\w*|spoil\w*|contaminat\w*|poison\w*|toxic"
    r"|bacteri\w*|sick|warp\w*)\b",
    re.I,
)
#: An answer whose reason is a thing kept from happening ("so the cork cannot fly out and hit someone", "so the
#: other cookies never touch peanuts", "to avoid ..."): a harm named in words of no hazard list, which a
#: safety item may rightly have.
_PREVENTS = re.compile(
    r"\bso(?: that)?\b[^.;]{0,60}?\b(?:cannot|can't|can not|could not|couldn't|never|won't|will not|doesn't"
    r"|does not|don't|do not|isn't|is not)\b|\b(?:to (?:avoid|prevent)|otherwise|or else)\b",
    re.I,
)
#: The reason a task gives for itself ("..., because one guest has a peanut allergy"): a safety item may name its
#: hazard there and not in the question or answer.
_TASK_REASON = re.compile(r"\b(?:because|since|so that|so|to avoid|to prevent|otherwise)\b([^.;]*)", re.I)
#: An answer that explains itself: after what it gives, a clause of its own whose subject may or is something
#: ("The plastic cups. Glass can shatter ...", "Throw it away; a bulging lid can mean ...", "Only the seeds, the
#: almonds are ..."), or a purpose with a subject ("so no one knocks the pot over"). The fact it states is the
#: writer's reason, which a hazard word list cannot read: when it says what can go wrong, whether it is a hazard
#: is not certain either way.
_EXPLAINS = re.compile(
    r"[.;,]\s+(?:the|a|an|this|that|these|those|its|their|it|they|he|she)\b(?:\s+[\w'-]+){0,4}?\s+"
    r"(?:is|are|was|were|can|could|may|might|will|would|must|gets?|goes|has|have)\b"
    r"|[.;]\s+(?:[\w'-]+\s+){1,4}?(?:is|are|can|could|may|might|will|would|must)\b"
    r"|\bso(?: that)?\s+(?:no one|nobody|nothing|it|they|the|people|someone|anyone)\b",
    re.I,
)
#: What can go wrong, said in such a clause ("Glass can shatter", "The swivel chair can roll away", "a bulging lid
#: can mean botulism", "the almonds are tree nuts", "no one knocks the pot over"): only then is the clause a
#: reason a safety item may have; one of nothing going wrong ("That is what I want.", "The soup will need it.")
#: gives a purpose or a wish, no hazard.
_GOES_WRONG = re.compile(
    r"\b(?:break|broke|shatter|crack(?!er)|burn|spill|spoil|sicken|sick\b|ill\b|illness|tip(?:s|ped|ping)?\b"
    r"|topple|fall|fell\b|roll(?:s|ed|ing)? (?:away|off|over|out|down)|slip|slid|knock|explod|leak|harm|hurt|injur"
    r"|damag|scratch|warp|melt|rust|splinter|rot\b|rott|mou?ld|botulism|salmonella|listeria|pathogen|germs?\b"
    r"|bacteri|poison|toxic|allerg|chok|fire|scald|danger"
    r"|unsafe|collaps|overturn|wobbl|shock|electrocut|cut (?:you|yourself|someone|anyone|a finger|fingers)\b"
    r"|(?:pea|tree[\s-]?)?nuts?\b|gluten|lactose|shellfish)",
    re.I,
)
#: An answer that keeps a thing at a distance ("away from the edge", "three meters from the fence", "out of
#: reach"): a thing kept from harm, whatever the thing.
_KEPT_AWAY = re.compile(
    r"\b(?:away|far|clear) from\b|\b(?:meters?|metres?|feet|foot|inches|cm|centimet(?:er|re)s?|m) (?:away )?from\b"
    r"|\bout of (?:reach|the way)\b",
    re.I,
)
#: Verbs of liking: a clause of them gives a taste, not a fact ("The blue ones, they like blue").
_LIKES = re.compile(r"\b(?:like|likes|love|loves|prefer|prefers|enjoy|enjoys)\b", re.I)
_TASTE_GIVEN = re.compile(r"^\W*(?:i(?:'d| would)?\s+(?:like|prefer|love|want|fancy)|my favou?rite)\b", re.I)


def check_type(item: Item, ctx: RuleContext) -> list[str]:
    if item.ambiguity_type == "preferences":
        return (
            _no_choice(item, ctx)
            or _only_one(item, ctx)
            or _one_option(item)
            or _one_food_of_kind(item, ctx)
            or _harm_decides(item)
        )
    if _TASTE_ASKED.search(item.question) or _TASTE_GIVEN.match(item.answer) or _TASTE_SAID.search(item.answer):
        return [
            f"ambiguity_type: {item.ambiguity_type!r}, but the question asks the user's taste, which is a "
            f"preference: {item.question.strip()[:80]!r}"
        ]
    if _LIKING.search(item.answer) and not _HARM_REASON.search(item.answer) and not _likes_a_given(item):
        return [
            f"ambiguity_type: {item.ambiguity_type!r}, but the answer's reason is the user's taste, which is a "
            f"preference: {item.answer.strip()[:80]!r}"
        ]
    if item.ambiguity_type != "safety":
        return []
    if same := _alike_options(item, ctx):
        return [
            f"ambiguity_type: 'safety', but the intended {same[0]!r} and the other options "
            f"({', '.join(same[1])}) are alike in every safety respect (heat, microwave, oven, blade, cleanliness, "
            f"storage): the choice is no safety matter"
        ]
    said = " ".join((item.question, item.answer, *item.user_intent, *_TASK_REASON.findall(item.unambiguous_direct)))
    if not said.strip() or _HAZARD.search(said) or _PREVENTS.search(item.answer) or _KEPT_AWAY.search(item.answer):
        return []
    if _explains_harm(item.answer) and not _LIKES.search(item.answer):
        return []  # the answer's own reason may be the hazard: not certain
    return [f"ambiguity_type: 'safety', but the question and answer name no hazard: {item.question.strip()[:80]!r}"]


def _explains_harm(answer: str) -> bool:
    """The answer has a clause of its own (to the end of its sentence) that says what can go wrong: the writer's
    reason, which may be the hazard a word list cannot read."""
    for m in _EXPLAINS.finditer(answer):
        clause = answer[m.start() : m.end()] + re.split(r"[.;!?]", answer[m.end() :], maxsplit=1)[0]
        if _GOES_WRONG.search(clause):
            return True
    return False


#: Words an answer may open with before what it gives ("The large mug", "Just a pinch", "With two cubes").
_LEAD = frozenset({"the", "a", "an", "just", "with", "in", "on", "about", "only", "some", "yes", "no", "oh", "well"})


def _likes_a_given(item: Item) -> bool:
    """The answer opens with what the question already fixes and offers no choice of ("What temperature should the
    lamb reach for medium-rare?" "Medium-rare means ..., that is how we like it."): the liking is of the given,
    not of what is asked, so it says nothing of the item's type (an answer that answers nothing is the
    question/answer defect)."""
    if re.search(r"\bor\b", item.question, re.I):
        return False
    first = next((w for w in words(item.answer) if w not in _LEAD), None)
    return first is not None and first in set(words(item.question))


def _no_choice(item: Item, ctx: RuleContext) -> list[str]:
    what = no_choice(item, ctx)
    if what is None:
        return []
    return [
        f"ambiguity_type: 'preferences', but the question asks for {what}, not a choice among things "
        f"(intent: {', '.join(item.user_intent)}): {item.question.strip()[:80]!r}"
    ]


def no_choice(item: Item, ctx: RuleContext) -> str | None:
    """A preferences item that asks for an amount, a time or a setting while its intent names no object, food
    or place but the one the question counts ("3|three, eggs" for "How many eggs?"), or that offers two ways
    of doing and wants a way, no thing ("blend, -juice"); or, with nothing shortlisted, one that asks where
    and wants only a place, and, with no options listed at all, one that asks how to do it or a yes or no."""
    positives, _ = intent_concepts(item.user_intent)
    alternatives = [a for alts in positives for a in alts if a.strip()]
    question = item.question.strip()
    if not alternatives or not question:
        return None
    lexicon = lexicon_for(ctx.catalog or cached_catalog(""))
    units = {singular(w) for u in ctx.config.units for w in words(u)}
    scene = Scene.of(item)
    named = [set(toks[m.start : m.end]) for toks, mentions in map(lexicon.scan, alternatives) for m in mentions]
    named += [set(key) for key in map(key_of, alternatives) if key and (scene.grounds(key) or scene.describes(key))]
    listed_options = [s for s in (*item.amb_shortlist, *item.variants) if s.strip()]
    # options that are a yes and a no list no things, unless the answer refuses: "No, use the paper towels"
    # offers another thing in the asked one's place
    yes_no = all(_YES_OR_NO.match(s) for s in listed_options) and not re.match(r"^\W*no\b", item.answer, re.I)
    bare = not listed_options or yes_no
    places = [a.strip().lower().removeprefix("the ") for alts in positives for a in alts if a.strip()]
    listed = [s for s in item.amb_shortlist if s.strip()]
    if not listed and _WHERE.match(question) and places and all(p in _PLACES for p in places):
        return "a place"
    if bare and _A_WAY.match(question):
        return "a way of doing"
    if bare and _YES_NO.match(question) and "?" in question:
        return "a yes or no"
    if _NOT_A_THING.match(question):
        asked = {singular(w) for w in words(question)}  # the thing counted
        if any(not thing <= asked and not (len(thing) == 1 and thing <= units) for thing in named):
            return None  # the intent names a thing the question leaves open: a choice among things
        return "an amount, a time or a setting"
    ways = all(ws and "VERB" in classes(ws[0]) and not any(is_number(w) for w in ws) for ws in map(words, alternatives))
    if _WHICH_WAY.match(question) and ways and not named and not [s for s in item.amb_shortlist if s.strip()]:
        return "a way of doing"  # the intent is actions, and no things are shortlisted
    return None


RULES = (
    Rule(
        "type",
        "error",
        check_type,
        "a safety item asks about a hazard (heat, blades, hygiene); a preferences item leaves a choice of things",
    ),
)


#: "Which bowl ...?", "What type of cheese ...?": the kind of thing a preference would choose among.
_WHICH_KIND = re.compile(
    r"^\s*(?:\w+,\s*)?(?:which|what)\s+(?:(?:specific|type|types|kind|kinds|sort|variety)\s+(?:of\s+)?)?([a-z]+)",
    re.I,
)


def _only_one(item: Item, ctx: RuleContext) -> list[str]:
    """A preferences item asking "which X" in a kitchen that has one X only and shortlists at most one: there
    is nothing to prefer, the kitchen decides. X is a catalog group's noun, and the kitchen's things are
    counted by their catalog group (or, for a name the catalog does not know, by its last word)."""
    m = _WHICH_KIND.match(item.question)
    if m is None:
        return []
    catalog = ctx.catalog or cached_catalog("")
    asked = singular(m.group(1).lower())
    if asked not in {g.noun for g in catalog.groups.values() if g.kind != "food"}:
        return []  # foods go by many names the catalog does not group ("chicken thighs" are meat)
    of_kind = set()
    for obj in item.environment:
        group = catalog.groups.get(obj.group) if obj.group else None
        if (group is not None and group.noun == asked) or asked in {singular(w) for w in words(obj.name)}:
            of_kind.add(obj.name.lower())
    listed = {s.strip().lower() for s in item.amb_shortlist if s.strip()}
    if len(of_kind) != 1 or len(listed) > 1 or len(_kitchen_variants(item)) > 1:
        return []
    return [
        f"ambiguity_type: 'preferences', but the kitchen has one {asked} only ({next(iter(of_kind))}): there is "
        f"no choice to prefer: {item.question.strip()[:80]!r}"
    ]


def _kitchen_variants(item: Item) -> set[str]:
    """The variants that are things of the kitchen by their whole name ("cookie jar", "zip-top bag"): two of
    them are a choice of things, whatever noun the question asks them by ("Which container ...?")."""
    kitchen = {" ".join(words(o.name)) for o in item.environment}
    return {n for v in item.variants if (n := " ".join(words(v))) in kitchen}


#: What makes one kitchen thing safer than another for a task: heat, appliances, a blade, dirt, storage.
_SAFETY_ATTRIBUTES = (
    "microwave_safe",
    "oven_safe",
    "dishwasher_safe",
    "heat_resistant",
    "sharp",
    "clean",
    "needs_refrigeration",
    "material",
)


def _alike_options(item: Item, ctx: RuleContext) -> tuple[str, list[str]] | None:
    """A safety item whose intended thing and every other option (shortlisted, in the variants, or else the
    kitchen's things of its group) are catalog objects of one group that the catalog knows to be alike in
    every safety respect ("bread knife" or "paring knife" for the top of a yogurt cup: both sharp, both
    metal): which one to take is no safety question. An attribute known for one and unknown for another
    could differ, so it stops the check; so does a food, whose safety (how it takes heat, who may eat it) is
    none of the catalog's attributes."""
    catalog = ctx.catalog or cached_catalog("")
    positives, _ = intent_concepts(item.user_intent)
    intended = [catalog.objects.get(a.strip().lower()) for alts in positives for a in alts if a.strip()]
    if len(intended) != 1 or intended[0] is None:
        return None
    chosen = intended[0]
    if chosen.kind == "food":
        return None
    named = [catalog.objects.get(s.strip().lower()) for s in (*item.amb_shortlist, *item.variants) if s.strip()]
    others = {o.name: o for o in named if o is not None and o.name != chosen.name}
    if not named:
        others = {o.name: c for o in item.environment if (c := catalog.objects.get(o.name)) and c.name != chosen.name}
        others = {n: o for n, o in others.items() if o.group == chosen.group}
    if not others or any(o.group != chosen.group for o in others.values()):
        return None
    for attribute in _SAFETY_ATTRIBUTES:
        values = {getattr(o, attribute) for o in (chosen, *others.values())}
        if len(values) > 1:  # a value beside an unknown may differ too
            return None
    return chosen.name, sorted(others)


def _one_option(item: Item) -> list[str]:
    """A preferences item whose options, shortlist and variants together, are one thing, the intended one, and
    the kitchen has nothing else of that name's kind (no other "... cupboard", "... boat"): the row itself
    shows there is no choice to prefer. A food is left alone: a kitchen with other foods may hold the
    choice the options leave out (the shortlist's defect, not the type's)."""
    options = {" ".join(words(o)) for o in (*item.amb_shortlist, *item.variants) if words(o)}
    if len(options) != 1:
        return []
    option = next(iter(options))
    positives, _ = intent_concepts(item.user_intent)
    intended = {" ".join(words(a)) for alts in positives for a in alts if words(a)}
    if not any(a == option or f" {a} " in f" {option} " for a in intended):
        return []  # the intent may name the option by its head ("spinach" for the baby spinach)
    head = singular(option.split()[-1])
    mine = [o for o in item.environment if " ".join(words(o.name)) == option]
    if not mine or mine[0].kind == "food":
        return []
    others = [o.name for o in item.environment if o not in mine and head in {singular(w) for w in words(o.name)}]
    if others:
        return []
    return [
        f"ambiguity_type: 'preferences', but the only option listed is the intended {option!r} and the kitchen "
        f"has no other: there is no choice to prefer: {item.question.strip()[:80]!r}"
    ]


def _harm_decides(item: Item) -> list[str]:
    """A preferences item whose answer's reason is harm or damage ("The wooden spoon, because the metal one
    scratches ... and the plastic one melts"): a fact of the kitchen settles the choice, so it is a
    common-sense or safety item, not a preference."""
    if not _HARM_REASON.search(item.answer) or _LIKING.search(item.answer) or _TASTE_SAID.search(item.answer):
        return []  # a taste given beside it: the harm may be only the taste's ("I like the burnt edges")
    return [
        f"ambiguity_type: 'preferences', but the answer's reason is harm or damage, which no taste decides: "
        f"{item.answer.strip()[:80]!r}"
    ]


def _one_food_of_kind(item: Item, ctx: RuleContext) -> list[str]:
    """A preferences item asking "which X" ("Which tea ...?", "Which jam ...?") in a kitchen that holds one thing
    of that kind only, the intended one ("chamomile tea bags", "strawberry jam"), while the row lists options
    and every one is that thing, a thing the ambiguous task already uses ("peanut butter" beside the jam) or a
    variant the kitchen lacks ("udon noodles" beside the kitchen's only chow mein noodles; a shortlist offers
    what it lists),
    and the question offers no other ("... or ...?"): the kitchen decides, there is nothing to prefer. A thing is
    of the kind when its name says X or the catalog files it under X ("baguette" is a bread). With no options
    listed the check stays silent: foods go by names no list files under their kind (ham for "meat")."""
    m = _WHICH_KIND.match(item.question)
    if m is None:
        return []
    catalog = ctx.catalog or cached_catalog("")
    asked = singular(m.group(1).lower())
    of_kind = []
    for obj in item.environment:
        known = catalog.objects.get(obj.name.lower())
        if asked in {singular(w) for w in words(obj.name)} or (known is not None and known.noun == asked):
            of_kind.append(obj)
    listed = [o for o in (*item.amb_shortlist, *item.variants) if words(o)]
    if len(of_kind) != 1 or not listed or re.search(r"\bor\b", item.question, re.I):
        return []  # nothing listed: the kitchen's other foods (ham, sausage for "meat") may be the choice
    food = {singular(w) for w in words(of_kind[0].name)}
    positives, _ = intent_concepts(item.user_intent)
    intended = {singular(w) for alts in positives for a in alts for w in words(a)} - {asked}
    if not intended or not intended <= food:
        return []
    used = {" ".join(words(o.name)) for o in item.environment if has(item.ambiguous_task, o.name)}
    for option in listed:
        said = {singular(w) for w in words(option)}
        offered = option in item.amb_shortlist or _in_kitchen(option, item)
        if said and not said <= food and " ".join(words(option)) not in used and offered:
            return []
    return [
        f"ambiguity_type: 'preferences', but the kitchen has one {asked} only ({of_kind[0].name}), the intended "
        f"one: there is no choice to prefer: {item.question.strip()[:80]!r}"
    ]


def _in_kitchen(option: str, item: Item) -> bool:
    """The option names a thing of the kitchen, by every word of a kitchen name or a name by every word of it
    ("rice noodles" where the kitchen has only chow mein noodles is none): an option the kitchen lacks is no
    choice the robot can make."""
    said = {singular(w) for w in words(option)}
    return any(
        said <= (name := {singular(w) for w in words(o.name)}) or name <= said
        for o in item.environment
        if words(o.name)
    )
