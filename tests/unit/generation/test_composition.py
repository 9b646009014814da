"""Multi-step tasks: a template's focus action composed with clear context actions from data."""

from __future__ import annotations

import random

import pytest

from ambiforge.ambiguity import default_mix
from ambiforge.errors import ConfigError
from ambiforge.generation.draft import Draft
from ambiforge.generation.mix import type_sequence
from ambiforge.generation.offline import OfflineGenerator, library, planning
from ambiforge.generation.offline.composition import as_clause, compose, forbidden_words, load
from ambiforge.generation.offline.phrases import mentions
from ambiforge.world import build_graph, render_plan


def focus_drafts(catalog, type_name: str, n: int = 40):  # type: ignore[no-untyped-def]
    """(scene, focus draft) pairs straight from the templates, before composition."""
    gen = OfflineGenerator(catalog, 11, "t")
    out = []
    for index in range(n * 3):
        rng = random.Random(index)
        scene, _ = gen.steering.scene(rng, type_name)
        for candidate in library.candidates(scene, catalog, type_name, build_graph(scene, index))[:2]:
            draft = candidate.build(rng)
            if isinstance(draft, Draft):
                out.append((scene, draft))
        if len(out) >= n:
            break
    return out


def offset(whole: list[str], part: list[str]) -> int:
    for i in range(len(whole) - len(part) + 1):
        if whole[i : i + len(part)] == part:
            return i
    raise AssertionError(f"{part} is not a run of {whole}")


@pytest.mark.parametrize("type_name", ["preferences", "common_sense_knowledge", "safety"])
def test_eoa_is_in_the_focus_actions_and_the_pair_stays_minimal(catalog, type_name: str) -> None:
    before_counts, planned_count = set(), 0
    for i, (scene, focus) in enumerate(focus_drafts(catalog, type_name)):
        composed = compose(focus, scene, catalog, random.Random(i))
        planned = planning.plan(composed, build_graph(scene, i), catalog)
        if not isinstance(planned, planning.Planned):
            continue
        planned_count += 1
        done, actions = planned.draft, planned.clear_plan
        # the focus clause's actions: where the plans part, and the only place they may differ
        clear, amb, eoa = done.plan_for_clear_task, done.plan_for_amb_task, done.end_of_ambiguity
        assert clear[:eoa] == amb[:eoa] and clear[eoa] != amb[eoa]
        assert render_plan(actions, planned.graph) == clear
        before_counts.add(composed.focus)
        # Minimal pair: only the focus clause differs between the direct and the ambiguous task.
        swapped = composed.ambiguous_task.lower().replace(
            as_clause(focus.ambiguous_task).lower(), as_clause(focus.unambiguous_direct).lower(), 1
        )
        assert swapped == composed.unambiguous_direct.lower()
        # Context never names what tells the options apart.
        for word in forbidden_words(focus):
            assert mentions(composed.ambiguous_task, word) == mentions(focus.ambiguous_task, word)
        assert composed.question == focus.question and composed.user_intent == focus.user_intent
    assert planned_count >= 10
    assert len(before_counts) >= 2  # the ambiguous clause comes first or after others


def test_generated_plans_have_3_to_13_steps_and_several_actions(catalog) -> None:
    gen = OfflineGenerator(catalog, 2, "t")
    items = [gen.generate(i, t)[0] for i, t in enumerate(type_sequence(150, default_mix(), 2))]
    for item in items:
        assert 3 <= len(item.plan_for_clear_task) <= 13
        assert 2 <= len(item.plan_for_amb_task) <= 13  # an omission words its tail in fewer steps
        assert len(item.unambiguous_direct.split()) <= 60
    late = sum(1 for item in items if item.end_of_ambiguity >= 3)
    assert late >= 0.2 * len(items)
    assert sum(len(i.plan_for_clear_task) for i in items) / len(items) >= 5


def test_a_bad_composition_file_is_a_config_error_naming_the_slot(tmp_path) -> None:
    text = load.__wrapped__().model_dump_json()  # the packaged data, valid
    import json

    data = json.loads(text)
    data["actions"][0]["direct"] = ["heat {f} for {hours} hours"]
    path = tmp_path / "composition.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"actions.*unknown slot \{hours\}"):
        load(str(path))


def test_a_context_action_key_used_twice_is_a_config_error(tmp_path) -> None:
    """A frame keeps each action's wordings by its key: two actions of one key would share them."""
    import json

    data = json.loads(load.__wrapped__().model_dump_json())
    data["actions"].append(data["actions"][0])
    path = tmp_path / "composition.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"actions.*used twice"):
        load(str(path))


def test_added_text_never_contains_an_intent_concept_even_inside_a_word() -> None:
    """AmbiK reads intent concepts as substrings: "-paring" is broken by a frame saying "preparing"."""
    from ambiforge.generation.offline.composition import intent_substrings, says_forbidden

    draft_intent = ["plastic", "-paring", "-fillet"]

    class _Draft:
        user_intent = draft_intent

    substrings = intent_substrings(_Draft())  # type: ignore[arg-type]
    assert substrings == ["plastic", "paring", "fillet"]
    assert says_forbidden("I'm preparing a light lunch for two.", [], substrings)
    assert not says_forbidden("I'm cooking for my grandmother today.", [], substrings)
    assert says_forbidden("Wash the glass bowl.", ["glass"], [])
    assert not says_forbidden("Wash the glasses.", ["glass"], [])
