"""The phrase table: paraphrased references come from data and still name exactly the object."""

from __future__ import annotations

import random

from ambiforge.generation.offline import phrases


def test_references_come_from_the_table_and_keep_the_object(catalog) -> None:
    rng = random.Random(0)
    seen = set()
    for obj in catalog.objects.values():
        forms = phrases.reference_forms(obj)
        assert forms
        for _ in range(6):
            ref = phrases.indirect(obj, rng)
            seen.add(ref)
            assert "kind of" not in ref
            material = phrases._data()["materials"].get(obj.modifier, obj.modifier)
            # The name, or the noun with the material word: the reference still picks out this object.
            assert obj.name in ref or (obj.noun in ref and material in ref), (obj.name, ref)
    assert len(seen) > 2 * len(catalog.objects)


def test_a_group_override_replaces_its_kinds_forms(catalog) -> None:
    bread = next(o for o in catalog.objects.values() if o.group == "breads" and not o.plural)
    assert "the loaf of {name}" in phrases.reference_forms(bread)
    mug = next(o for o in catalog.objects.values() if o.group == "mugs" and o.modifier == "glass")
    assert "the {noun} made of {material}" in phrases.reference_forms(mug)
    assert phrases.indirect(mug) == "the glass mug"  # without a generator: the first form


def test_the_phrase_library_names_no_catalog_object(catalog) -> None:  # type: ignore[no-untyped-def]
    """Styles, word lists, joiners and frames go around any scene: a group noun in them ("a cup of",
    "the juice") would name an object the scene may not have (a grounding error)."""
    from ambiforge.generation.offline.composition import load

    data = load()
    texts = [t for options in phrases.word_lists().values() for t in options if t]
    texts += [p + e for p, e in (*phrases.styles(), *phrases.styles(indirect=True))]
    texts += [*data.frames.after, *(j for js in data.joiners.values() for j in js)]
    texts += [v for name, values in data.values.items() if name != "place" for v in values]  # place: fixtures
    nouns = {g.noun for g in catalog.groups.values()} | {phrases.plural(g.noun) for g in catalog.groups.values()}
    named = sorted({(n, t) for t in texts for n in nouns if phrases.mentions(t, n)})
    assert named == []


def test_word_lists_fill_a_phrase_and_an_unknown_list_is_a_config_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import random

    import pytest

    from ambiforge.errors import ConfigError
    from ambiforge.generation.offline.composition import load

    text = phrases.expand(random.Random(1), "{address}, {0} and {who}")
    assert "{address}" not in text and "{who}" not in text and "{0}" in text
    data = json.loads(load.__wrapped__().model_dump_json())
    data["frames"]["after"] = ["{nobody} is coming."]
    path = tmp_path / "composition.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"frames.after.*unknown word list \{nobody\}"):
        load(str(path))


def test_sentences_start_with_a_capital_and_only_sentences() -> None:
    """Styles, joiners and frames are put together from parts; the joined text is cased as one."""
    assert phrases.sentence_case("legend, thanks. wave at me if something looks off.") == (
        "Legend, thanks. Wave at me if something looks off."
    )
    assert phrases.sentence_case("Excuse me, robot, Can you slice the cake? then rest!") == (
        "Excuse me, robot, can you slice the cake? Then rest!"
    )
    assert phrases.sentence_case("Put the Y-peeler on the counter, I'll be back.") == (
        "Put the Y-peeler on the counter, I'll be back."
    )


def test_mentions_any_reads_phrases_as_the_word_grams_do() -> None:
    """says_forbidden scans the words for a few phrases instead of making every n-gram: the answer must be
    the n-grams' on random texts and phrases (case, punctuation, hyphens, repeats, phrases of 0-7 words)."""
    from ambiforge.generation.offline.phrases import mentioned, mentions_any, word_grams

    rng = random.Random(3)
    vocab = [
        "a",
        "the",
        "mug",
        "glass",
        "milk",
        "pour",
        "into",
        "cup",
        "of",
        "tea",
        "knife",
        "bread",
        "x-ray",
        "it's",
        "one",
        "two",
    ]
    for _ in range(3000):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randrange(0, 15)))
        text = text.upper() + "." if rng.random() < 0.3 else text
        wanted = [" ".join(rng.choice(vocab) for _ in range(rng.randrange(0, 8))) for _ in range(rng.randrange(0, 4))]
        grams = word_grams(text)
        assert mentions_any(text, wanted) == any(mentioned(grams, p) for p in wanted), (text, wanted)
    assert mentions_any("Pour the milk into the glass mug.", ["glass mug"])
    assert not mentions_any("Pour the milk into the glasses.", ["glass"])


