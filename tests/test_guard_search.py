"""The guard's fast search for secret runs (reportgen/guard_search.py) finds what the
slow reference finds: `runs(text) & secret_runs` over the words of the whole text
(entities decoded first, as `scan_file` does), for texts that hide runs of secret words
behind markup, entities, line breaks, fullwidth letters, other cases, decomposed
accents, ligatures and direction marks. The scanner keeps what it learnt of each line
between texts, so the tests reuse one index across all their examples."""

from __future__ import annotations

import html
import random
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen import guard_search
from reportgen.guard import RUN_LENGTH, GuardMaterial, SecretIndex, runs
from reportgen.guard_search import Prefixes, present

# Secret words that NFKC or casefold change (a ligature, ß, a final sigma, accents).
_WORDS = ("ação", "Café", "ﬁm", "straße", "ΟΔΟΣ", "x1", "n", "é")
_RNG = random.Random(7)
_SECRETS = tuple((f"s{i}", " ".join(_RNG.choice(_WORDS) for _ in range(24))) for i in range(3))
# A public text shares a passage with a secret one: those runs are not secret.
_PUBLIC = (" ".join(_SECRETS[0][1].split()[4:14]),)
_INDEX = SecretIndex.from_material(
    [GuardMaterial("r", _SECRETS, public_texts=_PUBLIC, canaries=(), names=())]
)

_SEPARATORS = (
    " ", "\n", "\r\n", "<b>", "</td>\n  <td class=\"x\">", "&nbsp;", "&amp;", "&#10;", "\n\n",
    "-", "_", "\u200f", "\u202e", "\u2028", "\t", "&", "#", ";", "&#", "\u0301", "\n\u0301",
)  # fmt: skip
_NOISE = ("other", "div", "0,5", "1", "ΟΔΟς", "cafe", "&eacute;", "&#231;", "ç", "\u0327")


def _fullwidth(word: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in word)


def _entities(word: str) -> str:
    return "".join(f"&#{ord(c)};" for c in word)


_FORMS = (
    lambda w: w,
    str.upper,
    str.casefold,
    lambda w: unicodedata.normalize("NFD", w),
    _fullwidth,
    _entities,
    lambda w: html.escape(w).replace("é", "&eacute;").replace("ç", "&ccedil;"),
)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    """Noise and secret passages (each word in some form), joined by separators."""
    pieces: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        pieces += draw(st.lists(st.sampled_from(_NOISE + _WORDS), max_size=6))
        source = draw(st.sampled_from(_SECRETS))[1].split()
        start = draw(st.integers(0, len(source) - 1))
        passage = source[start : start + draw(st.integers(0, RUN_LENGTH + 4))]
        pieces += [draw(st.sampled_from(_FORMS))(word) for word in passage]
    return "".join(piece + draw(st.sampled_from(_SEPARATORS)) for piece in pieces)


def _reference(text: str, *, decode: bool) -> set[str]:
    return runs(html.unescape(text) if decode else text) & _INDEX.secret_runs


@settings(max_examples=400)
@given(_texts(), st.booleans(), st.booleans())
def test_the_runs_found_are_those_the_slow_search_finds(
    text: str, decode: bool, by_lines: bool
) -> None:
    found = _INDEX.run_scanner.leaked(text, decode=decode, by_lines=by_lines)
    assert found == _reference(text, decode=decode)


@settings(max_examples=200)
@given(st.lists(_texts(), min_size=1, max_size=4))
def test_lines_learnt_from_other_texts_change_nothing(texts: list[str]) -> None:
    # Pages that share lines (a frame around different content), scanned in a row.
    frame = "<nav>\nação café\n</nav>\n"
    for text in texts:
        page = frame + text + "\n" + frame
        assert _INDEX.run_scanner.leaked(page, decode=True) == _reference(page, decode=True)


def test_a_run_split_across_lines_markup_and_entities_is_found() -> None:
    words = _SECRETS[1][1].split()[:RUN_LENGTH]
    # Tags are words too ("span" would end the run): only punctuation between these.
    text = "<p>\n" + "&nbsp;<!--\n-->".join(_entities(w) for w in words[:3])
    text += "\n\n" + " ".join(_fullwidth(w).upper() for w in words[3:]) + "\n</p>"
    expected = " ".join(unicodedata.normalize("NFKC", w).casefold() for w in words)
    assert expected in _INDEX.secret_runs
    assert _INDEX.run_scanner.leaked(text, decode=True) == {expected}


def test_a_full_store_of_lines_is_emptied_and_the_answers_stay_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guard_search, "_KEPT_LINES", 3)
    index = SecretIndex.from_material(
        [GuardMaterial("r", _SECRETS, public_texts=_PUBLIC, canaries=(), names=())]
    )
    rng = random.Random(3)
    for _ in range(100):
        words = [rng.choice(_WORDS + _NOISE) for _ in range(rng.randint(0, 40))]
        text = "".join(w + rng.choice(_SEPARATORS) for w in words)
        assert index.run_scanner.leaked(text, decode=True) == _reference(text, decode=True)
        assert len(index.run_scanner._lines[True]) <= 3


# Many canaries' prefixes are looked for with one pattern, a few one by one: the same.
_CANARY = st.text(alphabet="aAbB-ｂx", min_size=1, max_size=5)


@given(st.text(alphabet="aAbB-ｂx&;", max_size=60), st.sets(_CANARY, max_size=30))
def test_the_strings_present_are_those_in_the_text(text: str, wanted: set[str]) -> None:
    prefixes = Prefixes.of(wanted)
    lengths = sorted({len(s) for s in wanted})
    assert present(text, prefixes, lengths, wanted) == {s for s in wanted if s in text}
