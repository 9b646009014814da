"""Stand-ins for what cannot be reached from a test machine: a local OpenAI/Mistral-compatible server."""
