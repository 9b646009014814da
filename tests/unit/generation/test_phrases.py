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
