"""The check a schema-valid reply must also pass before it is accepted: no placeholder, no copied example,
no empty text, no echo of the prompt.

Small models copy what they see: asked ``Reply as {"task": "..."}`` they answer ``{"task": "..."}``, which
is valid against any schema that only asks for a string. Such replies are repaired with the error below,
like a schema error, and fail the step when repairs run out: a pair is never completed with a placeholder.
A phrase is only a copied example when the scene and task of the request do not contain it themselves
(``the wooden spatula`` is fine in a kitchen that has one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

#: Whole values that stand for an answer rather than being one.
PLACEHOLDER_WORDS = frozenset(
    {
        "string",
        "str",
        "text",
        "value",
        "todo",
        "tbd",
        "xxx",
        "placeholder",
        "example",
        "lorem ipsum",
        "your answer",
        "your answer here",
        "insert text here",
        "n/a",
    }
)
_ELLIPSIS = re.compile(r"\.\.\.|…")
_ANGLE = re.compile(r"<[^<>]{0,40}>")
_LETTERS = re.compile(r"[^\W_]")
_LABEL = re.compile(r"^([A-Z][A-Za-z ,()-]{2,60}):", re.MULTILINE)
_ARTICLES = frozenset({"a", "an", "the", "some", "any"})
_MIN_ECHO_WORDS = 5
_ECHO_RUN = 6  # this many words in a row from the instructions (not from the data) is an echo


def normalize(text: str) -> str:
    """Lower case, underscores as spaces, punctuation dropped, white space collapsed."""
    text = text.lower().replace("_", " ")
    return " ".join(re.sub(r"[^\w\s|-]", " ", text).split())


def strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a reply with its JSON path (``plan/2``)."""
    if isinstance(value, str):
        yield path or "(top level)", value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, f"{path}/{key}" if path else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings(item, f"{path}/{i}" if path else str(i))


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _schema_keys(schema: dict[str, Any]) -> Iterator[str]:
    for key, sub in (schema.get("properties") or {}).items():
        yield key
        if isinstance(sub, dict):
            yield from _schema_keys(sub)
            if isinstance(sub.get("items"), dict):
                yield from _schema_keys(sub["items"])


def placeholder(text: str) -> str | None:
    """Why ``text`` is a placeholder, or None."""
    stripped = text.strip()
    if not stripped:
        return "is empty"
    if _ELLIPSIS.search(stripped):
        return "contains an ellipsis (a placeholder such as '...'), not the actual text"
    if _ANGLE.search(stripped):
        return "contains a template marker such as '<...>', not the actual text"
    if not _LETTERS.search(stripped):
        return "has no words"
    if normalize(stripped) in PLACEHOLDER_WORDS:
        return f"is the placeholder {stripped!r}, not the actual text"
    return None


def _runs(text: str, n: int = _ECHO_RUN) -> set[tuple[str, ...]]:
    words = text.split()
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _grounded(example: str, data: str) -> bool:
    """Every word of the example but its articles occurs in the request's own data."""
    words = [w for w in normalize(example).split() if w not in _ARTICLES]
    data_words = set(data.split())
    return bool(words) and all(w in data_words for w in words)


def check_reply(
    value: Any,
    *,
    schema: dict[str, Any] | None = None,
    examples: Iterable[str] = (),
    data: Iterable[str] = (),
    instructions: str = "",
) -> str | None:
    """The first reason the reply cannot be used, or None.

    ``examples``: phrases the prompt shows as illustrations; ``data``: the request's variables (scene,
    task, plan...), whose words a reply may repeat; ``instructions``: the rendered prompt, which a reply
    must not echo beyond that data.
    """
    data_text = normalize(" ".join(data))
    key_names = {normalize(k) for k in _keys(value)} | {normalize(k) for k in _schema_keys(schema or {})}
    labels = {normalize(m) for m in _LABEL.findall(instructions)}
    prompt_text = normalize(instructions)
    echo_runs = _runs(prompt_text) - _runs(data_text)
    example_forms = [(e, normalize(e)) for e in examples if normalize(e) and not _grounded(e, data_text)]
    problems: list[str] = []
    for path, text in strings(value):
        why = placeholder(text)
        norm = normalize(text)
        if why is None and norm in key_names:
            why = f"is the key name {text.strip()!r}, not a value"
        if why is None:
            copied = next((e for e, form in example_forms if f" {form} " in f" {norm} "), None)
            if copied is not None:
                why = f"copies the prompt's example {copied!r}: write about the objects of this kitchen"
        if why is None:
            label = next((lb for lb in labels if lb and norm.startswith(lb + " ") and lb not in data_text), None)
            if label is not None:
                why = f"repeats the prompt's heading {label!r}"
        whole = len(norm.split()) >= _MIN_ECHO_WORDS and norm in prompt_text and norm not in data_text
        if why is None and (whole or not _runs(norm).isdisjoint(echo_runs)):
            why = "repeats the prompt's instructions instead of answering them"
        if why is not None:
            problems.append(f"{path}: {why}")
    if not problems:
        return None
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return "the reply is not an answer: " + "; ".join(problems[:3]) + more
