"""The reviewing guidelines, one Markdown file per language (written for this project)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from review_app.i18n import DEFAULT_LANGUAGE, LANGUAGES


@cache
def guidelines_text(language: str) -> str:
    chosen = language if language in LANGUAGES else DEFAULT_LANGUAGE
    return resources.files(__name__).joinpath(f"{chosen}.md").read_text(encoding="utf-8")
