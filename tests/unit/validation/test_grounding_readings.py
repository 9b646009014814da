"""grounding reads what a careful reader takes as the kitchen's, or as no object at all, on rows in other hands:
a scene name spelled out whole around a word the lexicon knows, the intended option said short, a kind's member
without its kind, a part the item names as one ("each cup of the muffin tin"), a wrapping taken off, the stock of
the stockpot, a spoonful, an optional garnish, the part of a dish a doneness cue watches. Each case has a near
row that must still be flagged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.validation.ambik_rows import environment, failures_of_row


@pytest.fixture()
def grounding(tmp_path: Path, catalog):  # type: ignore[no-untyped-def]
    def run(step: str, env: str, intent: str = "snack") -> list[str]:
        task = "Get a snack ready for the user."
        row = {
            "id": "1",
            **environment(env),
            "unambiguous_direct": task,
            "ambiguity_type": "preferences",
            "ambiguous_task": task,
            "question": "Which snack?",
            "answer": "Any.",
            "plan_for_clear_task": f"1. Go to the counter.\n2. {step}",
            "plan_for_amb_task": f"1. Go to the counter.\n2. {step}",
            "end_of_ambiguity": "0",
            "user_intent": intent,
        }
        return [f.message for f in failures_of_row(row, tmp_path, catalog, ["grounding"])]

    return run


@pytest.mark.parametrize(
    ("step", "env", "intent"),
    [
        # the text spells a scene name whole around a word the lexicon reads alone
        ("Serve the muffin in the glass trifle bowl.", "glass trifle bowl, blueberry muffin", "snack"),
        ("Take a lemon pudding cup from the fridge.", "lemon pudding cups, spoon", "snack"),
        # the intended option said short, the kitchen having it under its longer name
        ("Spread the cherry on the toast.", "cherry jam, plum jam, toast, butter knife", "cherry jam|cherry"),
        # a member of a kind named without the kind the scene adds
        ("Drain the fusilli in the colander.", "fusilli pasta, colander", "snack"),
        ("Warm the alfredo in the saucepan.", "alfredo sauce, saucepan", "snack"),
        # a part the item itself names as a part of a scene thing
        ("Grease each cup of the muffin tin, then fill each cup with batter.", "muffin tin, muffin batter", "snack"),
        # a wrapping taken off the thing it is on
        ("Peel off the foil and break the chocolate bar.", "chocolate bar, plate", "snack"),
        # the stock simmered in the vessel named for it
        ("Simmer the chicken bones in the stockpot and skim the stock.", "stockpot, chicken bones, ladle", "snack"),
        # a spoonful is a measure
        ("Stir in a spoon of honey.", "honey, mug, tea bags", "snack"),
        # an optional garnish
        ("Garnish with basil leaves if desired.", "tomato soup, bowl", "snack"),
        ("Optionally top the soup with parsley.", "tomato soup, bowl", "snack"),
        # a doneness cue watching a part of the dish the step cooks
        ("Reheat the quiche until the cheese is golden.", "leftover quiche, oven mitts", "snack"),
    ],
)
def test_what_a_reader_takes_as_the_kitchens_is_not_missing(grounding, step: str, env: str, intent: str) -> None:  # type: ignore[no-untyped-def]
    assert grounding(step, env, intent) == []


@pytest.mark.parametrize(
    ("step", "env", "intent", "thing"),
    [
        ("Serve the muffin in the glass.", "glass trifle bowl, blueberry muffin", "snack", "'the glass'"),
        ("Spread the cherry on the toast.", "plum jam, toast, butter knife", "plum jam|plum", "'cherry'"),
        ("Drain the fusilli in the colander.", "macaroni pasta, colander", "snack", "'fusilli'"),
        ("Warm the tomato in the saucepan.", "tomato sauce, saucepan", "snack", "'tomato'"),
        ("Remove the container from the microwave.", "leftover rice, spoon", "snack", "'the container'"),
        ("Fill each cup with batter.", "muffin batter, spatula", "snack", "'cup'"),
        ("Line the tray with foil and add the chocolate bar.", "chocolate bar, plate", "snack", "'foil'"),
        ("Pour the stock into the stockpot.", "stockpot, ladle", "snack", "'stock'"),
        ("Stir the tea with a spoon.", "honey, mug, tea bags", "snack", "'spoon'"),
        ("Garnish with basil leaves.", "tomato soup, bowl", "snack", "'basil'"),
        ("Sprinkle the cheese over the quiche.", "leftover quiche, oven mitts", "snack", "'cheese'"),
        ("Top the soup with croutons.", "tomato soup, bowl", "snack", "'croutons'"),
        ("Add a few mint leaves to the tea.", "mug, tea bags", "snack", "'mint'"),
    ],
)
def test_a_near_row_still_names_a_missing_thing(grounding, step: str, env: str, intent: str, thing: str) -> None:  # type: ignore[no-untyped-def]
    found = grounding(step, env, intent)
    assert any(thing in m for m in found), found
