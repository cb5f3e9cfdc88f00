"""How hard a password is to guess, estimated by zxcvbn, and the reason for a refusal.

zxcvbn scores a password from 0 to 4 by the guesses its cheapest decomposition into
dictionary words, keyboard walks, repeats, sequences and dates would need. The policy asks
for MIN_PASSWORD_SCORE = 3 ("safely unguessable", under 10^10 guesses rejected): the
hashes are argon2id and logins are throttled, so 10^10 guesses are out of reach online
and costly offline, while a score of 4 would refuse many passphrases people can remember.

The account's name (whole and its parts of 3 or more letters) and the app's own words are
passed as zxcvbn's user inputs, so that a password built on them ("ana-souzaana-souza")
counts as easy to guess. zxcvbn 4 prices a separator it cannot match as brute force, which
lets "reportgen-review" or "Carolina.Souza.1990" score 3; so what is left once those words
are taken out must score 3 by itself, or the password is refused as built on them.
The refusal names what zxcvbn found, in our catalogue's words and the reader's language.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from zxcvbn import zxcvbn

from review_app.core.errors import ReviewInputError

MIN_PASSWORD_SCORE = 3
# zxcvbn refuses longer input; the first 72 characters of a strong password are strong.
_ESTIMATED_CHARS = 72
# Words anyone guessing a password of this app would try first.
APP_WORDS = ("reportgen", "review", "estigmas", "revisao", "revisão")
_NAME_PARTS = re.compile(r"[\W_]+")
_MIN_NAME_PIECE = 3
# zxcvbn keeps the user inputs in a module-level dictionary it replaces on every call;
# Streamlit serves sessions from threads, so two estimates must not interleave.
_ESTIMATE_LOCK = threading.Lock()

# zxcvbn's English warnings (its feedback), each mapped to the catalogue key that says
# the same in our words; a warning not listed here gets the generic sentence.
_WARNING_KEYS: Mapping[str, str] = {
    "Straight rows of keys are easy to guess.": "error_password_weak_keyboard",
    "Short keyboard patterns are easy to guess.": "error_password_weak_keyboard",
    'Repeats like "aaa" are easy to guess.': "error_password_weak_repeat",
    'Repeats like "abcabcabc" are only slightly harder to guess than "abc".': (
        "error_password_weak_repeat"
    ),
    'Sequences like "abc" or "6543" are easy to guess.': "error_password_weak_sequence",
    "Recent years are easy to guess.": "error_password_weak_date",
    "Dates are often easy to guess.": "error_password_weak_date",
    "This is a top-10 common password.": "error_password_weak_common",
    "This is a top-100 common password.": "error_password_weak_common",
    "This is a very common password.": "error_password_weak_common",
    "This is similar to a commonly used password.": "error_password_weak_common",
    "A word by itself is easy to guess.": "error_password_weak_word",
    "Names and surnames by themselves are easy to guess.": "error_password_weak_names",
    "Common names and surnames are easy to guess.": "error_password_weak_names",
}
GENERIC_WEAK_KEY = "error_password_weak"
PERSONAL_WEAK_KEY = "error_password_weak_personal"


def refuse_weak_password(password: str, name: str) -> None:
    """Refuse a password zxcvbn scores under MIN_PASSWORD_SCORE, saying what makes it weak."""
    user_inputs = _user_inputs(name)
    estimate = _estimate(password, user_inputs)
    if estimate["score"] < MIN_PASSWORD_SCORE:
        if any(match.get("dictionary_name") == "user_inputs" for match in _matches(estimate)):
            raise ReviewInputError(PERSONAL_WEAK_KEY)
        warning = str(estimate.get("feedback", {}).get("warning", ""))
        raise ReviewInputError(_WARNING_KEYS.get(warning, GENERIC_WEAK_KEY))
    rest = _without_words(password, user_inputs)
    if rest != password and _estimate(rest, user_inputs)["score"] < MIN_PASSWORD_SCORE:
        raise ReviewInputError(PERSONAL_WEAK_KEY)


def weakness_keys() -> frozenset[str]:
    """Every catalogue key a weak password can be refused with (the catalogues hold each)."""
    return frozenset({GENERIC_WEAK_KEY, PERSONAL_WEAK_KEY, *_WARNING_KEYS.values()})


def _user_inputs(name: str) -> list[str]:
    # Shorter pieces would strip ordinary letters out of any password.
    pieces = [name.casefold(), *_NAME_PARTS.split(name.casefold())]
    return [*APP_WORDS, *(piece for piece in pieces if len(piece) >= _MIN_NAME_PIECE)]


def _without_words(password: str, words: list[str]) -> str:
    """`password` with every occurrence of `words` taken out (any case, longest first)."""
    alternatives = "|".join(re.escape(word) for word in sorted(set(words), key=len, reverse=True))
    return re.sub(alternatives, "", password, flags=re.IGNORECASE) if alternatives else password


def _estimate(password: str, user_inputs: list[str]) -> dict[str, Any]:
    with _ESTIMATE_LOCK:
        result: dict[str, Any] = zxcvbn(password[:_ESTIMATED_CHARS], user_inputs=user_inputs)
    return result


def _matches(estimate: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The matches of the decomposition, and those a repeat is made of."""
    pending: list[Mapping[str, Any]] = list(estimate.get("sequence", []))
    while pending:
        match = pending.pop()
        yield match
        pending.extend(match.get("base_matches", []))
