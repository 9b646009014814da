"""Each offline mechanism fires on a small hand-made scene that holds what it needs, and not otherwise."""

from __future__ import annotations

import random
import re

import pytest

from ambiforge.catalog.conditions import Condition
from ambiforge.environment import Scene
from ambiforge.errors import ConfigError
from ambiforge.generation.draft import Draft
from ambiforge.generation.offline import mechanisms
from ambiforge.generation.offline.mechanisms.choose_member import ChooseMemberSpec
from ambiforge.generation.offline.mechanisms.omission import OmissionSpec
from ambiforge.generation.offline.mechanisms.partition import PartitionSpec
from ambiforge.generation.offline.mechanisms.tool_for_use import ToolForUseSpec
from ambiforge.generation.offline.phrases import mentions
from ambiforge.world import build_graph

TEXTS = {"indirect": ("Use {ti}.",), "plan": ({"fetch": "t"},)}


def scene(catalog, *names: str) -> Scene:  # type: ignore[no-untyped-def]
    return Scene(tuple(catalog.objects[n] for n in names))


def drafts(spec, catalog, sc: Scene) -> list[Draft]:  # type: ignore[no-untyped-def]
    found = mechanisms.get(spec.mechanism).candidates(spec, sc, catalog, build_graph(sc, 0))
    out = [c.build(random.Random(i)) for i, c in enumerate(found)]
    return [d for d in out if d is not None]


def test_the_registry_knows_each_mechanism_by_name() -> None:
    assert set(mechanisms.MECHANISMS) == {"choose_member", "omission", "tool_for_use", "partition", "perturb"}
    with pytest.raises(ConfigError, match=r"unknown mechanism 'irony' \(known: choose_member, omission, tool_for"):
        mechanisms.get("irony")


def test_choose_member_needs_two_fitting_members_of_a_group(catalog) -> None:
    spec = ChooseMemberSpec(
        key="pour",
        ambiguity_type="t",
        target=Condition(tags_any=("drinkware",), clean=True),
        co={"f": Condition(tags_any=("drink",))},
        direct=("Pour {f} into {t}.",),
        indirect=("Fill {ti} with {fi}.",),
        plan=({"put": "t", "target": "kitchen_table"}, {"fetch": "f"}, {"pour": "f", "target": "t"}),
        questions={"default": ("Which {noun}: {options}?",)},
        answers={"default": ("The {modifier} one.",)},
    )
    (draft,) = drafts(spec, catalog, scene(catalog, "glass mug", "ceramic mug", "dirty ceramic mug", "oat milk"))
    assert draft.template == "t/pour" and sorted(draft.amb_shortlist) == ["ceramic mug", "glass mug"]
    assert mentions(draft.ambiguous_task, "mug") and not mentions(draft.ambiguous_task, draft.user_intent[0])
    assert draft.question == "Which mug: the glass mug or the ceramic mug?"
    assert drafts(spec, catalog, scene(catalog, "glass mug", "dirty ceramic mug", "oat milk")) == []  # one clean
    assert drafts(spec, catalog, scene(catalog, "glass mug", "ceramic mug")) == []  # nothing to pour
    excluded = spec.model_copy(update={"exclude_group_tags": ("hot_drinkware",)})
    assert drafts(excluded, catalog, scene(catalog, "glass mug", "ceramic mug", "oat milk")) == []


def test_omission_drops_the_place_and_needs_its_co_objects(catalog) -> None:
    spec = OmissionSpec(
        key="away",
        ambiguity_type="t",
        co={"f": Condition(where={"needs_refrigeration": True})},
        direct=("Put {f} in the fridge.",),
        ambiguous=("Put {f} away.",),
        indirect=("Keep {fi} cold.",),
        plan=({"fetch": "f"}, {"put": "f", "target": "fridge"}),
        plan_amb=("Put {f} away.",),
        intent="fridge",
        question="Where should {f} go?",
        answer="In the fridge.",
    )
    (draft,) = drafts(spec, catalog, scene(catalog, "oat milk", "glass mug"))
    # Tasks name objects and fixtures with a determiner drawn per task ("my oat milk", "our fridge").
    assert re.fullmatch(r"Put (the|that|our|my|this) oat milk in (the|our|my) fridge\.", draft.unambiguous_direct)
    assert draft.user_intent == ["fridge"]
    assert draft.variants == ["fridge"] and draft.question == "Where should the oat milk go?"
    assert drafts(spec, catalog, scene(catalog, "rye bread", "glass mug")) == []
    with pytest.raises(ValueError, match="explicit 'ambiguous'"):
        OmissionSpec(**{**spec.model_dump(), "ambiguous": ()})