def test_the_names_index_finds_the_names_and_nouns_mentioned_finds(catalog) -> None:  # type: ignore[no-untyped-def]
    """focus_groups reads a text's names and nouns from the catalog's index: the answer must be
    mentioned_of's on texts made of the catalog's names, nouns and other words."""
    from ambiforge.generation.offline.phrases import mentioned_of, names_index

    rng = random.Random(5)
    names = [o.name for o in catalog.objects.values()]
    nouns = {g.key: g.noun for g in catalog.groups.values()}
    index = names_index(catalog)
    assert names_index(catalog) is index  # made once, kept with the catalog
    for _ in range(300):
        parts = [rng.choice([*rng.sample(names, 3), *rng.sample(list(nouns.values()), 2), "the", "put", "into"])]
        parts += [rng.choice(names + ["a", "then", "Mugs."]) for _ in range(rng.randrange(0, 8))]
        text = " ".join(parts)
        said_names, said_groups = index.said(text)
        assert said_names == set(mentioned_of(text, names)), text
        assert said_groups == {k for k, noun in nouns.items() if noun in mentioned_of(text, [noun])}, text


def test_pick_makes_the_draw_randrange_made() -> None:
    """Seeded outputs are byte-identical across the switch to ``rng.choice``: for any length and seed it is
    the very draw of ``options[rng.randrange(len(options))]``, and both streams stay in step after it."""
    for seed in range(300):
        options = [f"w{i}" for i in range(1 + seed % 37)]
        a, b = random.Random(seed), random.Random(seed)
        assert [phrases.pick(a, options) for _ in range(5)] == [options[b.randrange(len(options))] for _ in range(5)]
        assert a.random() == b.random()


def test_a_frame_is_drawn_to_agree_with_what_the_task_already_says() -> None:
    rng = random.Random(3)
    for _ in range(30):
        frame = phrases.draw_frame(rng, "put the carrot cake in a bowl for my breakfast")
        assert (frame.occasion, frame.time) == ("breakfast", "morning")
        assert not phrases.clashes(frame.tags())
    frames = {phrases.draw_frame(rng).tags() for _ in range(200)}
    assert all(not phrases.clashes(tags) for tags in frames)
    assert len({t for tags in frames for t in tags if t.startswith("needed:")}) == 3


def test_phrases_are_drawn_only_where_their_tags_agree_with_the_frame() -> None:
    from ambiforge.models import Frame

    now = Frame(time="evening", occasion="everyday", speaker="adult", needed="now")
    assert not phrases.fits("Good morning", now) and phrases.fits("Good evening", now)
    assert not phrases.fits(". Later, ", now) and phrases.fits("right away", now)
    assert not phrases.text_fits("set out {f} on the {spot} for the guests", now)
    rng = random.Random(0)
    greetings = {phrases.expand(rng, "{greeting}", now) for _ in range(200)}
    assert "Good morning" not in greetings and "Good evening" in greetings
    joins = {phrases.expand(rng, "{then}", now) for _ in range(300)}
    assert ". Later, " not in joins and ". Next, " in joins


def test_again_is_said_only_of_food_that_was_hot_once(catalog) -> None:  # type: ignore[no-untyped-def]
    milk = next(o for o in catalog.objects.values() if o.group == "milks")
    soup = next(o for o in catalog.objects.values() if o.group == "soups")
    assert not phrases.presupposed("Make {f} hot again.", [milk])
    assert not phrases.presupposed("Reheat {f}.", [milk])
    assert phrases.presupposed("Warm {f} up.", [milk])
    assert phrases.presupposed("Make {f} hot again.", [soup])


def test_a_plural_paraphrase_says_those(catalog) -> None:  # type: ignore[no-untyped-def]
    towels = next(o for o in catalog.objects.values() if o.plural and o.kind == "kitchen_item")
    refs = {phrases.indirect(towels, random.Random(s)) for s in range(40)}
    assert not any(r.startswith("that ") for r in refs), refs


def test_plural_keeps_a_plural_noun_and_pluralises_the_rest() -> None:
    assert phrases.plural("nuts") == "nuts"  # not "nutses": the validator's spelling check rejects that
    assert phrases.plural("glass") == "glasses"
    assert phrases.plural("cherry") == "cherries"
    assert phrases.plural("mug") == "mugs"
