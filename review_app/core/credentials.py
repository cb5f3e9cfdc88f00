"""What an account's name and password may be: normalised names, a password policy and
the refusal of control characters in anything a person types.

Names are compared by their key (NFKC, case-folded), so that "R1" and "r1", or "José"
typed with a combining accent and "José" precomposed, are one account. A password must
have at least 12 characters, more than one distinct character, differ from the name, be
absent from the shipped list of common passwords (data/common_passwords.json) and score
at least 3 of 4 in zxcvbn's estimate, with the name and the app's words counted as easy
guesses (review_app.core.password_strength).
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from functools import cache
from importlib.resources import files

from review_app.core.errors import ReviewInputError
from review_app.core.password_strength import refuse_weak_password

MIN_PASSWORD_CHARS = 12
MAX_NAME_CHARS = 80
_COMMON_PASSWORDS_FILE = "common_passwords.json"
# C0 and C1 controls and DEL; tab and line breaks are allowed in multi-line text only.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_CONTROL = re.compile(r"[\t\n\r]")
# Digits, punctuation and spaces around a password's core ("Senha@2026!" -> "senha").
_DECORATION = string.digits + string.punctuation + string.whitespace


def refuse_control_characters(text: str, *, multiline: bool = False) -> str:
    """`text` unchanged, or a clear refusal when it holds NUL or another control character."""
    if _CONTROL.search(text) or (not multiline and _LINE_CONTROL.search(text)):
        raise ReviewInputError("error_control_character")
    return text


def name_key(name: str) -> str:
    """The form under which names are compared: NFKC, case-folded, NFKC again."""
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return unicodedata.normalize("NFKC", folded)


def account_name(name: str) -> tuple[str, str]:
    """The name as stored (NFKC, trimmed) and its key; refuses empty, long or invisible text."""
    refuse_control_characters(name)
    shown = unicodedata.normalize("NFKC", name).strip()
    if not shown or len(shown) > MAX_NAME_CHARS or len(name_key(shown)) > MAX_NAME_CHARS:
        raise ReviewInputError("error_account_name")
    # Format characters (zero-width, bidirectional) would let two names look alike.
    if any(unicodedata.category(character) == "Cf" for character in shown):
        raise ReviewInputError("error_control_character")
    return shown, name_key(shown)


def check_password(password: str, name: str) -> None:
    """Refuse a password the policy forbids (one reason, in the reader's language)."""
    refuse_control_characters(password)
    if len(password) < MIN_PASSWORD_CHARS:
        raise ReviewInputError("error_password_short", minimum=MIN_PASSWORD_CHARS)
    if len(set(password)) == 1:
        raise ReviewInputError("error_password_repeated")
    folded, key = name_key(password), name_key(name)
    if folded == key or (_core(key) and _core(folded) == _core(key)):
        raise ReviewInputError("error_password_name")
    common = common_passwords()
    if folded in common or _core(folded) in common:
        raise ReviewInputError("error_password_common")
    refuse_weak_password(password, name)


def _core(folded: str) -> str:
    return folded.strip(_DECORATION)


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords, case-folded."""
    text = files("review_app").joinpath("data", _COMMON_PASSWORDS_FILE).read_text("utf-8")
    return frozenset(name_key(entry) for entry in json.loads(text)["passwords"])
