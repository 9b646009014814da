"""LLM generation: the steps of a pair as prompts to OpenAI/Mistral models, with candidate selection."""

from ambiforge.generation.llm.generator import LLMGenerator

__all__ = ["LLMGenerator"]
