"""What a scripted server's responder may return besides text. Its own module so that the responders
(:mod:`.scripted_eval`) and the server (:mod:`.llm_server`, whose command line picks a responder) import it
without importing each other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScriptedReply:
    """A responder's reply with more than text: its finish reason and, optionally, its tokens'
    log-probabilities as ``[(token, logprob, [(alternative, logprob), ...]), ...]`` and the functions it
    calls as ``[(id, name, arguments as JSON text), ...]`` (sent as the message's ``tool_calls``)."""

    content: str
    finish_reason: str = "stop"
    logprobs: list[tuple[str, float, list[tuple[str, float]]]] | None = None
    tool_calls: list[tuple[str, str, str]] | None = None