def test_tool_for_use_needs_exactly_one_fitting_tool_among_several(catalog) -> None:
    spec = ToolForUseSpec(
        key="slice",
        ambiguity_type="t",
        target=Condition(uses_any=("slice_bread",)),
        co={"f": Condition(tags_any=("bread",))},
        direct=("Slice {f} with {t}.",),
        indirect=("Use {ti} on {fi}.",),
        plan=({"fetch": "f"}, {"cut": "f", "tool": "t"}),
        question="Which {noun}?",
        answer="The {name}.",
    )
    (draft,) = drafts(spec, catalog, scene(catalog, "bread knife", "butter knife", "rye bread"))
    assert (
        draft.user_intent == ["bread knife"] and draft.answer == "The bread knife." and draft.question == "Which knife?"
    )
    assert mentions(draft.ambiguous_task, "a knife")
    assert drafts(spec, catalog, scene(catalog, "bread knife", "rye bread")) == []  # no other knife: no choice
    assert drafts(spec, catalog, scene(catalog, "butter knife", "paring knife", "rye bread")) == []  # none fits


def test_partition_names_a_safe_member_and_forbids_the_unsafe_ones(catalog) -> None:
    spec = PartitionSpec(
        key="microwave",
        ambiguity_type="t",
        target=Condition(tags_any=("tableware",), clean=True, known=("microwave_safe",)),
        safe=Condition(where={"microwave_safe": True}),
        co={"f": Condition(tags_any=("heatable",))},
        direct=("Heat {f} in the microwave {p} {t}.",),
        indirect=("Warm {fi} in {ti}.",),
        plan=({"put": "t", "target": "counter"}, {"put": "f", "target": "t"}, {"put": "t", "target": "microwave"}),
        question="Which {noun} should I use?",
        answer="The {name}; not the {unsafe}.",
    )
    (draft,) = drafts(spec, catalog, scene(catalog, "ceramic bowl", "metal bowl", "dirty glass bowl", "tomato soup"))
    assert draft.user_intent == ["ceramic", "-metal"] and draft.variants == ["ceramic bowl"]
    assert draft.answer == "The ceramic bowl; not the metal bowl."
    assert drafts(spec, catalog, scene(catalog, "ceramic bowl", "glass bowl", "tomato soup")) == []  # all safe
    assert drafts(spec, catalog, scene(catalog, "ceramic bowl", "metal bowl", "glass mug")) == []  # nothing to heat
    requirement, co = mechanisms.get("partition").requirements(spec)
    assert requirement(catalog.objects["metal bowl"]) and not requirement(catalog.objects["ceramic bowl"])
    assert co(catalog.objects["tomato soup"])


def test_partition_by_cleanliness(catalog) -> None:
    spec = PartitionSpec(
        key="clean",
        ambiguity_type="t",
        target=Condition(tags_any=("drinkware",)),
        safe=Condition(clean=True),
        direct=("Bring me {t}.",),
        indirect=("Fetch {ti}.",),
        plan=({"fetch": "t"}, {"hand_over": "t"}),
        question="Which {noun}?",
        answer="A clean one, like the {name}.",
    )
    (draft,) = drafts(spec, catalog, scene(catalog, "ceramic mug", "dirty ceramic mug"))
    assert draft.user_intent == ["ceramic", "-dirty"]
    assert drafts(spec, catalog, scene(catalog, "ceramic mug", "glass mug")) == []
    # "a clean one" is untrue where a clean mug is left out for the job (a plastic mug for boiling water)
    hot = spec.model_copy(update={"target": Condition(tags_any=("drinkware",), where={"heat_resistant": True})})
    assert len(drafts(hot, catalog, scene(catalog, "ceramic mug", "dirty ceramic mug"))) == 1
    assert drafts(hot, catalog, scene(catalog, "ceramic mug", "dirty ceramic mug", "plastic mug")) == []
    # a common-sense item: the only clean one, never "any clean one" while the clear task names one of them
    one = spec.model_copy(update={"only_one": True})
    assert len(drafts(one, catalog, scene(catalog, "ceramic mug", "dirty ceramic mug"))) == 1
    assert drafts(one, catalog, scene(catalog, "ceramic mug", "glass mug", "dirty ceramic mug")) == []


