"""The password policy's strength estimate (issue 23, point 11): zxcvbn with the account's
name and the app's words as easy guesses, and refusals that say what is wrong."""

from __future__ import annotations

import secrets

import pytest

from review_app.core.auth import generate_password
from review_app.core.credentials import check_password
from review_app.core.errors import ReviewInputError
from review_app.core.password_strength import weakness_keys
from review_app.i18n import CATALOGUES
from tests.review.helpers import PASSWORD

NAME = "carolina-souza"
# Ordinary words for the random passphrase (written here; not from any list).
_WORD_TEXT = (
    "ferrugem tamarindo bussola crepusculo lanterna goiaba veleiro cascalho "
    "orvalho pimenta mandacaru jangada arquipelago serrote pitanga granito "
    "carimbo alvorada marmita cachoeira"
)
WORDS = _WORD_TEXT.split()


@pytest.mark.parametrize(
    ("password", "name", "reason"),
    [
        ("qwertyuiopas", NAME, "a password many people use"),
        ("aaaaaaaaaaab", NAME, "repeats a character, a word or a group"),
        ("carolina-souzacarolina-souza", NAME, "the account's name or on the app's name"),
        ("bruno.lima.bruno.lima", "Bruno.Lima", "the account's name or on the app's name"),
        ("Carolina.Souza.1990", NAME, "the account's name or on the app's name"),
        ("reportgen-review", NAME, "the account's name or on the app's name"),
        ("estigmas2026revisao", NAME, "the account's name or on the app's name"),
        ("abcdefghijklmnop", NAME, "a run such as abc or 6543"),
        ("asdfghjkl;zxcvb", NAME, "a row or a pattern of keyboard keys"),
    ],
)
def test_easy_passwords_are_refused_with_the_reason(password: str, name: str, reason: str) -> None:
    with pytest.raises(ReviewInputError, match="too easy to guess") as refused:
        check_password(password, name)
    assert reason in str(refused.value)
    # The same reason in Portuguese, from the catalogue, not zxcvbn's English.
    assert "fácil demais de adivinhar" in refused.value.message("pt-BR")


def test_the_name_repeated_passes_only_because_of_the_name() -> None:
    # Another account may use it: what makes it weak is whose name it is.
    check_password("carolina-souzacarolina-souza", "tiago")


def test_a_long_random_passphrase_passes() -> None:
    for _ in range(20):
        passphrase = " ".join(secrets.choice(WORDS) for _ in range(5))
        check_password(passphrase, NAME)
    check_password("Ipê-amarelo floresce em agosto", NAME)
    # A passphrase may hold an app word as long as the rest is strong on its own.
    check_password("review the purple elephant kindly", NAME)


def test_the_shared_test_password_passes() -> None:
    for name in ("ana", "admin", "bruno", "carla", "emma", "h1", "chefe", NAME):
        check_password(PASSWORD, name)


def test_generated_passwords_pass_the_policy() -> None:
    for name in ("ana", NAME, ""):
        for _ in range(50):
            check_password(generate_password(name), name)


def test_a_password_past_the_estimators_limit_is_judged_by_its_start() -> None:
    check_password(secrets.token_urlsafe(96), NAME)
    with pytest.raises(ReviewInputError, match="too easy to guess"):
        check_password("ab" * 60, NAME)


def test_every_reason_is_in_both_catalogues() -> None:
    for catalogue in CATALOGUES.values():
        assert weakness_keys() <= set(catalogue)
