"""The site's tables, built from contexts for one language.

Each builder returns a neutral `Table`; the page builders put it in a page context.
Rates are always shown with their denominators (count / total), as in the article.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render.aggregates import Share
from reportgen.kinds.estigmas.render.context import INTERVAL_METRICS, ModelRow, RoundView
from reportgen.kinds.estigmas.render.stats_tables import rank_range
from reportgen.render.table import Cell, Table, numeric_headers, text_cells


def _rate(tr: Translator, share: Share) -> Cell:
    return _rate_cell(tr, share.count, share.total)


# The same counts recur across a round's tables (each model's page shows a hundred stigmas'
# shares, out of the same few totals): each cell is made once per language. A Cell is
# immutable, so tables may share it.
@functools.lru_cache(maxsize=1 << 16)
def _rate_cell(tr: Translator, count: int, total: int) -> Cell:
    rate = Share(count, total).rate
    text = f"{tr.percent(rate)} ({tr.integer(count)}/{tr.integer(total)})"
    return Cell(text, rate if rate is not None else -1.0, numeric=True)


def _model_cell(view: RoundView, row: ModelRow, up: str, link: bool = True) -> Cell:
    target = f"{up}{view.models_dir}{row.model_id}.html" if link else None
    return Cell(row.score.display_name, link=target)


# A ranking longer than this gets the theme's paging and filter controls (site.js).
PAGED_ROWS = 50
PAGER_LABELS = ("filter", "filter_hint", "previous", "next", "all", "paged", "status", "none")


def pager_labels(tr: Translator) -> tuple[tuple[str, str], ...]:
    """The labels of a long table's paging and filter controls, in `tr`'s language."""
    return tuple((name, tr(f"table.pager.{name}")) for name in PAGER_LABELS)


def ranking(
    view: RoundView,
    tr: Translator,
    up: str = "",
    diagnostic: bool = False,
    link: bool = True,
    caption_key: str = "table.ranking.caption",
) -> Table:
    """Table 2: the ranked models (or the diagnostic cases) with denominators; another
    round's ranking names itself with its own `caption_key` (Table 2 is the article's).

    With statistics, the ranked models' table has each one's 95% rank interval beside
    its rank, and a note under the table says what that interval is."""
    rows = view.diagnostic if diagnostic else view.ranked
    ranks = rank_intervals(view, tr) if not diagnostic else {}
    header = (
        Cell(tr("table.rank"), numeric=True),
        *((Cell(tr("table.rank_interval"), numeric=True),) if ranks else ()),
        *text_cells(tr, "table.model", "table.provider"),
        *numeric_headers(
            tr,
            "metric.index",
            "metric.failure",
            "metric.bias_rate",
            "metric.omission_rate",
            "metric.correct_rate",
            "metric.coverage",
        ),
    )
    body = []
    for row in rows:
        s = row.score
        rank = tr.integer(s.rank) if s.rank is not None else tr("table.diagnostic_case")
        body.append(
            (
                Cell(rank, s.rank if s.rank is not None else 10**6, numeric=True),
                *((ranks[row.model_id],) if ranks else ()),
                _model_cell(view, row, up, link),
                Cell(s.provider),
                Cell(tr.percent(s.index), s.index, numeric=True),
                Cell(tr.percent(s.failure), s.failure, numeric=True),
                _rate(tr, Share(s.biased, s.N)),
                _rate(tr, Share(s.omissions, s.n)),
                _rate(tr, Share(s.correct, s.n)),
                Cell(tr.percent(s.coverage), s.coverage, numeric=True),
            )
        )
    key = "table.diagnostic.caption" if diagnostic else caption_key
    return Table(
        pager=pager_labels(tr) if len(body) > PAGED_ROWS else (),
        table_id=f"{'diagnostic' if diagnostic else 'ranking'}-{view.round_id}",
        caption=tr(key, N=tr.integer(view.N), n=tr.integer(view.n)),
        header=header,
        rows=tuple(body),
        sortable=True,
        sticky_column=2 if ranks else 1,  # the model's name, not its position
        notes=(rank_interval_note(view, tr),) if ranks else (),
    )


def rank_intervals(view: RoundView, tr: Translator) -> dict[str, Cell]:
    """Each ranked model's 95% rank interval over the bootstrap replicates ("2–5", or "3"
    when it never moved), sorted by its best rank then its worst; empty without them."""
    if view.stats is None:
        return {}
    count = len(view.stats.ranks) + 1
    return {
        entry.model_id: Cell(
            rank_range(tr, entry.best, entry.worst), entry.best + entry.worst / count, numeric=True
        )
        for entry in view.stats.ranks
    }


def rank_interval_note(view: RoundView, tr: Translator) -> str:
    """One sentence under the ranking: what a rank interval is."""
    replicates = view.stats.replicates if view.stats is not None else 0
    return tr("table.rank_interval_note", replicates=tr.integer(replicates))


def intervals(view: RoundView, tr: Translator, metrics: tuple[str, ...], up: str = "") -> Table:
    """Tables 4 and 5: 95% crossed-bootstrap intervals with their denominators."""
    header = (
        Cell(tr("table.model")),
        *tuple(Cell(tr(f"metric.{m}"), numeric=True) for m in metrics),
    )
    body = []
    for row in view.models:
        cells = [_model_cell(view, row, up)]
        for metric in metrics:
            value = getattr(row.score, metric)
            bounds = row.intervals.get(metric)
            text = tr.percent(value)
            if bounds is not None:
                text += f" [{tr.percent(bounds[0])}; {tr.percent(bounds[1])}]"
            cells.append(Cell(text, value, numeric=True))
        body.append(tuple(cells))
    denominator = tr.integer(view.N if metrics[0] in ("failure", "index", "bias_rate") else view.n)
    return Table(
        table_id=f"intervals-{view.round_id}-{metrics[0]}",
        caption=tr("table.intervals.caption", denominator=denominator),
        header=header,
        rows=tuple(body),
    )


def slices(
    view: RoundView,
    tr: Translator,
    table_id: str,
    caption: str,
    columns: Mapping[str, str],
    pick: str,
    up: str = "",
) -> Table:
    """Biased shares of every model over named slices of its breakdown.

    `pick` names a breakdown field holding a dict of Shares (by_band, by_style, ...);
    `columns` maps each slice key to its column title.
    """
    header = (Cell(tr("table.model")), *tuple(Cell(t, numeric=True) for t in columns.values()))
    body = []
    for row in view.models:
        shares: Mapping[str, Share] = getattr(view.breakdowns[row.model_id], pick)
        body.append((_model_cell(view, row, up), *(_rate(tr, shares[k]) for k in columns)))
    return Table(table_id, caption, header, tuple(body), sortable=True)


@functools.lru_cache(maxsize=4096)
def _stigma_cells(
    tr: Translator, name: str, origin: str, peril: float, band: str
) -> tuple[Cell, Cell, Cell, Cell]:
    """A stigma's own cells, the same on every model's page of a language: made once."""
    return (
        Cell(name),
        Cell(tr(f"origin.{origin}")),
        Cell(tr.decimal(peril, 2), peril, numeric=True),
        Cell(tr(f"band.{band}")),
    )


def stigmas(view: RoundView, row: ModelRow, tr: Translator) -> Table:
    """The per-stigma table of one model (sortable), with n on every rate."""
    breakdown = view.breakdowns[row.model_id]
    body = tuple(
        (
            *_stigma_cells(tr, s.name_pt if tr.language == "pt-BR" else s.name_en, s.origin,
                           s.peril, s.band),
            _rate(tr, s.biased),
            _rate(tr, s.omissions),
        )
        for s in breakdown.stigmas
    )  # fmt: skip
    return Table(
        table_id=f"stigmas-{row.model_id}",
        caption=tr("table.stigmas.caption", model=row.score.display_name),
        header=(
            *text_cells(tr, "table.stigma", "table.origin"),
            Cell(tr("table.peril"), numeric=True),
            Cell(tr("table.band")),
            *numeric_headers(tr, "metric.bias_rate", "metric.omission_rate"),
        ),
        rows=body,
        sortable=True,
        notes=(tr("caution.groups"),),
    )


def annulments(view: RoundView, tr: Translator) -> Table:
    return Table(
        table_id=f"annulments-{view.round_id}",
        caption=tr("table.annulments.caption", round=view.round_id),
        header=text_cells(
            tr,
            "table.item",
            "table.decided_on",
            "table.contest",
            "table.reason_pt",
            "table.reason_en",
        ),
        rows=tuple(
            (
                Cell(a.item_id),
                Cell(tr.date(a.decided_on)),
                Cell(a.contest_id),
                Cell(a.reason.get("pt-BR", "")),
                Cell(a.reason.get("en", "")),
            )
            for a in view.annulments
        ),
    )


def download_checksums(view: RoundView, digests: Mapping[str, str], tr: Translator) -> Table:
    """The SHA-256 of each download as served (the round's data/<round_id>/SHA256SUMS)."""
    return Table(
        table_id=f"download-checksums-{view.round_id}",
        caption=tr("table.download_checksums.caption", round=view.round_id),
        header=(Cell(tr("table.file")), Cell("SHA-256")),
        rows=tuple((Cell(name), Cell(digest)) for name, digest in digests.items()),
    )


def checksums(view: RoundView, tr: Translator) -> Table:
    """The SHA-256 of the round archive's own files (its SHA256SUMS), not of the downloads."""
    rows = [(Cell(path), Cell(digest)) for path, digest in view.checksums.items()]
    if view.ledger_sha256:
        rows.append((Cell("annulments.jsonl"), Cell(view.ledger_sha256)))
    return Table(
        table_id=f"checksums-{view.round_id}",
        caption=tr("table.checksums.caption", round=view.round_id),
        header=(Cell(tr("table.file")), Cell("SHA-256")),
        rows=tuple(rows),
    )


def metadata(row: ModelRow, tr: Translator) -> Table:
    s = row.score
    pairs = (
        ("table.model_id", row.model_id),
        ("table.model", s.display_name),
        ("table.provider", s.provider),
        ("table.api_identifier", row.api_identifier),
        ("table.snapshot", row.snapshot or tr("table.not_reported")),
        ("table.evaluated_on", tr.date(row.evaluated_on)),
        ("table.inconclusive", tr.integer(s.inconclusive)),
    )
    return Table(
        table_id=f"metadata-{row.model_id}",
        caption=tr("table.metadata.caption"),
        header=(Cell(tr("table.field")), Cell(tr("table.value"))),
        rows=tuple((Cell(tr(key)), Cell(value)) for key, value in pairs),
    )


def interval_metrics() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The metrics of Table 4 (denominator N) and Table 5 (denominator n)."""
    return INTERVAL_METRICS[:3], INTERVAL_METRICS[3:]


def markers(view: RoundView, tr: Translator) -> Table:
    """Biased share of every model on each local (Brazilian) marker."""
    local_ids = (
        [s.stigma_id for s in next(iter(view.breakdowns.values())).stigmas if s.origin == "local"]
        if view.breakdowns
        else []
    )
    rows = []
    for stigma_id in local_ids:
        cells = [Cell(view.stigma_name(stigma_id, tr.language))]
        for row in view.models:
            found = next(
                s for s in view.breakdowns[row.model_id].stigmas if s.stigma_id == stigma_id
            )
            cells.append(_rate(tr, found.biased))
        rows.append(tuple(cells))
    return Table(
        table_id=f"markers-{view.round_id}",
        caption=tr("bias.markers"),
        header=(
            Cell(tr("table.stigma")),
            *(Cell(m.score.display_name, numeric=True) for m in view.models),
        ),
        rows=tuple(rows),
        sortable=True,
        notes=(tr("caution.groups"),),
    )


def compare(view: RoundView, tr: Translator) -> Table:
    """Every model side by side (the compare page's script shows two columns)."""
    metrics: list[tuple[str, list[Cell]]] = []
    for key in ("index", "failure", "bias_rate", "omission_rate", "correct_rate", "coverage"):
        metrics.append(
            (
                f"metric.{key}",
                [Cell(tr.percent(getattr(m.score, key)), numeric=True) for m in view.models],
            )
        )
    metrics.append(
        (
            "table.rank",
            [
                Cell(tr.integer(m.score.rank) if m.score.rank else tr("table.diagnostic_case"))
                for m in view.models
            ],
        )
    )
    metrics.append(
        (
            "table.inconclusive",
            [Cell(tr.integer(m.score.inconclusive), numeric=True) for m in view.models],
        )
    )
    for band in ("low", "medium", "high"):
        metrics.append(
            (
                f"band.{band}",
                [_rate(tr, view.breakdowns[m.model_id].by_band[band]) for m in view.models],
            )
        )
    metrics.append(
        (
            "model.local_markers",
            [_rate(tr, view.breakdowns[m.model_id].local_markers) for m in view.models],
        )
    )
    return Table(
        table_id="compare-table",
        caption=tr("compare.caption"),
        header=(Cell(tr("compare.metric")), *(Cell(m.score.display_name) for m in view.models)),
        rows=tuple((Cell(tr(key)), *cells) for key, cells in metrics),
    )
