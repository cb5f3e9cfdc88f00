"""The article's metadata (`site.yml` at the repository root), validated.

Titles, authors, DOI and links, and the contestation contact come from this
file, never from code. Every problem names the file and the key.

A value not known yet is tagged `!placeholder` in the file. It is read as absent (None,
or no authors): no page can print it, the pages carry a draft notice instead, and the
publication build (`reportgen build --strict`) refuses to run while any remains.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml

from reportgen.errors import InputError
from reportgen.i18n import SITE_LANGUAGES

PLACEHOLDER_TAG = "!placeholder"
# The keys that may still be placeholders (the site is built without them, as a draft).
# Every other key is needed to build any page at all.
PLACEHOLDER_KEYS: tuple[str, ...] = (
    "site_url",
    "article.authors",
    "article.doi",
    "article.article_url",
    "article.repository_url",
    "contestations.contact",
    "figure1.max_bias",
    "figure1.max_omission",
)


def default_as_of() -> date:
    """The date a build speaks for when `--as-of` is not given: the date of
    SOURCE_DATE_EPOCH when set (a reproducible build), else today in UTC."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return datetime.now(UTC).date()
    try:
        return datetime.fromtimestamp(int(epoch), UTC).date()
    except (ValueError, OverflowError, OSError):
        raise InputError(
            f"SOURCE_DATE_EPOCH: {epoch!r} is not a count of seconds since 1970"
        ) from None


@dataclass(frozen=True)
class Placeholder:
    """A value tagged `!placeholder` in site.yml: known to be wrong, never published."""

    line: int  # 1-based line of the value in the file


@dataclass(frozen=True)
class SiteConfig:
    site_url: str | None  # None: a placeholder (so are the other optional fields)
    primary_round: str | None
    title: Mapping[str, str]
    short_title: Mapping[str, str]
    authors: tuple[str, ...]  # empty: a placeholder
    doi: str | None
    article_url: str | None
    repository_url: str | None
    license: str
    contest_contact: str | None
    contest_window_days: int
    contest_reply_days: int
    audit_exports_dir: Path
    region_max_bias: float | None  # None: no reference region drawn (both or neither)
    region_max_omission: float | None
    # (dotted key, line) of every value still tagged !placeholder, in file order
    placeholders: tuple[tuple[str, int], ...] = ()
    # The date a build speaks for (`reportgen build --as-of`, not a key of site.yml;
    # None outside a build): kinds with embargoes and provisional results read it.
    as_of: date | None = None
    # `system_names`: model_id -> language -> the name a system has on that language's
    # pages, for names models.csv writes in one language only (counterfactual systems).
    system_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def draft(self) -> bool:
        """Incomplete metadata: the pages say so, and a strict build refuses to run."""
        return bool(self.placeholders)

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


class _Loader(yaml.SafeLoader):
    """The safe loader, plus the `!placeholder` tag (on a scalar, list or mapping)."""


def _placeholder(loader: yaml.SafeLoader, node: yaml.Node) -> Placeholder:
    return Placeholder(node.start_mark.line + 1)


_Loader.add_constructor(PLACEHOLDER_TAG, _placeholder)


def _get(data: Mapping[str, Any], dotted: str, kind: type, source: str) -> Any:
    value: Any = data
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            raise InputError(f"{source}: missing key {dotted!r}")
        value = value[part]
    if isinstance(value, Placeholder):
        raise InputError(
            f"{source}: key {dotted!r} (line {value.line}) cannot be a placeholder: no page can"
            f" be built without it; placeholders are allowed only for {', '.join(PLACEHOLDER_KEYS)}"
        )
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


