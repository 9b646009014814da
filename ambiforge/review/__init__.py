"""Human review in Label Studio: push items (labeling config generated from the ambiguity type registry,
guidelines as the project's instructions), pull annotations under stable pseudonyms, agreement statistics,
and adjudication of three annotators per item with the maintainer's queue.

Open-source Label Studio stores annotations but not agreement or adjudication, so both are computed here.
"""
