"""Writes tests/data/validation_cases.csv (run from the repo root): one small AmbiK-style row per defect class
and per false-alarm class; the columns expect_errors, expect_warnings and not_warnings say what it must raise."""

import csv

from ambiforge.ambik.csv_io import AMBIK_COLUMNS

COLUMNS = [*AMBIK_COLUMNS, "case", "expect_errors", "expect_warnings", "not_warnings"]
ENV = "ceramic mug, glass mug, oat milk, whole milk, onions, chicken breasts, sourdough, kitchen towel, oranges, honey"
BASE = dict(
    environment_short=ENV,
    environment_full=", ".join("a " + e for e in ENV.split(", ")),
    unambiguous_direct="Pour the oat milk into the glass mug.",
    ambiguity_type="preferences",
    amb_shortlist="ceramic mug, glass mug",
    ambiguous_task="Pour the oat milk into a mug.",
    question="Which mug should I use?",
    answer="The glass mug, please.",
    plan_for_clear_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug."],
    plan_for_amb_task=["Pick up a mug.", "Pour the oat milk into the mug."],
    end_of_ambiguity="0",
    user_intent="glass",
    variants="ceramic mug, glass mug",
    expect_errors="",
    expect_warnings="",
    not_warnings="",
)
CASES = {
    # ---- false alarms: legitimate content that must raise no error
    "ok": {},
    "fa_units": dict(
        unambiguous_direct="Pour 2 cups of oat milk into the glass mug and stir in 1 tablespoon of honey.",
        ambiguous_task="Pour 2 cups of oat milk into a mug and stir in 1 tablespoon of honey.",
        not_warnings="grounding_noun grounding_variant",
    ),
    "fa_plural": dict(
        unambiguous_direct="Put the chicken breast and an onion next to the glass mug.",
        ambiguous_task="Put the chicken breast and an onion next to a mug.",
        plan_for_clear_task=["Pick up the glass mug.", "Put the chicken breast and the onion next to the glass mug."],
        plan_for_amb_task=["Pick up a mug.", "Put the chicken breast and the onion next to the mug."],
        not_warnings="grounding_noun grounding_variant",
    ),
    "fa_name_variant": dict(
        unambiguous_direct="Dry the glass mug with the dish towel.",
        ambiguous_task="Dry a mug with the dish towel.",
        plan_for_clear_task=["Pick up the glass mug.", "Dry the glass mug with the dish towel."],
        plan_for_amb_task=["Pick up a mug.", "Dry the mug with the dish towel."],
        expect_warnings="grounding_variant",
    ),
    "fa_modifier_name": dict(
        unambiguous_direct="Put a slice of sourdough bread beside the glass mug.",
        ambiguous_task="Put a slice of sourdough bread beside a mug.",
        not_warnings="grounding_noun grounding_variant",
    ),
    "fa_product": dict(
        unambiguous_direct="Squeeze the oranges to make fresh juice and pour the juice into the glass mug.",
        ambiguous_task="Squeeze the oranges to make fresh juice and pour the juice into a mug.",
        plan_for_clear_task=[
            "Pick up the glass mug.",
            "Squeeze the oranges.",
            "Pour the orange juice into the glass mug.",
        ],
        plan_for_amb_task=["Pick up a mug.", "Squeeze the oranges.", "Pour the orange juice into the mug."],
        not_warnings="grounding_noun",
    ),
    "fa_own_product": dict(
        unambiguous_direct="Mix the honey and oat milk in the glass mug to make granola.",
        ambiguous_task="Mix the honey and oat milk in a mug to make granola.",
        plan_for_clear_task=["Pick up the glass mug.", "Mix the honey and oat milk in it.", "Serve the granola."],
        plan_for_amb_task=["Pick up a mug.", "Mix the honey and oat milk in it.", "Serve the granola."],
    ),
    "fa_long_recipe": dict(
        plan_for_clear_task=["Pick up the glass mug."] + ["Stir the oat milk gently."] * 15,
        plan_for_amb_task=["Pick up a mug."] + ["Stir the oat milk gently."] * 15,
        expect_warnings="plan_length",
    ),
    "fa_question_then_sentence": dict(question="Which mug? The ceramic one is chipped."),
    "fa_deletion_rewrite": dict(
        unambiguous_direct="Pour the oat milk slowly into the glass mug that stands on the kitchen table by the door.",
        ambiguous_task="Pour the oat milk into a mug.",
        not_warnings="rewrite",
    ),
    "fa_intent_substring": dict(
        user_intent="glass|crystal, -ceramic mug",
        answer="Glasses are fine: the glass mug.",
    ),
    # ---- defects: each must raise its error
    "d_missing_object": dict(
        unambiguous_direct="Squeeze the lemon into the glass mug of oat milk.",
        ambiguous_task="Squeeze the lemon into a mug of oat milk.",
        expect_errors="grounding",
    ),
    "d_missing_catalog_object": dict(
        unambiguous_direct="Pour the oat milk into the glass mug and add the maple syrup.",
        ambiguous_task="Pour the oat milk into a mug and add the maple syrup.",
        expect_errors="grounding",
    ),
    "d_identical_plans": dict(
        plan_for_amb_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug."],
        expect_errors="plan_divergence answer_leak",
    ),
    "d_same_at_end_of_ambiguity": dict(
        plan_for_amb_task=["Pick up the glass mug.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence answer_leak",
    ),
    "d_open_choice": dict(
        plan_for_clear_task=["Pick up the chosen mug.", "Pour the oat milk into the glass mug."],
        expect_errors="plan_divergence",
    ),
    "d_no_resolving_concept": dict(
        plan_for_clear_task=["Pick up the mug carefully.", "Pour the oat milk into the glass mug."],
        expect_errors="plan_divergence",
    ),
    "d_answer_leak": dict(
        plan_for_clear_task=["Pick up the glass mug now.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence answer_leak",
    ),
    "d_variants": dict(variants="ceramic mug", expect_errors="variants", expect_warnings="variants_shortlist"),
    "d_qa_fit": dict(answer="Which one do you like?", expect_errors="qa_fit", expect_warnings="answer"),
    "d_stray_prefix": dict(
        plan_for_clear_task=["0: Pick up the glass mug.", "Pour the oat milk into the glass mug."],
        expect_errors="corruption",
    ),
    "d_several_steps_one_line": dict(
        plan_for_clear_task=["Pick up the glass mug. 2. Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up a mug. 2. Pour the oat milk into the mug."],
        expect_errors="corruption",
    ),
    "d_mixed_scripts": dict(
        unambiguous_direct="Pour the oat milk into the gl\u0430ss mug.", expect_errors="corruption"
    ),
    "d_fragment": dict(ambiguous_task="our the oat milk into a mug.", expect_warnings="fragment"),
    "d_note": dict(
        unambiguous_direct="Pour the oat milk into the glass mug. Note: check that the mug is clean.",
        expect_warnings="fragment",
    ),
    "d_not_ambiguous": dict(
        ambiguous_task="Pour the oat milk into the glass mug.", expect_errors="minimal_pair plan_divergence"
    ),
    "d_placeholder": dict(question="Which {object} should I use?", expect_errors="hygiene"),
    "d_rewrite": dict(ambiguous_task="Kindly serve some warm milk in any vessel.", expect_warnings="rewrite"),
    "d_not_a_rewrite": dict(
        ambiguous_task="Could you please deal with all of the things over there however you like?",
        expect_errors="minimal_pair",
        expect_warnings="rewrite",
    ),
    "d_generic_noun": dict(
        unambiguous_direct="Pour the oat milk into the glass mug and put it on a tray.",
        ambiguous_task="Pour the oat milk into a mug and put it on a tray.",
        expect_warnings="grounding_noun",
    ),
    "d_question": dict(question="Which mug should I use.", expect_errors="question"),
    "d_intent": dict(user_intent="crystal", answer="The crystal one.", expect_errors="intent variants plan_divergence"),
    "d_plan_eoa": dict(end_of_ambiguity="5", expect_errors="plan"),
    "d_environment_repeats": dict(environment_short=ENV + ", honey", expect_warnings="environment"),
    "d_shortlist": dict(
        amb_shortlist="ceramic mug, plastic mug", expect_errors="shortlist", expect_warnings="variants_shortlist"
    ),
}


def numbered(steps):
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1))


with open("tests/data/validation_cases.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.DictWriter(fh, fieldnames=COLUMNS)
    w.writeheader()
    for n, (case, change) in enumerate(CASES.items(), start=1):
        row = dict(BASE) | change
        row["plan_for_clear_task"] = numbered(row["plan_for_clear_task"])
        row["plan_for_amb_task"] = numbered(row["plan_for_amb_task"])
        row["id"] = str(n)
        row["case"] = case
        w.writerow(row)
