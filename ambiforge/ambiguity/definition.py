"""What an ambiguity type is, as data: one ``definition.yaml`` per type folder.

A type is everything the pipeline must know about one way a task can be ambiguous: how annotators and the
card describe it, what a good agent does about it (ask, or act on common knowledge), whether it has a
shortlist, how the minimal-pair rule judges its rewrite, and the wording that steers an LLM towards it.
Offline templates (``templates.yaml``) and, for a type registered from outside the package, its prompts
(``prompts/``) sit in the same folder, so adding a type is adding a folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: A type's name becomes a column value, a file name and a Label Studio choice value.
NAME_PATTERN = r"^[a-z][a-z0-9_]{1,47}$"


class AmbiguityType(BaseModel):
    """One ambiguity type (``definition.yaml``); ``folder`` is where its files live."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=NAME_PATTERN, description="identifier stored in items ('preferences')")
    label: str = Field(min_length=1, description="human name for annotators and the card ('Preferences')")
    description: str = Field(min_length=1, description="what makes a task of this type ambiguous; shown to annotators")
    good_agent: Literal["ask", "act"] = Field(
        description="what a good agent does on the ambiguous task: ask the user, or act on common knowledge"
    )
    has_shortlist: bool = Field(
        default=False, description="items list the >= 2 scene objects the user chooses between (amb_shortlist)"
    )
    minimal_pair: Literal["drop_distinguishing_word", "rewrite", "same_instruction"] = Field(
        default="rewrite",
        description="drop_distinguishing_word: the ambiguous task must no longer contain the intent's words; "
        "rewrite: only the edit ratio is checked; same_instruction: the two tasks are one sentence and the "
        "kitchens differ (environment-induced types: world.perturbation)",
    )
    level: Literal["instruction", "environment"] = Field(
        default="instruction",
        description="where the ambiguity lives: in the words (instruction; AmbiK's types, the release's default "
        "configuration) or in the kitchen (environment; released as the 'environment' configuration)",
    )
    order: int = Field(
        default=1000, description="where the type sorts among the types (AmbiK's three: 1, 2, 3; ties: registration)"
    )
    default_share: float = Field(default=0.0, ge=0, le=1, description="share in the default type mix")
    llm_steering: str = Field(
        default="",
        description="sentence added to the unambiguous-task prompt so that the task can be made ambiguous this way",
    )
    example: str = Field(default="", description="a one-line example for the card and the guidelines")
    folder: Path = Field(description="the type's folder (definition.yaml, templates.yaml, prompts/)")

    @property
    def variant_prompt_id(self) -> str:
        """The LLM prompt that writes this type's ambiguous variant: ``prompts/ambiguous_<name>.yaml``."""
        return f"ambiguous_{self.name}"

    @property
    def templates_path(self) -> Path:
        return self.folder / "templates.yaml"

    @property
    def prompts_dir(self) -> Path:
        """Prompts shipped with the type (types registered from outside the package); built-in types keep
        theirs in the top-level ``prompts/``."""
        return self.folder / "prompts"
