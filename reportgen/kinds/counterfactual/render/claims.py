"""The words a counterfactual report never uses as a result (report spec, "Never on the
site"): "fair", "unbiased", "sem viés", "certificado", "justo" and their close forms.

The check reads a page's text as words (`guard.words`: NFKC, casefold, letters and
digits) and looks for each forbidden word sequence. Sentences that deny the claim are
allowed verbatim: the fixed limitations text says that finding no difference "does not
prove the system is fair" / "não prova que o sistema seja justo". The allowed sentences
are removed (as word sequences) before the search, so a claim elsewhere on the same page
is still found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from reportgen.guard import words

# Word sequences that claim a result; each is matched as whole words.
FORBIDDEN: tuple[tuple[str, ...], ...] = (
    ("fair",),
    ("fairly",),
    ("unbiased",),
    ("bias", "free"),
    ("sem", "viés"),
    ("sem", "vies"),
    ("isento", "de", "viés"),
    ("certificado",),
    ("certificada",),
    ("certified",),
    ("justo",),
    ("justa",),
    ("imparcial",),
)


def _remove(tokens: list[str], sentence: Sequence[str]) -> list[str]:
    """`tokens` with every occurrence of the word sequence `sentence` replaced by a gap."""
    if not sentence:
        return tokens
    kept: list[str] = []
    i, width = 0, len(sentence)
    while i < len(tokens):
        if tokens[i : i + width] == list(sentence):
            kept.append("\u2026")  # a gap, so that no sequence joins across the cut
            i += width
        else:
            kept.append(tokens[i])
            i += 1
    return kept


def forbidden_claims(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The forbidden word sequences found in `text` once the `allowed` sentences are cut
    out (each found once, in FORBIDDEN's order)."""
    tokens = words(text)
    for sentence in allowed:
        tokens = _remove(tokens, words(sentence))
    found = []
    for claim in FORBIDDEN:
        width = len(claim)
        if any(tuple(tokens[i : i + width]) == claim for i in range(len(tokens) - width + 1)):
            found.append(" ".join(claim))
    return found
