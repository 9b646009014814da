"""The offline provider: a deterministic template generator over the catalog, one module per ambiguity type.

It needs no key and no network, so a new user sees the whole pipeline; it is also the reference the LLM
path is compared against.
"""

from ambiforge.generation.offline.generator import OfflineGenerator

__all__ = ["OfflineGenerator"]
