"""Versioned releases: ``curated/<version>/`` written once, verified forever.

``writer.release`` is where a release is written; ``verify.verify_release`` re-checks one; ``changelog``
compares two.
"""