def _placeholders(data: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """(dotted key, line) of every allowed key whose value is tagged !placeholder."""
    found = []
    for dotted in PLACEHOLDER_KEYS:
        value: Any = data
        for part in dotted.split("."):
            value = value.get(part) if isinstance(value, Mapping) else None
        if isinstance(value, Placeholder):
            found.append((dotted, value.line))
    return tuple(sorted(found, key=lambda entry: entry[1]))


def _optional(
    data: Mapping[str, Any], dotted: str, source: str, placeholders: set[str], read: Any
) -> Any:
    """`read(data, dotted, source)`, or None where the value is a placeholder."""
    return None if dotted in placeholders else read(data, dotted, source)


def _str(data: Mapping[str, Any], dotted: str, source: str) -> str:
    value: str = _get(data, dotted, str, source)
    return value


def _system_names(data: Mapping[str, Any], source: str) -> dict[str, dict[str, str]]:
    """The optional `system_names` block: model_id -> {language: name}."""
    block = data.get("system_names") or {}
    if not isinstance(block, dict):
        raise InputError(f"{source}: key 'system_names' must map model ids to names")
    names: dict[str, dict[str, str]] = {}
    for model_id, by_language in block.items():
        if not isinstance(by_language, dict) or not by_language:
            raise InputError(f"{source}: key system_names.{model_id} must map languages to names")
        for language, name in by_language.items():
            if language not in SITE_LANGUAGES or not isinstance(name, str) or not name.strip():
                raise InputError(
                    f"{source}: key system_names.{model_id}.{language} must be a non-empty"
                    f" name in one of {', '.join(SITE_LANGUAGES)}"
                )
        names[str(model_id)] = dict(by_language)
    return names


def _authors(data: Mapping[str, Any], source: str) -> tuple[str, ...]:
    authors = _get(data, "article.authors", list, source)
    if not authors or not all(isinstance(a, str) and a.strip() for a in authors):
        raise InputError(f"{source}: key 'article.authors' must be a non-empty list of names")
    return tuple(authors)


def load_build_config(path: Path, as_of: date | None) -> SiteConfig:
    """`site.yml` for a build speaking for `as_of` (default_as_of() when None)."""
    return replace(load_site_config(path), as_of=as_of or default_as_of())


def load_site_config(path: Path) -> SiteConfig:
    """Read and validate `site.yml`; raises InputError naming the file and key."""
    source = str(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # a SafeLoader subclass
    except FileNotFoundError:
        raise InputError(f"{source}: site configuration file not found") from None
    except yaml.YAMLError as error:
        raise InputError(f"{source}: not valid YAML ({error})") from None
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a mapping at the top level")
    placeholders = _placeholders(data)
    marked = {key for key, _line in placeholders}
    primary = data.get("primary_round")
    if primary is not None and not isinstance(primary, str):
        raise InputError(f"{source}: key 'primary_round' must be a round id or null")
    window = _get(data, "contestations.window_days", int, source)
    reply = _get(data, "contestations.reply_days", int, source)
    if window <= 0 or reply <= 0:
        raise InputError(f"{source}: contestation windows must be positive numbers of days")
    exports = Path(_get(data, "audit.exports_dir", str, source))
    region_keys = ("figure1.max_bias", "figure1.max_omission")
    # Half a region is no region: one placeholder bound leaves the figure without one.
    region = (
        [None, None]
        # A kind without the Estigmas figure has no `figure1` block at all.
        if marked & set(region_keys) or "figure1" not in data
        else [_rate(data, key, source) for key in region_keys]
    )
    return SiteConfig(
        site_url=_optional(data, "site_url", source, marked, _url),
        primary_round=primary,
        title=_by_language(data, "article.title", source),
        short_title=_by_language(data, "article.short_title", source),
        authors=() if "article.authors" in marked else _authors(data, source),
        doi=_optional(data, "article.doi", source, marked, _str),
        article_url=_optional(data, "article.article_url", source, marked, _url),
        repository_url=_optional(data, "article.repository_url", source, marked, _url),
        license=_str(data, "article.license", source),
        contest_contact=_optional(data, "contestations.contact", source, marked, _str),
        contest_window_days=window,
        contest_reply_days=reply,
        audit_exports_dir=exports if exports.is_absolute() else path.parent / exports,
        region_max_bias=region[0],
        region_max_omission=region[1],
        placeholders=placeholders,
        system_names=_system_names(data, source),
    )


def refuse_placeholders(config: SiteConfig, source: Path) -> None:
    """The publication build's check: raises InputError naming every placeholder left."""
    if config.placeholders:
        listed = "\n".join(f"  - {key} (line {line})" for key, line in config.placeholders)
        raise InputError(
            f"{source}: {len(config.placeholders)} value(s) still tagged {PLACEHOLDER_TAG};"
            f" the publication build (--strict) refuses to publish them. Replace:\n{listed}"
        )
