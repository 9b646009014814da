"""Chat-completion providers behind one small interface: a request in, the reply's text (and, when asked,
samples and token log-probabilities) out. One module per provider, found through :mod:`.registry`
(entry-point group ``ambiforge.providers``).

Each wraps its official SDK with the SDK's own retries switched off: retries, backoff and rate limits are
ambiforge's (:mod:`ambiforge.llm.client`), so every attempt is counted, limited across workers and
recorded. SDK errors are sorted into transient (429, 5xx, timeouts, lost connections: worth retrying),
unsupported (the server refuses a response format: fall back, never retry) and permanent (bad key, bad
request: not).
"""

from ambiforge.config.providers import PROVIDERS, ProviderSpec, get, names, register, specs
from ambiforge.llm.providers.base import (
    ChatReply,
    ChatRequest,
    Choice,
    Message,
    PermanentError,
    Provider,
    TokenLogprob,
    ToolCall,
    TransientError,
    UnsupportedRequest,
    classify_status,
    message_dict,
    retry_after,
)

__all__ = [
    "ChatReply",
    "ChatRequest",
    "Choice",
    "Message",
    "PROVIDERS",
    "PermanentError",
    "Provider",
    "ProviderSpec",
    "TokenLogprob",
    "ToolCall",
    "TransientError",
    "UnsupportedRequest",
    "classify_status",
    "get",
    "message_dict",
    "names",
    "register",
    "retry_after",
    "specs",
]
