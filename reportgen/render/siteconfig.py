"""The article's metadata (`site.yml` at the repository root), validated.

Titles, authors, DOI and links, and the contestation contact come from this
file, never from code. Every problem names the file and the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from reportgen.errors import InputError
from reportgen.i18n import SITE_LANGUAGES


@dataclass(frozen=True)
class SiteConfig:
    site_url: str
    primary_round: str | None
    title: Mapping[str, str]
    short_title: Mapping[str, str]
    authors: tuple[str, ...]
    doi: str
    article_url: str
    repository_url: str
    license: str
    contest_contact: str
    contest_window_days: int
    contest_reply_days: int
    audit_exports_dir: Path
    region_max_bias: float
    region_max_omission: float

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "site_url": self.site_url,
            "title": dict(self.title),
            "authors": list(self.authors),
            "doi": self.doi,
            "article_url": self.article_url,
            "repository_url": self.repository_url,
            "license": self.license,
            "contest_contact": self.contest_contact,
            "contest_window_days": self.contest_window_days,
            "contest_reply_days": self.contest_reply_days,
        }


def _get(data: Mapping[str, Any], dotted: str, kind: type, source: str) -> Any:
    value: Any = data
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise InputError(f"{source}: missing key {dotted!r}")
        value = value[part]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InputError(f"{source}: key {dotted!r} must be a {kind.__name__}, got {value!r}")
    return value


# An absolute web address with none of the characters that could end a Markdown link or an
# HTML attribute early: config links are published as they are.
_URL = re.compile(r"https?://[A-Za-z0-9._~:/?#\[\]@!$&*+,;=%-]+")


def _url(data: Mapping[str, Any], dotted: str, source: str) -> str:
    value: str = _get(data, dotted, str, source)
    if not _URL.fullmatch(value):
        raise InputError(
            f"{source}: key {dotted!r} must be an absolute http(s) address without spaces,"
            f" quotes, angle brackets or parentheses, got {value!r}"
        )
    return value


def _by_language(data: Mapping[str, Any], dotted: str, source: str) -> dict[str, str]:
    value = _get(data, dotted, dict, source)
    result: dict[str, str] = {}
    for language in SITE_LANGUAGES:
        text = value.get(language)
        if not isinstance(text, str) or not text.strip():
            raise InputError(f"{source}: key {dotted}.{language} must be a non-empty string")
        result[language] = text
    return result


def _rate(data: Mapping[str, Any], dotted: str, source: str) -> float:
    value = _get(data, dotted, object, source)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise InputError(f"{source}: key {dotted!r} must be a rate in (0, 1], got {value!r}")
    return float(value)


def load_site_config(path: Path) -> SiteConfig:
    """Read and validate `site.yml`; raises InputError naming the file and key."""
    source = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{source}: site configuration file not found") from None
    except yaml.YAMLError as error:
        raise InputError(f"{source}: not valid YAML ({error})") from None
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a mapping at the top level")
    authors = _get(data, "article.authors", list, source)
    if not authors or not all(isinstance(a, str) and a.strip() for a in authors):
        raise InputError(f"{source}: key 'article.authors' must be a non-empty list of names")
    primary = data.get("primary_round")
    if primary is not None and not isinstance(primary, str):
        raise InputError(f"{source}: key 'primary_round' must be a round id or null")
    window = _get(data, "contestations.window_days", int, source)
    reply = _get(data, "contestations.reply_days", int, source)
    if window <= 0 or reply <= 0:
        raise InputError(f"{source}: contestation windows must be positive numbers of days")
    exports = Path(_get(data, "audit.exports_dir", str, source))
    region = [_rate(data, key, source) for key in ("figure1.max_bias", "figure1.max_omission")]
    return SiteConfig(
        site_url=_url(data, "site_url", source),
        primary_round=primary,
        title=_by_language(data, "article.title", source),
        short_title=_by_language(data, "article.short_title", source),
        authors=tuple(authors),
        doi=_get(data, "article.doi", str, source),
        article_url=_url(data, "article.article_url", source),
        repository_url=_url(data, "article.repository_url", source),
        license=_get(data, "article.license", str, source),
        contest_contact=_get(data, "contestations.contact", str, source),
        contest_window_days=window,
        contest_reply_days=reply,
        audit_exports_dir=exports if exports.is_absolute() else path.parent / exports,
        region_max_bias=region[0],
        region_max_omission=region[1],
    )
