"""The site-level context and the page contexts: one per page kind, each naming its page.

`SiteContext` is what every page may draw on; `site_pages` lists every page the site
has (the same list in both languages) as `SectionPage`s (the navigation pages) and
`ModelPage`s (one per model of every round), each with the template that renders it,
the Markdown path it is written to, and the data the template needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reportgen.kinds.estigmas.render.aggregates import ModelBreakdown
from reportgen.kinds.estigmas.render.charts import ReferenceRegion
from reportgen.kinds.estigmas.render.context import ModelRow, RoundView
from reportgen.render.siteconfig import SiteConfig

# (page file stem, catalogue key of its navigation title), in navigation order.
NAV_PAGES: tuple[tuple[str, str], ...] = (
    ("index", "nav.home"),
    ("ranking", "nav.ranking"),
    ("models", "nav.models"),
    ("compare", "nav.compare"),
    ("bias", "nav.bias"),
    ("language", "nav.language"),
    ("continuous", "nav.continuous"),
    ("methodology", "nav.methodology"),
    ("audit", "nav.audit"),
    ("contestations", "nav.contestations"),
    ("data", "nav.data"),
)


@dataclass(frozen=True)
class SiteContext:
    """What every page may draw on: the article, the primary round, all rounds."""

    config: SiteConfig
    primary: RoundView
    rounds: tuple[RoundView, ...]  # every built round, full rounds first
    audits: Mapping[str, Mapping[str, Any]]  # round_id -> audit export
    region: ReferenceRegion
    software: Mapping[str, str]  # package -> version

    @property
    def continuous(self) -> tuple[RoundView, ...]:
        return tuple(r for r in self.rounds if r.kind == "continuous")

    @property
    def synthetic_rounds(self) -> tuple[RoundView, ...]:
        return tuple(r for r in self.rounds if r.synthetic)


@dataclass(frozen=True)
class PageContext:
    """One page: the template that renders it, its Markdown path, the round it is about."""

    template: str
    path: str  # under docs/<language>/
    round: RoundView

    @property
    def depth(self) -> int:
        """How many folders below the site root the page sits."""
        return self.path.count("/")

    def variables(self) -> dict[str, Any]:
        # Templates call the page's round `primary`: on section pages it is the primary round.
        return {"primary": self.round}


@dataclass(frozen=True)
class SectionPage(PageContext):
    """A navigation page (home, ranking, bias, ...), about the primary round."""

    nav_key: str  # catalogue key of its title


@dataclass(frozen=True)
class ModelPage(PageContext):
    """One model of one round: composition, slices, per-stigma table, tests, metadata."""

    model: ModelRow
    breakdown: ModelBreakdown
    comparable: bool  # the compare view covers the primary round's models

    def variables(self) -> dict[str, Any]:
        return {
            **super().variables(),
            "model": self.model,
            "breakdown": self.breakdown,
            "comparable": self.comparable,
        }


def site_pages(site: SiteContext) -> tuple[PageContext, ...]:
    """Every page of the site, navigation pages first (the same list in every language)."""
    sections: list[PageContext] = [
        SectionPage(f"{stem}.md.j2", f"{stem}.md", site.primary, nav_key)
        for stem, nav_key in NAV_PAGES
    ]
    models: list[PageContext] = [
        ModelPage(
            "model.md.j2",
            f"{view.models_dir}{row.model_id}.md",
            view,
            row,
            view.breakdowns[row.model_id],
            comparable=view is site.primary,
        )
        for view in site.rounds
        for row in view.models
    ]
    return (*sections, *models)
