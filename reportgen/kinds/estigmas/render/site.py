"""The site context: what every page of the Estigmas site draws on, assembled from
verified rounds (views, provider colours, audits, the primary round, model folders).

It is language-neutral; the page builders (`round_pages`, `reference_pages`) turn it
into one page context per page and language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import version
from pathlib import Path
from typing import Any

from reportgen import __version__
from reportgen.errors import InputError
from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.render.charts import ReferenceRegion
from reportgen.kinds.estigmas.render.context import RoundView, build_round_view, provider_colours
from reportgen.kinds.estigmas.render.reference_tables import load_audit
from reportgen.kinds.estigmas.results import listed_pairs, load_results, pair_differences
from reportgen.render.siteconfig import SiteConfig

SOFTWARE = ("reportgen", "mkdocs", "mkdocs-material", "mkdocs-static-i18n", "altair", "numpy")

Progress = Callable[[str], None]

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
    region: ReferenceRegion | None  # None while site.yml's bounds are placeholders
    software: Mapping[str, str]  # package -> version
    # Folders between a language's root and these pages: 1 in a site of several kinds,
    # where the Estigmas pages form a section.
    section_depth: int = 0

    @property
    def continuous(self) -> tuple[RoundView, ...]:
        return tuple(r for r in self.rounds if r.kind == "continuous")

    @property
    def synthetic_rounds(self) -> tuple[RoundView, ...]:
        return tuple(r for r in self.rounds if r.synthetic)


def _software() -> dict[str, str]:
    versions = {}
    for package in SOFTWARE:
        try:
            versions[package] = version(package)
        except Exception:  # a missing distribution is shown as unknown, not fatal
            versions[package] = "?"
    versions["reportgen"] = __version__
    return versions


def _primary(views: Sequence[RoundView], config: SiteConfig) -> RoundView:
    if config.primary_round is not None:
        for view in views:
            if view.round_id == config.primary_round:
                return view
        raise InputError(f"site.yml: primary_round {config.primary_round!r} is not being built")
    full = [v for v in views if v.kind == "full"] or list(views)
    return max(full, key=lambda v: (v.collected_on, v.round_id))


def _audit_of(exports_dir: Path, round_id: str) -> Mapping[str, Any] | None:
    """The round's audit export: `<round_id>.json` or `human-audit-<round_id>.json`
    (the name `reportgen review export` gives it by default)."""
    found = [
        path
        for path in (exports_dir / f"{round_id}.json", exports_dir / f"human-audit-{round_id}.json")
        if path.is_file()
    ]
    if len(found) > 1:
        raise InputError(f"{exports_dir}: two audit exports for round {round_id}: {found}")
    return load_audit(found[0]) if found else None


def _with_compared(round: Round, view: RoundView) -> RoundView:
    """The view with the differences of the compare page's pairs: those the results hold
    (every pair up to 50 models, the ranking's neighbours beyond) taken from them, the
    others read from the replicates (the same values, bit for bit: results/_pairs.py)."""
    stats = view.stats
    if stats is None:
        return view
    pairs = listed_pairs(stats.models)
    held = {(d.model_a, d.model_b): d for d in stats.differences}
    missing = [pair for pair in pairs if pair not in held]
    read = pair_differences(round, stats.models, missing, stats.replicates, stats.seed)
    computed = dict(zip(missing, read, strict=True))
    return replace(view, compared=tuple(held.get(pair) or computed[pair] for pair in pairs))


def site_context(
    rounds: Sequence[Round],
    config: SiteConfig,
    *,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    with_statistics: bool = True,
    section_depth: int = 0,
) -> SiteContext:
    """Everything the pages show, from verified rounds (statistics from the results cache)."""
    say = progress or (lambda _message: None)
    colours = provider_colours([m.provider for r in rounds for m in r.models])
    views = []
    for round in rounds:
        say(f"statistics for {round.round_id}")
        stats = load_results(round, cache_dir=cache_dir) if with_statistics else None
        views.append(_with_compared(round, build_round_view(round, stats, colours)))
    views.sort(key=lambda v: (v.kind != "full", v.round_id))
    audits = {}
    for view in views:
        audit = _audit_of(config.audit_exports_dir, view.round_id)
        if audit is not None:
            audits[view.round_id] = audit
    region = (
        ReferenceRegion(config.region_max_bias, config.region_max_omission)
        if config.region_max_bias is not None and config.region_max_omission is not None
        else None
    )
    primary = _primary(views, config)
    # The primary round's model pages sit at models/<id>; other rounds' in their own folder.
    views = [v if v is primary else replace(v, models_dir=f"models/{v.round_id}/") for v in views]
    primary = next(v for v in views if v.round_id == primary.round_id)
    return SiteContext(config, primary, tuple(views), audits, region, _software(), section_depth)
