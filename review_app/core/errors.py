"""Errors of the review app.

Each carries a message key of the catalogue (`review_app.i18n`) and its parameters,
so that the app shows it in the reader's language and the CLI in English.
"""

from __future__ import annotations

from reportgen.errors import InputError, ReportgenError
from review_app.i18n import translate


class ReviewError(ReportgenError):
    """Base of the review app's errors: a catalogue key plus its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(translate("en", key, **params))

    def message(self, language: str) -> str:
        return translate(language, self.key, **self.params)


class ReviewInputError(ReviewError, InputError):
    """Bad input: an empty or oversized note, an unknown sample, a closed window..."""


class AccessDenied(ReviewError):
    """The account's role does not allow the action, or the credentials are wrong."""


class SessionExpired(AccessDenied):
    """The login session is unknown, revoked or past its expiry."""
