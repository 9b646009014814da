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
#: A common-sense pair whose clear task adds an amount ("two cups"), both plans copied: the two cases below
#: differ only in whether the plans say it.
COPIED_AMOUNT = dict(
    ambiguity_type="common_sense_knowledge",
    amb_shortlist="",
    unambiguous_direct="Pour two cups of oat milk into the glass mug.",
    ambiguous_task="Pour some oat milk into the glass mug.",
    question="How much oat milk should I pour?",
    answer="Two cups.",
    end_of_ambiguity="1",
    user_intent="two|2, cups",
    variants="",
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
    "fa_deletion_rewrite": dict(  # deleting is free for the rewrite warning ("slowly" is kept: minimal_pair)
        unambiguous_direct="Pour the oat milk slowly into the tall glass mug.",
        ambiguous_task="Pour the oat milk slowly into a mug.",
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
        expect_errors="answer_leak",
        expect_warnings="plan_resolution",
    ),
    "d_open_choice": dict(
        plan_for_clear_task=["Pick up the chosen mug.", "Pour the oat milk into the glass mug."],
        expect_warnings="plan_resolution",
    ),
    "d_no_resolving_concept": dict(
        plan_for_clear_task=["Pick up the mug carefully.", "Pour the oat milk into the glass mug."],
        expect_warnings="plan_resolution",
    ),
    "d_answer_leak": dict(
        plan_for_clear_task=["Pick up the glass mug now.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour the oat milk into the mug."],
        expect_errors="answer_leak",
        expect_warnings="plan_resolution",
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
    "d_zero_dot_prefix": dict(  # AmbiK's second batch: the import drops "0." as numbering; the raw cell keeps it
        plan_for_clear_task="0. Pick up the glass mug.\n1. Pour the oat milk into the glass mug.",
        expect_errors="corruption",
    ),
    "d_steps_one_line_after_a_word": dict(
        plan_for_clear_task=["Pick up the glass mug from the shelf 2. Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up a mug from the shelf 2. Pour the oat milk into the mug."],
        expect_errors="corruption",
    ),
    "d_steps_one_line_glued": dict(
        plan_for_clear_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug. 3.Stir it"],
        expect_errors="corruption",
    ),
    "fa_numbers_in_a_step": dict(
        unambiguous_direct="Pour 2 cups of oat milk into the glass mug.",
        ambiguous_task="Pour 2 cups of oat milk into a mug.",
        plan_for_clear_task=["Pick up the glass mug.", "Pour 2 cups of oat milk into the glass mug, 1 at a time."],
        plan_for_amb_task=["Pick up a mug.", "Pour 2 cups of oat milk into the mug, 1 at a time."],
    ),
    "d_mixed_scripts": dict(
        unambiguous_direct="Pour the oat milk into the gl\u0430ss mug.", expect_errors="corruption"
    ),
    "d_fragment": dict(ambiguous_task="our the oat milk into a mug.", expect_warnings="fragment"),
    "d_note": dict(
        unambiguous_direct="Pour the oat milk into the glass mug. Note: check that the mug is clean.",
        ambiguous_task="Pour the oat milk into a mug. Note: check that the mug is clean.",
        expect_warnings="fragment",
    ),
    "d_not_ambiguous": dict(
        ambiguous_task="Pour the oat milk into the glass mug.",
        expect_errors="minimal_pair",
        expect_warnings="plan_resolution",
    ),
    "d_placeholder": dict(question="Which {object} should I use?", expect_errors="hygiene"),
    "d_rewrite": dict(  # "oat milk" becomes "warm milk": more changes than the open point (the mug)
        ambiguous_task="Kindly serve some warm milk in any vessel.",
        expect_errors="minimal_pair",
        expect_warnings="rewrite",
    ),
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
    "d_intent": dict(
        user_intent="crystal",
        answer="The crystal one.",
        expect_errors="variants qa_fit",  # crystal is no option either
        expect_warnings="intent_suspect plan_resolution",  # the clear task says glass: the intent string is off
    ),
    "d_plan_eoa": dict(end_of_ambiguity="5", expect_errors="plan"),
    "d_environment_repeats": dict(environment_short=ENV + ", honey", expect_warnings="environment"),
    "d_shortlist": dict(
        amb_shortlist="ceramic mug, plastic mug",
        expect_errors="shortlist qa_fit",  # and the intended glass one is no option
        expect_warnings="variants_shortlist",
    ),
    "d_plan_agreement": dict(
        plan_for_clear_task=["Take the honey from the shelf.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Fold the kitchen towel neatly.", "Pour the oat milk into the mug."],
        end_of_ambiguity="1",
        expect_warnings="plan_agreement",
    ),
    # The plan names the honey before the question but not that it is warm: a suspicion, not the whole answer.
    "d_answer_leak_suspect": dict(
        unambiguous_direct="Stir warm honey into the oat milk in the glass mug.",
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        ambiguous_task="Sweeten the oat milk in the glass mug.",
        question="What should I sweeten it with?",
        answer="Warm honey, please.",
        plan_for_clear_task=["Pick up the honey.", "Stir the warm honey into the oat milk in the glass mug."],
        plan_for_amb_task=["Pick up the honey.", "Stir something sweet into the oat milk in the glass mug."],
        end_of_ambiguity="1",
        user_intent="honey, warm",
        variants="",
        expect_warnings="answer_leak_suspect",
    ),
    "d_variants_suspect": dict(
        unambiguous_direct="Stir honey into the oat milk in the glass mug.",
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        ambiguous_task="Sweeten the oat milk in the glass mug.",
        question="Should I sweeten it?",
        answer="Yes, with honey.",  # the variant "Yes, ..." is the answer; it does not name the honey
        plan_for_clear_task=["Pick up the honey.", "Stir the honey into the oat milk in the glass mug."],
        plan_for_amb_task=["Pick up something sweet.", "Stir it into the oat milk in the glass mug."],
        end_of_ambiguity="0",
        user_intent="honey",
        variants="Yes, sweeten it\nNo, leave it plain",
        expect_warnings="variants_suspect",
    ),
    "fa_reworded_intent": dict(
        user_intent="glass mugs",
    ),
    "fa_part_and_verb": dict(
        unambiguous_direct=(
            "Extract the juice of an orange, grate the zest, and carefully squeeze the juice into the glass mug."
        ),
        ambiguous_task="Extract the juice of an orange, grate the zest, and carefully squeeze the juice into a mug.",
    ),
    "fa_kind_and_fixture": dict(
        environment_short=ENV + ", spaghetti, green tea bags",
        unambiguous_direct=(
            "Boil the pasta in the tea kettle water, make a cup of tea, and pour the oat milk into the glass mug."
        ),
        ambiguous_task="Boil the pasta in the tea kettle water, make a cup of tea, and pour the oat milk into a mug.",
    ),
    "fa_shortlist_quantities": dict(
        unambiguous_direct="Pour two cups of oat milk into the glass mug.",
        amb_shortlist="one, two, a teaspoon of honey",
        ambiguous_task="Pour some cups of oat milk into the glass mug.",
        question="How many cups should I pour?",
        answer="Two, please.",
        plan_for_clear_task=["Pick up the glass mug.", "Pour two cups of oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour some cups of oat milk into the glass mug."],
        end_of_ambiguity="1",
        user_intent="two",
        variants="one, two",
        expect_errors="type",  # no shortlist error (quantities are not looked up); how many is no preference
    ),
    "fa_leak_function_word": dict(
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        plan_for_clear_task=[
            "Pick up the glass mug and wait until it is dry.",
            "Pour the oat milk into the glass mug.",
        ],
        plan_for_amb_task=["Pick up a mug and wait until it is dry.", "Pour the oat milk into the mug."],
        user_intent="until, glass",
        variants="",
    ),
    "d_modifier_is_not_the_object": dict(
        environment_short=ENV + ", bread knife",
        unambiguous_direct="Slice the bread with the bread knife and pour the oat milk into the glass mug.",
        ambiguous_task="Slice the bread with the bread knife and pour the oat milk into a mug.",
        expect_errors="grounding",
    ),
    "d_cut_word": dict(
        plan_for_clear_task=["Pick up the glass mug.", "ablespoons of honey go into the glass mug."],
        plan_for_amb_task=["Pick up a mug.", "ablespoons of honey go into the mug."],
        expect_errors="corruption",
    ),
    "d_definite_tool_missing": dict(
        unambiguous_direct="Stir the oat milk with the whisk in the glass mug.",
        ambiguous_task="Stir the oat milk with the whisk in a mug.",
        expect_errors="grounding",
    ),
    "fa_a_bowl_then_the_bowl": dict(  # "the container" after "a container": no particular one (a bowl the
        # kitchen has none of at all is a grounding error)
        unambiguous_direct="Pour the oat milk into a container, then pour the container into the glass mug.",
        ambiguous_task="Pour the oat milk into a container, then pour the container into a mug.",
        expect_warnings="grounding_noun",
    ),
    "d_missing_tool": dict(
        unambiguous_direct="Stir the oat milk with a spoon and pour it into the glass mug.",
        ambiguous_task="Stir the oat milk with a spoon and pour it into a mug.",
        expect_errors="grounding",
    ),
    "d_missing_tools_chained": dict(
        unambiguous_direct=(
            "Chop the onions using a knife and cutting board, then pour the oat milk into the glass mug."
        ),
        ambiguous_task="Chop the onions using a knife and cutting board, then pour the oat milk into a mug.",
        expect_errors="grounding",
    ),
    "d_missing_by_material": dict(
        unambiguous_direct="Pour the oat milk into the glass mug and set it on a ceramic dinner plate.",
        ambiguous_task="Pour the oat milk into a mug and set it on a ceramic dinner plate.",
        expect_errors="grounding",
    ),
    "d_whole_answer_leak": dict(
        environment_short=ENV + ", whisk",
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        variants="whisk",
        unambiguous_direct="Froth the oat milk with the whisk, then pour it into the glass mug.",
        ambiguous_task="Froth the oat milk with a suitable tool, then pour it into the glass mug.",
        question="Which tool should I use to froth the oat milk?",
        answer="The whisk.",
        user_intent="whisk",
        plan_for_clear_task=[
            "Get the whisk and the oat milk.",
            "Froth the oat milk with the whisk.",
            "Pour the oat milk into the glass mug.",
        ],
        plan_for_amb_task=[
            "Get the whisk and the oat milk.",
            "Froth the oat milk with a suitable tool.",
            "Pour the oat milk into the glass mug.",
        ],
        end_of_ambiguity="1",
        expect_errors="answer_leak",
    ),
    "d_offered_option_leak": dict(
        environment_short=ENV + ", whisk",
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        variants="whisk",
        unambiguous_direct="Froth the oat milk with the whisk and pour it into the glass mug.",
        ambiguous_task="Froth the oat milk and pour it into the glass mug.",
        question="Should I froth it with the whisk or just shake the carton?",
        answer="Use the whisk, and warm the milk first.",
        user_intent="whisk, warm",
        plan_for_clear_task=[
            "Get the whisk and the oat milk.",
            "Warm the oat milk and froth it with the whisk.",
            "Pour the oat milk into the glass mug.",
        ],
        plan_for_amb_task=[
            "Get the whisk and the oat milk.",
            "Froth the oat milk.",
            "Pour the oat milk into the glass mug.",
        ],
        end_of_ambiguity="1",
        expect_errors="answer_leak",
    ),
    "fa_leak_quantity": dict(
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        variants="",
        unambiguous_direct="Pour 2 cups of oat milk into the glass mug.",
        ambiguous_task="Pour some oat milk into the glass mug.",
        question="How much oat milk should I pour?",
        answer="Pour 2 cups of oat milk.",
        user_intent="2, oat milk",
        plan_for_clear_task=["Take the oat milk.", "Pour 2 cups of oat milk into the glass mug."],
        plan_for_amb_task=["Take the oat milk.", "Pour some oat milk into the glass mug."],
        end_of_ambiguity="1",
    ),
    "fa_leak_counted_object": dict(  # "Crack eggs into a bowl" when the question is how many eggs: no leak
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        variants="",
        unambiguous_direct="Put 2 chicken breasts next to the glass mug.",
        ambiguous_task="Put some chicken breasts next to the glass mug.",
        question="How many chicken breasts should I put next to the glass mug?",
        answer="Two chicken breasts.",
        user_intent="2|two, chicken breasts",
        plan_for_clear_task=["Take the chicken breasts out.", "Put 2 chicken breasts next to the glass mug."],
        plan_for_amb_task=["Take the chicken breasts out.", "Put some chicken breasts next to the glass mug."],
        end_of_ambiguity="1",
        not_warnings="answer_leak_suspect",
    ),
    "d_leak_count": dict(  # "sear for 2 minutes on each side" in the ambiguous plan before the question
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        variants="",
        unambiguous_direct="Put 2 chicken breasts next to the glass mug.",
        ambiguous_task="Put some chicken breasts next to the glass mug.",
        question="How many chicken breasts should I put next to the glass mug?",
        answer="Two chicken breasts.",
        user_intent="2|two, chicken breasts",
        plan_for_clear_task=["Take 2 chicken breasts out.", "Put 2 chicken breasts next to the glass mug."],
        plan_for_amb_task=["Take 2 chicken breasts out.", "Put some chicken breasts next to the glass mug."],
        end_of_ambiguity="1",
        expect_errors="answer_leak",
    ),
    "fa_leak_other_count": dict(  # "two eggs" when the question counts slices of bread
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        variants="",
        unambiguous_direct="Put 2 chicken breasts next to the glass mug.",
        ambiguous_task="Put some chicken breasts next to the glass mug.",
        question="How many chicken breasts should I put next to the glass mug?",
        answer="Two chicken breasts.",
        user_intent="2|two",
        plan_for_clear_task=["Take two onions out.", "Put 2 chicken breasts next to the glass mug."],
        plan_for_amb_task=["Take two onions out.", "Put some chicken breasts next to the glass mug."],
        end_of_ambiguity="1",
    ),
    "fa_compound_hyphen": dict(  # "cream" of "cream cheese-covered": the whole scene name resolves first
        environment_short=ENV + ", cream cheese, peanut butter",
        environment_full=", ".join("a " + e for e in (ENV + ", cream cheese, peanut butter").split(", ")),
        plan_for_clear_task=["Pick up the glass mug.", "Put the cream cheese-covered sourdough beside the glass mug."],
        plan_for_amb_task=["Pick up a mug.", "Put the cream cheese-covered sourdough beside the mug."],
        not_warnings="grounding_noun grounding_variant",
    ),
    "fa_compound_inflected": dict(  # "peanut" of "peanut buttered toast"
        environment_short=ENV + ", cream cheese, peanut butter",
        environment_full=", ".join("a " + e for e in (ENV + ", cream cheese, peanut butter").split(", ")),
        plan_for_clear_task=["Pick up the glass mug.", "Put the peanut buttered sourdough beside the glass mug."],
        plan_for_amb_task=["Pick up a mug.", "Put the peanut buttered sourdough beside the mug."],
        not_warnings="grounding_noun grounding_variant",
    ),
    "d_compound_part_missing": dict(  # the part alone is still an object: "cream" without cream cheese
        plan_for_clear_task=["Pick up the glass mug.", "Put the cream cheese-covered sourdough beside the glass mug."],
        plan_for_amb_task=["Pick up a mug.", "Put the cream cheese-covered sourdough beside the mug."],
        expect_errors="grounding",
    ),
    "d_no_options_listed": dict(amb_shortlist="", variants="", expect_errors="shortlist"),
    "fa_variants_without_shortlist": dict(amb_shortlist="", expect_warnings="shortlist_missing"),
    "d_copied_plan_mismatch": dict(  # the clear plan copied from the ambiguous one never says "glass"
        plan_for_clear_task=["Pick up a mug.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_copied_plan_left_open": dict(  # ... or it leaves the choice open ("the chosen mug")
        plan_for_clear_task=["Pick up the chosen mug.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the chosen mug.", "Pour the oat milk into the glass mug."],
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_eoa_before_the_choice": dict(  # the plans agree at end_of_ambiguity and part at the next step
        plan_for_clear_task=["Pick up the oat milk.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the oat milk.", "Pour the oat milk into the mug."],
        expect_errors="end_of_ambiguity",
    ),
    "d_eoa_after_the_choice": dict(  # a clear step before end_of_ambiguity already names the glass mug
        plan_for_clear_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Pick up a mug.", "Pour the oat milk into the mug."],
        end_of_ambiguity="1",
        expect_errors="end_of_ambiguity",
    ),
    "fa_eoa_reworded_before": dict(  # an earlier step said in other words is no choice
        plan_for_clear_task=["Take the oat milk out.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Get the oat milk out.", "Pour the oat milk into the mug."],
        end_of_ambiguity="1",
    ),
    "d_answer_other_option": dict(answer="The ceramic mug, please.", expect_errors="qa_fit"),
    "fa_answer_shortened_option": dict(  # "the glass bottle" is the intended glass milk bottle said shorter
        answer="The glass one.", variants="the glass mug\nthe ceramic mug", user_intent="glass mug"
    ),
    "d_drops_more_than_the_open_point": dict(  # the ambiguous task loses the rest of the task, not just "glass"
        unambiguous_direct="Pour the oat milk into the glass mug, slice the sourdough, chop the onions, squeeze "
        "the oranges and warm the honey.",
        expect_errors="minimal_pair",
    ),
    "d_safety_without_hazard": dict(ambiguity_type="safety", amb_shortlist="", expect_errors="type"),
    "d_misspelled_word": dict(answer="The glass mug, pleese.", expect_errors="corruption"),
    "fa_cooking_words": dict(  # words the dictionary lacks but a kitchen uses: no typo
        answer="The glass mug; the oat milk cannot go in the fridge, check its doneness.",
    ),
    "d_variants_not_the_answer": dict(  # neither the intent nor the answer is among the variants
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        question="Where should the oat milk go?",
        answer="Into the glass mug.",
        variants="Into the honey jar\nOnto the sourdough",
        expect_errors="variants",
    ),
    "fa_variants_answer_in_other_words": dict(  # the answer's "No" is a variant: a suspicion, not an error
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        question="Should the oat milk go into the ceramic mug?",
        answer="No, into the other one.",
        variants="Yes, into the ceramic mug\nNo, not into the ceramic mug",
        expect_warnings="variants_suspect",
    ),
    "d_preferences_amount": dict(  # a preferences item asking how much: no choice among things (type)
        unambiguous_direct="Pour one cup of oat milk into the glass mug.",
        ambiguous_task="Pour some oat milk into the glass mug.",
        amb_shortlist="",
        question="How much oat milk should I pour?",
        answer="One cup.",
        plan_for_clear_task=["Pick up the glass mug.", "Pour one cup of oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour some oat milk into the glass mug."],
        end_of_ambiguity="1",
        user_intent="one|1, cup",
        variants="",
        expect_errors="type",
    ),
    "d_preferences_way": dict(  # two ways of doing offered, a way wanted: no choice among things (type)
        unambiguous_direct="Stir the honey into the oat milk in the glass mug.",
        ambiguous_task="Mix the honey into the oat milk in the glass mug.",
        amb_shortlist="",
        question="Should I stir or shake the honey into the oat milk?",
        answer="Stir it.",
        plan_for_clear_task=["Pick up the glass mug.", "Stir the honey into the oat milk in the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Mix the honey into the oat milk in the glass mug."],
        end_of_ambiguity="1",
        user_intent="stir, -shake",
        variants="Stir it\nShake it",
        expect_errors="type",
    ),
    "fa_preferences_offered_objects": dict(  # "Should I use X or Y?" offers things: a preference (no type error)
        question="Should I use the ceramic mug or the glass mug?",
    ),
    "fa_preferences_how_many_of_what": dict(  # how many, and the intent names a thing the question leaves open
        question="How many of them should I fill?",
        answer="One glass mug.",
        user_intent="glass mug",
    ),
    "d_eoa_choice_later": dict(  # the plans part at the index for another reason; the choice is two steps on
        plan_for_clear_task=["Take the oat milk.", "Open the oat milk.", "Pour the oat milk into the glass mug."],
        plan_for_amb_task=["Take the milk.", "Open the milk.", "Pour the milk into a mug."],
        end_of_ambiguity="0",
        expect_errors="end_of_ambiguity",
    ),
    "d_intent_outside_options": dict(  # the intended object is none of the shortlisted mugs (qa_fit); a shortlist
        environment_short=ENV + ", enamel mug",  # of onions for "Which mug?" would be the shortlist's own defect
        environment_full=", ".join("a " + e for e in (ENV + ", enamel mug").split(", ")),
        amb_shortlist="ceramic mug, enamel mug",
        user_intent="glass mug",
        expect_errors="qa_fit",
    ),
    "d_shortlist_off_question": dict(  # onions and oranges for "Which mug?": the shortlist answers another question,
        amb_shortlist="onions, oranges",  # and the variants offer none of it
        user_intent="glass mug",
        expect_errors="shortlist",
        expect_warnings="variants_shortlist",
    ),
    "fa_intent_among_options_in_other_form": dict(  # "glass mug" is the option "a glass mug"
        amb_shortlist="a ceramic mug, a glass mug",
        user_intent="glass mug",
    ),
    "d_variant_absent": dict(  # an offered object the kitchen lacks (variants)
        variants="ceramic mug, glass mug, paper cup",
        expect_errors="variants",
    ),
    "fa_variant_appliance_or_kind": dict(  # every kitchen has a microwave; "milk" is the kind of the oat milk
        variants="ceramic mug, glass mug, microwave, milk",
    ),
    "fa_intent_kind_alternative": dict(  # "Cook macaroni" -> "Cook pasta" for `macaroni|pasta`: the ambiguous
        user_intent="glass mug|mug",  # task keeps the kind, not the intended one: minimal
    ),  # ---- issue 43, fourth round: unsaid intents, copied plans, generic crockery, cut steps, variants
    "d_intent_plan_open": dict(
        unambiguous_direct="Pour the oat milk into a mug for me.",
        plan_for_clear_task=["Pick up the chosen mug.", "Pour the oat milk into the mug."],
        user_intent="glass mug",
        expect_errors="intent",
    ),
    "fa_intent_vague_words_dropped": dict(
        environment_short="eggs, frying pan, bowl, oat milk, honey",
        environment_full="eggs, a frying pan, a bowl, oat milk, honey",
        unambiguous_direct="Make an omelette with the eggs.",
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        ambiguous_task="Heat the frying pan and make an omelette with the eggs.",
        question="How hot should the pan be?",
        answer="Medium heat.",
        plan_for_clear_task=["Crack the eggs into the bowl.", "Cook the eggs in the frying pan."],
        plan_for_amb_task=["Crack the eggs into the bowl.", "Heat the frying pan."],
        end_of_ambiguity="1",
        user_intent="medium",
        variants="",
        expect_warnings="intent_suspect",
    ),
    "d_intent_not_minimal": dict(
        environment_short="eggs, frying pan, bowl, oat milk, honey",
        environment_full="eggs, a frying pan, a bowl, oat milk, honey",
        unambiguous_direct="Make an omelette with the eggs and oat milk.",
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        ambiguous_task="Heat the frying pan and make an omelette with the eggs.",
        question="How hot should the pan be?",
        answer="Medium heat.",
        plan_for_clear_task=["Crack the eggs into the bowl with the oat milk.", "Cook the eggs in the frying pan."],
        plan_for_amb_task=["Crack the eggs into the bowl.", "Heat the frying pan."],
        end_of_ambiguity="1",
        user_intent="medium",
        variants="",
        expect_errors="intent minimal_pair",  # the ambiguous task drops the oat milk too
        not_warnings="intent_suspect",
    ),
    "fa_copied_plan_task_adds_manner": dict(
        unambiguous_direct="Pour the oat milk into a mug in a simple way.",
        plan_for_clear_task=["Pick up a mug.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence intent minimal_pair",  # the clear task leaves the mug open too
    ),
    "d_eoa_copied_step_off": dict(
        plan_for_clear_task=["Pick up a mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        plan_for_amb_task=["Pick up a mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        end_of_ambiguity="1",
        expect_errors="plan_divergence plan_mismatch end_of_ambiguity",
    ),
    "fa_eoa_copied_step_on": dict(
        plan_for_clear_task=["Pick up a mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        plan_for_amb_task=["Pick up a mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_eoa_copied_open_before": dict(
        plan_for_clear_task=["Pick up the chosen mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        plan_for_amb_task=["Pick up the chosen mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        end_of_ambiguity="1",
        expect_errors="plan_divergence plan_mismatch end_of_ambiguity",
    ),
    "fa_eoa_copied_choice_later": dict(
        plan_for_clear_task=["Open the cupboard.", "Pick up a mug.", "Pour the oat milk into the mug."],
        plan_for_amb_task=["Open the cupboard.", "Pick up a mug.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_generic_crockery_missing": dict(
        unambiguous_direct="Pour the oat milk into the glass mug and put it on a plate.",
        ambiguous_task="Pour the oat milk into a mug and put it on a plate.",
        expect_errors="grounding",
        not_warnings="grounding_noun",
    ),
    "d_baking_tray_missing": dict(  # a baking tray is bakeware to fetch, not a soft noun like "a tray"
        unambiguous_direct="Pour the oat milk into the glass mug and put the sourdough on a baking tray.",
        ambiguous_task="Pour the oat milk into a mug and put the sourdough on a baking tray.",
        expect_errors="grounding",
        not_warnings="grounding_noun",
    ),
    "d_step_cut_in_two": dict(
        plan_for_clear_task="1. Pick up the glass mug.\nour the oat milk into the glass mug.",
        expect_errors="corruption",
    ),
    "d_doubled_word": dict(
        unambiguous_direct="Pour the the oat milk into the glass mug.",
        expect_errors="corruption",
    ),
    "d_variants_swapped": dict(
        variants="ceramic mug\nhoney",
        expect_errors="variants",
    ),
    "d_variants_one_option": dict(
        variants="Pour it into the glass mug\nPut it in the glass mug\nTransfer it to the glass mug",
        expect_errors="variants",
    ),
    "d_replaces_beside_the_open_point": dict(  # "stir" -> "mix" while the mug is asked: not minimal
        unambiguous_direct="Pour the oat milk into the glass mug and stir in the honey.",
        ambiguous_task="Pour the oat milk into a mug and mix in the honey.",
        expect_errors="minimal_pair",
    ),
    "fa_replaces_the_open_point_only": dict(  # the mug said another way is the open point itself
        unambiguous_direct="Pour the oat milk into the glass mug and stir in the honey.",
        ambiguous_task="Pour the oat milk into a container and stir in the honey.",
        question="Which container should I use?",
    ),
    "fa_verb_after_next": dict(  # "next juice the oranges": a verb, not the juice as an object
        unambiguous_direct="Pour the oat milk into the glass mug, and next juice the oranges.",
        ambiguous_task="Pour the oat milk into a mug, and next juice the oranges.",
    ),
    "d_stray_closing_quote": dict(question="Which mug should I use?'", expect_errors="corruption"),
    "d_intent_empty_alternative": dict(user_intent="glass|", expect_errors="corruption"),
    "d_copied_plan_without_amount": dict(  # the clear task adds "two cups"; the copied plan never says it
        COPIED_AMOUNT,
        plan_for_clear_task=["Pick up the glass mug.", "Pour some oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour some oat milk into the glass mug."],
        expect_errors="plan_divergence plan_mismatch",
    ),
    "fa_copied_plan_with_amount": dict(  # ... and one that says it is no mismatch
        COPIED_AMOUNT,
        plan_for_clear_task=["Pick up the glass mug.", "Pour 2 cups of oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour 2 cups of oat milk into the glass mug."],
        expect_errors="plan_divergence",
    ),
    "d_preferences_yes_no": dict(  # a yes or no with nothing listed: no choice among things (type, not shortlist)
        question="Should I warm the oat milk first?",
        answer="Yes.",
        amb_shortlist="",
        variants="",
        expect_errors="type",
    ),
    "d_preferences_how_to": dict(  # how to do it, the intent naming its means: a way, not a preference
        question="How should I pour the oat milk?",
        answer="Slowly, with the kitchen towel under the mug.",
        user_intent="slowly, kitchen towel",
        amb_shortlist="",
        variants="",
        expect_errors="type",
    ),
    "d_preferences_place": dict(  # where to put it, a place intended: no choice among things (type)
        question="Where should I put the glass mug?",
        answer="On the kitchen table.",
        user_intent="kitchen table",
        amb_shortlist="",
        variants="On the kitchen table\nIn the fridge",
        expect_errors="type",
    ),
    "d_copied_plan_intent_unsaid": dict(  # the copied plan says "tall" the clear task adds, never the intended "glass"
        unambiguous_direct="Pour the oat milk into the tall glass mug.",
        plan_for_clear_task=["Pick up the tall mug.", "Pour the oat milk into the mug."],
        plan_for_amb_task=["Pick up the tall mug.", "Pour the oat milk into the mug."],
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_variants_set_incomplete": dict(  # the intent wants the glass mug and the honey; no variant offers honey
        unambiguous_direct="Pour the oat milk into the glass mug and add the honey.",
        ambiguous_task="Pour the oat milk into a mug and add the honey.",
        plan_for_clear_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug and add the honey."],
        plan_for_amb_task=["Pick up a mug.", "Pour the oat milk into the mug and add the honey."],
        user_intent="glass mug, honey",
        variants="glass mug\nceramic mug",
        expect_errors="",  # the intended glass mug is an option: the honey is no second choice
        expect_warnings="variants_suspect",  # a thing lost beside the choice is suspected, not certain
    ),
    "d_intent_is_a_plan": dict(  # a plan of another task pasted into user_intent answers no question
        question="Should I pick the glass mug?",
        answer="Yes.",
        variants="",
        user_intent="1. Place the pizza on the plate in the oven. 2. Once it is done take it out",
        expect_errors="qa_fit",
    ),
    "d_eoa_copied_something_before": dict(  # "Warm something" leaves the choice open at 0, before the index
        unambiguous_direct="Warm the oat milk in the glass mug and pour in the honey.",
        ambiguous_task="Warm the oat milk in a mug and pour in the honey.",
        plan_for_clear_task=["Warm something with the oat milk.", "Open the honey.", "Pour it into the mug."],
        plan_for_amb_task=["Warm something with the oat milk.", "Open the honey.", "Pour it into the mug."],
        end_of_ambiguity="2",
        expect_errors="plan_divergence plan_mismatch end_of_ambiguity",
    ),
    "fa_details_dropped_beside_the_open_point": dict(  # a suspicion only: the reader may call it the open point
        unambiguous_direct="Pour the fresh oat milk into the glass mug with the honey from the kitchen towel.",
        ambiguous_task="Pour the oat milk into a mug with the honey.",
        expect_warnings="rewrite",
    ),
    "fa_variants_counts_differ": dict(
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        question="How many mugs should I fill?",
        answer="Two mugs.",
        user_intent="2|two",
        variants="1 mug\n2 mugs\n3 mugs",
    ),
    # issue 43, seventh round: the question against what the pair leaves open; where the choice first matters
    # in copied plans; variants that are sets or questions
    "d_qa_off_point": dict(  # the tasks differ by "warm"; the question asks about washing, which neither says
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        unambiguous_direct="Pour the warm oat milk into the glass mug.",
        ambiguous_task="Pour the oat milk into the glass mug.",
        question="Should I wash the glass mug first?",
        answer="Yes, wash it first.",
        user_intent="wash",
        variants="",
        plan_for_clear_task=["Pick up the glass mug.", "Pour the warm oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug."],
        end_of_ambiguity="1",
        expect_warnings="qa_off_point",  # a suspicion since the seventeenth round: often the pair's defect
    ),
    "fa_qa_on_point": dict(  # the same pair, asked about what it leaves open: the clear task says the answer
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        unambiguous_direct="Pour the warm oat milk into the glass mug.",
        ambiguous_task="Pour the oat milk into the glass mug.",
        question="Should the oat milk be warm or cold?",
        answer="Warm, please.",
        user_intent="warm",
        variants="",
        plan_for_clear_task=["Pick up the glass mug.", "Pour the warm oat milk into the glass mug."],
        plan_for_amb_task=["Pick up the glass mug.", "Pour the oat milk into the glass mug."],
        end_of_ambiguity="1",
    ),
    "d_eoa_copied_fetched_before": dict(  # the mug is taken out at step 0, the index is 2
        plan_for_clear_task=[
            "Take out the oat milk and a mug.",
            "Open the oat milk.",
            "Pour the oat milk into the mug.",
        ],
        plan_for_amb_task=["Take out the oat milk and a mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        end_of_ambiguity="2",
        expect_errors="plan_divergence plan_mismatch end_of_ambiguity",
    ),
    "fa_eoa_copied_fetched_at": dict(  # the same plans, the index at the step that takes the mug out
        plan_for_clear_task=[
            "Take out the oat milk and a mug.",
            "Open the oat milk.",
            "Pour the oat milk into the mug.",
        ],
        plan_for_amb_task=["Take out the oat milk and a mug.", "Open the oat milk.", "Pour the oat milk into the mug."],
        end_of_ambiguity="0",
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_eoa_copied_choice_after": dict(  # nothing up to the index is about the mug; step 2 pours into "the chosen mug"
        plan_for_clear_task=["Open the oat milk.", "Warm the oat milk.", "Pour the oat milk into the chosen mug."],
        plan_for_amb_task=["Open the oat milk.", "Warm the oat milk.", "Pour the oat milk into the chosen mug."],
        end_of_ambiguity="1",
        expect_errors="plan_divergence plan_mismatch end_of_ambiguity",
    ),
    "d_eoa_copied_options_before": dict(  # step 0 offers the mugs side by side; the index is 1
        plan_for_clear_task=[
            "Pick up the glass mug or the ceramic mug.",
            "Open the oat milk.",
            "Pour it into the mug.",
        ],
        plan_for_amb_task=["Pick up the glass mug or the ceramic mug.", "Open the oat milk.", "Pour it into the mug."],
        end_of_ambiguity="1",
        expect_errors="plan_divergence end_of_ambiguity",
    ),
    "fa_eoa_copied_or_until": dict(  # "or until" offers no option
        plan_for_clear_task=["Warm the oat milk for a minute or until hot.", "Pick up a mug.", "Pour it into the mug."],
        plan_for_amb_task=["Warm the oat milk for a minute or until hot.", "Pick up a mug.", "Pour it into the mug."],
        end_of_ambiguity="1",
        expect_errors="plan_divergence plan_mismatch",
    ),
    "d_variants_set_split": dict(  # the intended set (glass mug with oat milk) is in no one variant
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        question="What should I use?",
        answer="The glass mug and the oat milk.",
        user_intent="glass mug, oat milk",
        variants="Glass mug and whole milk\nCeramic mug and oat milk",
        expect_errors="variants",
    ),
    "fa_variants_set_whole": dict(  # one variant holds the intended set
        ambiguity_type="common_sense_knowledge",
        amb_shortlist="",
        question="What should I use?",
        answer="The glass mug and the oat milk.",
        user_intent="glass mug, oat milk",
        variants="Glass mug and oat milk\nCeramic mug and whole milk",
    ),
    "d_variants_questions": dict(  # the variants ask instead of answering
        variants="Should I use the glass mug?\nShould I use the ceramic mug?",
        expect_errors="variants",
    ),
}


def numbered(steps):
    if isinstance(steps, str):  # a cell as published, numbering and all
        return steps
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