def peel_spec(**changes) -> ToolForUseSpec:  # type: ignore[no-untyped-def]
    fields = {
        "key": "peel",
        "ambiguity_type": "t",
        "action": "peel",
        "target": Condition(uses_any=("peel_vegetables",)),
        "co": {"f": Condition(tags_any=("peelable_vegetable",))},
        "direct": ("Peel {f} with {t}.",),
        "indirect": ("Use {ti} on {fi}.",),
        "plan": ({"fetch": "f"}, {"use": "f", "tool": "t", "how": "peel"}),
        "question": "Which {noun}?",
        "answer": "The {name}.",
    }
    return ToolForUseSpec(**{**fields, **changes})


def test_tool_for_use_is_made_only_where_common_sense_picks_exactly_one_tool(catalog) -> None:
    """Blind read 84227: the answer named one tool while the variants listed every tool that does the job.
    A common-sense item exists only where exactly one tool does the job and is made for it; the answer,
    the variants and the intent then all name it. Where several do the job, which one is a preference."""
    kitchen = ("vegetable peeler", "julienne peeler", "russet potato")
    found = drafts(peel_spec(), catalog, scene(catalog, *kitchen))
    assert found, "the julienne peeler cannot peel: the vegetable peeler is the one"
    for draft in found:
        assert draft.variants == draft.fitting == draft.user_intent == ["vegetable peeler"]
        assert draft.target == "vegetable peeler" and draft.answer == "The vegetable peeler."
        assert draft.candidates == ["vegetable peeler", "julienne peeler"]
    # three peelers peel: any one is right, common sense picks none, no pair
    three = ("vegetable peeler", "Y-peeler", "swivel peeler", "julienne peeler", "russet potato")
    assert drafts(peel_spec(), catalog, scene(catalog, *three)) == []
    # the one that peels is not the one made for it: no pair either
    assert drafts(peel_spec(), catalog, scene(catalog, "Y-peeler", "julienne peeler", "russet potato")) == []


def test_tool_for_use_takes_the_job_as_narrowly_as_common_sense(catalog) -> None:
    """The bread knife is the knife for a loaf (a chef's knife cuts one too, but is not the answer); a
    chicken breast is cut with a cleaver only where no other meat knife (a fillet knife) is there."""
    bread = peel_spec(
        action="slice_bread",
        target=Condition(uses_any=("slice_bread",)),
        co={"f": Condition(tags_any=("bread",))},
        direct=("Slice {f} with {t}.",),
    )
    knives = ("chef's knife", "bread knife", "cleaver", "steak knife", "baguette")
    found = drafts(bread, catalog, scene(catalog, *knives))
    assert found
    for draft in found:
        assert draft.variants == draft.user_intent == ["bread knife"] and draft.answer == "The bread knife."
        assert {name for name, _, _ in draft.left_out} == {"chef's knife", "cleaver", "steak knife"}
    meat = peel_spec(
        action="cut_meat",
        target=Condition(uses_any=("chop_meat",)),
        co={"f": Condition(tags_any=("meat",))},
        direct=("Cut {f} with {t}.",),
    )
    assert drafts(meat, catalog, scene(catalog, "cleaver", "fillet knife", "chicken breast")) == []
    (draft, *_) = drafts(meat, catalog, scene(catalog, "cleaver", "bread knife", "butter knife", "chicken breast"))
    assert draft.variants == ["cleaver"] and draft.answer == "The cleaver."


