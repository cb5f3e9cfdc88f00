"""Anonymisation: opaque sample codes and removal of self-identification.

A model that names itself ("As an AI developed by ...") would unblind its
reviewers, so every model, provider and company name is replaced by a neutral
marker before a text is stored where a reviewer can read it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable

from reportgen.model import Model

MARKER = "[SISTEMA]"
CODE_PREFIX = "SISTEMA"
# No 0/O or 1/I/L: a reviewer may copy a code by hand into a contestation.
_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

# Names of common models and of the companies behind them, beyond those of the round.
# Matched case-sensitively: several are also ordinary words in lower case ("meta" and
# "nova" in Portuguese). Ambiguous short names (Pi, Yi, Phi, o1) are left out here; the
# round's own names are always matched, in any case.
COMMON_NAMES: tuple[str, ...] = (
    "OpenAI", "ChatGPT", "GPT", "GPT-3", "GPT-3.5", "GPT-4", "GPT-4o", "GPT-5",
    "Anthropic", "Claude", "Google", "Google DeepMind", "DeepMind", "Gemini", "Gemma", "Bard",
    "PaLM", "Meta", "Meta AI", "Llama", "LLaMA", "Mistral", "Mistral AI", "Mixtral",
    "Microsoft", "Copilot", "Alibaba", "Qwen", "Tongyi", "DeepSeek", "xAI", "Grok",
    "Cohere", "Command R", "Maritaca", "Maritaca AI", "Sabiá", "Sabia", "Amazon Nova",
    "Falcon", "AI21", "Jamba", "01.AI", "Zhipu", "ChatGLM", "Moonshot", "Kimi", "Baidu",
    "ERNIE", "IBM", "Nemotron", "Perplexity", "Inflection", "Reka", "DBRX", "Hugging Face",
)  # fmt: skip

# Self-descriptions that name the maker; the whole phrase's maker part is replaced.
# Only after a self-reference in the same sentence ("an AI ... developed by"), so that
# "um estereótipo criado pela sociedade" keeps its meaning.
_SELF_DESCRIPTION = re.compile(
    r"(?P<lead>(?i:\b(?:AI|IA|assistant|assistente|model|modelo|chatbot|LLM)\b[^.!?\n]{0,60}?"
    r"\b(?:developed|created|trained|made|built)\s+by|"
    r"\b(?:AI|IA|assistant|assistente|model|modelo|chatbot|LLM)\b[^.!?\n]{0,60}?"
    r"\b(?:desenvolvid[oa]|criad[oa]|treinad[oa]|feit[oa]|construíd[oa])\s+(?:pel[oa]s?|por)))"
    # The maker: one word, then any further capitalised words ("Google DeepMind").
    r"\s+(?P<maker>[^\s.,;:!?()]+(?:\s+[A-Z][^\s.,;:!?()]*)*)"
)


def round_names(models: Iterable[Model]) -> tuple[str, ...]:
    """Every name of the round's models and providers that could unblind a sample."""
    names: set[str] = set()
    for model in models:
        for value in (model.model_id, model.display_name, model.provider, model.api_identifier):
            value = value.strip()
            if value:
                names.add(value)
                # "openai/gpt-4o" and "org:model" identifiers: each part may appear alone.
                names.update(p for p in re.split(r"[/:@]", value) if len(p) >= 2)
        if model.snapshot.strip():
            names.add(model.snapshot.strip())
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


class Scrubber:
    """Replaces self-identification and the given names by MARKER."""

    def __init__(self, names: Iterable[str], common_names: Iterable[str] = COMMON_NAMES) -> None:
        self._round = _whole_words(names, re.IGNORECASE)
        self._common = _whole_words(common_names, 0)

    def __call__(self, text: str) -> str:
        text = _SELF_DESCRIPTION.sub(lambda m: f"{m.group('lead')} {MARKER}", text)
        if self._round is not None:
            text = self._round.sub(MARKER, text)
        if self._common is not None:
            text = self._common.sub(MARKER, text)
        return text


def _whole_words(names: Iterable[str], flags: int) -> re.Pattern[str] | None:
    ordered = sorted({n for n in names if n}, key=lambda n: (-len(n), n))
    if not ordered:
        return None
    alternatives = "|".join(re.escape(n) for n in ordered)
    # Not preceded or followed by a word character, so "Gemini" stays out of "Geminiano"
    # while "gpt-4o-mini" (a hyphenated name) still matches as a whole.
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w])", flags)


def new_code() -> str:
    """An opaque sample code drawn from the OS's randomness, independent of the sample."""
    token = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
    return f"{CODE_PREFIX}-{token}"
