"""How to cite the article: BibTeX for the site's pages and `CITATION.cff` at its root.

Both are generated from site.yml, never typed in. A value still tagged `!placeholder` is
absent from the configuration and so from the citation; without authors there is no
citation at all (a draft says what is missing in its notice instead), since a reference
without its authors would be cited wrongly.
"""

from __future__ import annotations

import re

import yaml

from reportgen.render.siteconfig import SiteConfig

CFF_VERSION = "1.2.0"
DEFAULT_LANGUAGE = "pt-BR"  # the article's language, that of its title in the citation


def citation_key(config: SiteConfig) -> str:
    """A BibTeX key from the short title: letters and digits only."""
    return re.sub(r"[^A-Za-z0-9]", "", config.short_title[DEFAULT_LANGUAGE]).lower() or "article"


def _bibtex_value(text: str) -> str:
    """A field value in braces; braces and backslashes of the text are escaped."""
    escaped = text.replace("\\", "\\textbackslash{}").replace("{", "\\{").replace("}", "\\}")
    return "{" + escaped + "}"


def bibtex(config: SiteConfig) -> str | None:
    """The article's BibTeX entry, or None while its authors are unknown."""
    if not config.authors:
        return None
    fields = [
        ("title", config.title[DEFAULT_LANGUAGE]),
        ("author", " and ".join(config.authors)),
        ("doi", config.doi),
        ("url", config.article_url or config.site_url),
    ]
    lines = [f"  {name} = {_bibtex_value(value)}," for name, value in fields if value]
    return "\n".join([f"@misc{{{citation_key(config)},", *lines, "}"])


def _cff_author(name: str) -> dict[str, str]:
    """A CFF person: "Given Names Family" split at the last space (one word: a name alone)."""
    given, _, family = name.strip().rpartition(" ")
    return {"family-names": family, "given-names": given} if given else {"name": family}


def citation_cff(config: SiteConfig) -> str | None:
    """`CITATION.cff` (Citation File Format 1.2.0), or None while the authors are unknown."""
    if not config.authors:
        return None
    document: dict[str, object] = {
        "cff-version": CFF_VERSION,
        "message": "If you use these results, please cite the article.",
        "type": "dataset",
        "title": config.title[DEFAULT_LANGUAGE],
        "authors": [_cff_author(name) for name in config.authors],
        # CFF wants an SPDX identifier: "CC BY 4.0" is written "CC-BY-4.0" there.
        "license": config.license.replace(" ", "-"),
    }
    if config.doi:
        document["doi"] = config.doi
    if config.site_url:
        document["url"] = config.site_url
    if config.repository_url:
        document["repository"] = config.repository_url
    if config.article_url:
        document["preferred-citation"] = {
            "type": "article",
            "title": config.title[DEFAULT_LANGUAGE],
            "authors": [_cff_author(name) for name in config.authors],  # no YAML alias
            "url": config.article_url,
            **({"doi": config.doi} if config.doi else {}),
        }
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