def test_tool_for_use_resolves_the_noun_on_the_graph_across_groups(catalog) -> None:
    """'a knife' is every knife of the kitchen: the butter knife is the one that spreads; with a plastic
    knife beside it, two spread and there is no pair."""
    spread = peel_spec(
        action="spread",
        target=Condition(uses_any=("spread",)),
        co={"f": Condition(tags_any=("spreadable",))},
        direct=("Spread {f} with {t}.",),
    )
    kitchen = ("bread knife", "butter knife", "paring knife", "strawberry jam")
    (draft, *_) = drafts(spread, catalog, scene(catalog, *kitchen))
    assert draft.variants == ["butter knife"]
    assert sorted(draft.candidates) == sorted(["bread knife", "butter knife", "paring knife"])
    assert drafts(spread, catalog, scene(catalog, *kitchen, "plastic knife")) == []


def test_partition_by_an_affordance_names_every_right_member(catalog) -> None:
    spec = PartitionSpec(
        key="microwave",
        ambiguity_type="t",
        target=Condition(tags_any=("tableware",), clean=True, known=("microwave_safe",)),
        action="microwave",
        co={"f": Condition(tags_any=("heatable",))},
        direct=("Heat {f} in the microwave {p} {t}.",),
        indirect=("Warm {fi} in {ti}.",),
        plan=({"put": "t", "target": "counter"}, {"put": "f", "target": "t"}, {"put": "t", "target": "microwave"}),
        question="Which {noun} should I use?",
        answer="The {name}; not the {unsafe}.",
    )
    kitchen = ("ceramic bowl", "glass bowl", "metal bowl", "tomato soup")
    for draft in drafts(spec, catalog, scene(catalog, *kitchen)):
        assert draft.variants == draft.fitting == ["ceramic bowl", "glass bowl"]
        assert draft.user_intent == ["ceramic|glass", "-metal"]
    with pytest.raises(ValueError, match="either 'action'"):
        PartitionSpec(**{**spec.model_dump(), "safe": Condition(clean=True)})


def test_a_template_names_an_affordance_that_exists(catalog) -> None:
    with pytest.raises(ValueError, match=r"unknown action 'pel' \(known: .*peel"):
        peel_spec(action="pel")


def test_omission_with_an_affordance_lists_every_device_that_does_the_job(catalog) -> None:
    spec = OmissionSpec(
        key="toast",
        ambiguity_type="t",
        action="toast",
        co={"f": Condition(tags_any=("bread",)), "a": Condition(tags_any=("toast",))},
        direct=("Toast {f} in {a}.",),
        ambiguous=("Toast {f}.",),
        indirect=("Use {a} on {fi}.",),
        plan=({"fetch": "f"}, {"place": "f", "target": "counter"}, {"use": "f", "tool": "a", "how": "toast"}),
        plan_amb=("Toast {f}.",),
        intent="toaster",
        question="What with?",
        answer="{a}.",
        variant="{ab}",
    )
    (draft,) = drafts(spec, catalog, scene(catalog, "rye bread", "toaster"))
    assert draft.variants == draft.fitting == ["toaster"] and draft.target == "toaster"


def test_a_compound_name_is_not_its_last_word(catalog) -> None:
    """Preferences' own spread template in a kitchen of butters and nut butters: "some butter" picks out the
    butters only and "some nut butter" the nut butters (the peanut butter is not "butter"); the butter knife
    is the knife it names. With one butter, only the nut butters make a choice."""
    from ambiforge.generation.offline.library import templates_for

    (spread,) = [s for s in templates_for("preferences") if s.key == "spread"]
    kitchen = ("salted butter", "herb butter", "peanut butter", "almond butter", "sourdough bread", "butter knife")
    found = drafts(spread, catalog, scene(catalog, *kitchen))
    shortlists = {tuple(sorted(d.amb_shortlist)) for d in found}
    assert shortlists == {("herb butter", "salted butter"), ("almond butter", "peanut butter")}
    assert all(d.variants == d.amb_shortlist and "butter knife" in d.unambiguous_direct for d in found)
    one_butter = drafts(spread, catalog, scene(catalog, "salted butter", *kitchen[2:]))
    assert {tuple(sorted(d.amb_shortlist)) for d in one_butter} == {("almond butter", "peanut butter")}
