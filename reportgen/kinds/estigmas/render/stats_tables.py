"""Tables of the statistics engine's results (intervals, differences, tests, language study).

Only formatting happens here: every number comes from `RoundResults`.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.i18n import MISSING, Translator
from reportgen.identity_cache import by_identity
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.pair_scope import mcnemar_caption, model_mcnemar_caption
from reportgen.kinds.estigmas.render.reasons import reason_text
from reportgen.kinds.estigmas.results import IndexDifference, Interval, ModelIntervals, RoundResults
from reportgen.kinds.estigmas.stats.significance import ChiSquareTest, McNemarTest, TestFamily
from reportgen.render.table import Cell, Table, numeric_headers, text_cells


def require_stats(view: RoundView) -> RoundResults:
    if view.stats is None:
        raise ValueError(f"round {view.round_id}: statistics are not available")
    return view.stats


def interval_text(tr: Translator, lower: float | None, upper: float | None) -> str:
    if lower is None or upper is None:
        return tr("stats.not_computable")
    return f"[{tr.points(lower)}; {tr.points(upper)}]"


def _difference_cells(tr: Translator, d: IndexDifference) -> tuple[Cell, Cell, Cell]:
    verdict = tr("stats.separated") if d.separated else tr("stats.technical_tie")
    return (
        Cell(tr.points(d.estimate), d.estimate, numeric=True),
        Cell(interval_text(tr, d.lower, d.upper)),
        Cell(verdict),
    )


def adjacent(view: RoundView, tr: Translator) -> Table:
    """Table 6: index differences between neighbours in the ranking."""
    rows = tuple(
        (Cell(view.name_of(d.model_a)), Cell(view.name_of(d.model_b)), *_difference_cells(tr, d))
        for d in require_stats(view).adjacent
    )
    return Table(
        table_id=f"adjacent-{view.round_id}",
        caption=tr("stats.adjacent.caption"),
        header=(
            *text_cells(tr, "stats.model_a", "stats.model_b"),
            Cell(tr("stats.difference"), numeric=True),
            *text_cells(tr, "stats.interval", "stats.verdict"),
        ),
        rows=rows,
    )


def pairwise(view: RoundView, tr: Translator) -> Table:
    """The "is A ahead of B?" matrix: rows A, columns B, cell = verdict and difference.

    Every model has a row and a column, the diagnostic cases (last) marked as such.
    """
    ranked = [m.model_id for m in view.models]
    by_pair = {(d.model_a, d.model_b): d for d in require_stats(view).differences}
    diagnostic = {m.model_id for m in view.diagnostic}

    def name(model_id: str) -> str:
        marker = f" ({tr('table.diagnostic_case')})" if model_id in diagnostic else ""
        return view.name_of(model_id) + marker

    rows = []
    for a in ranked:
        cells = [Cell(name(a))]
        for b in ranked:
            d = by_pair.get((a, b))
            if d is None:
                cells.append(Cell("—"))
                continue
            if not d.separated:
                verdict = tr("stats.matrix.tie")
            else:
                verdict = tr("stats.matrix.ahead") if d.estimate > 0 else tr("stats.matrix.behind")
            points = tr.points(d.estimate).replace(" ", "\u00a0")  # "+4,8 p.p." on one line
            cells.append(Cell(f"{verdict} ({points})", d.estimate, numeric=True))
        rows.append(tuple(cells))
    return Table(
        table_id=f"pairwise-{view.round_id}",
        caption=tr("stats.pairwise.caption"),
        header=(Cell(tr("stats.row_vs_column")), *(Cell(name(b)) for b in ranked)),
        rows=tuple(rows),
        wrap_cells=True,
    )


def rank_range(tr: Translator, best: int, worst: int) -> str:
    """A model's ranks over the leave-one-out analyses: "2–3", or "1" when it never moved."""
    return tr.integer(best) if best == worst else f"{tr.integer(best)}–{tr.integer(worst)}"


def structures_by_scenario(view: RoundView, tr: Translator, ids: Sequence[str]) -> list[str]:
    """Structures named by their scenario, those of one scenario together ("Crédito (q08,
    q09)"): several structures share a scenario, and a name repeated for two of them
    would read as one structure listed twice."""
    grouped: dict[str, list[str]] = {}
    for structure_id in ids:
        grouped.setdefault(tr.pick(view.structure_scenarios.get(structure_id, {})), []).append(
            structure_id
        )
    return [f"{name} ({', '.join(members)})" if name else ", ".join(members)
            for name, members in grouped.items()]  # fmt: skip


def sensitivity(view: RoundView, tr: Translator) -> Table:
    """Leave-one-out analyses: orders preserved and each model's rank range."""
    stats = require_stats(view)
    families = (stats.leave_one_stigma_out, stats.leave_one_structure_out)
    if families[0].reason is not None:
        return Table(
            table_id=f"sensitivity-{view.round_id}",
            caption=tr("stats.sensitivity.not_applicable"),
            header=(Cell(tr("table.model")),),
            rows=(),
        )
    ranges = {r.model_id: [r] for r in families[0].ranges}
    for r in families[1].ranges:
        ranges.setdefault(r.model_id, []).append(r)
    rows = tuple(
        (
            Cell(view.name_of(model_id)),
            *(Cell(rank_range(tr, r.best, r.worst)) for r in found),
        )
        for model_id, found in ranges.items()
        if len(found) == 2
    )
    return Table(
        table_id=f"sensitivity-{view.round_id}",
        caption=tr(
            "stats.sensitivity.caption",
            stigma_kept=tr.integer(families[0].preserved),
            stigma_total=tr.integer(families[0].analyses),
            structure_kept=tr.integer(families[1].preserved),
            structure_total=tr.integer(families[1].analyses),
        ),
        header=text_cells(
            tr, "table.model", "stats.rank_range_stigma", "stats.rank_range_structure"
        ),
        rows=rows,
        notes=tuple(
            tr(key, ids=", ".join(names))
            for key, names in (
                ("stats.sensitivity.changed_stigma",
                 [view.stigma_name(i, tr.language) for i in families[0].changed]),
                ("stats.sensitivity.changed_structure",
                 structures_by_scenario(view, tr, families[1].changed)),
            )
            if names
        ),
    )  # fmt: skip


def family(view: RoundView, tr: Translator, tests: TestFamily, title_key: str) -> Table:
    """One family of χ² tests with raw and BH-adjusted p and Cramér's V."""
    rows = []
    for test in tests.tests:
        model_id, _, stigma_id = test.subject.partition("/")
        subject = view.name_of(model_id)
        if stigma_id:
            subject += " — " + view.stigma_name(stigma_id, tr.language)
        if test.statistic is None:
            rows.append(
                (
                    Cell(subject),
                    *(Cell(MISSING, numeric=True) for _ in range(4)),
                    Cell(reason_text(test.reason, tr)),
                )
            )
            continue
        rows.append(
            (
                Cell(subject),
                Cell(
                    f"χ²({tr.integer(test.df or 0)}) = {tr.decimal(test.statistic)}",
                    test.statistic,
                    numeric=True,
                ),
                Cell(tr.pvalue(test.p_value), test.p_value, numeric=True),
                Cell(tr.pvalue(test.p_adjusted), test.p_adjusted, numeric=True),
                Cell(tr.decimal(test.cramers_v or 0.0), test.cramers_v, numeric=True),
                Cell(_test_note(tr, test)),
            )
        )
    return Table(
        table_id=f"tests-{tests.name}-{view.round_id}".replace("/", "-"),
        caption=tr(title_key),
        header=(
            Cell(tr("stats.subject")),
            *numeric_headers(tr, "stats.statistic", "stats.p_raw", "stats.p_bh", "stats.cramers_v"),
            Cell(tr("stats.note")),
        ),
        rows=tuple(rows),
        sortable=True,
    )


def _test_note(tr: Translator, test: ChiSquareTest) -> str:
    """Significance, a permutation p-value's kind and the groups left out, in one cell."""
    notes = []
    if (test.p_adjusted or 1) < 0.05:
        notes.append(tr("stats.significant"))
    if test.method == "exact":
        notes.append(tr("stats.p_exact"))
    elif test.method == "monte_carlo":
        notes.append(tr("stats.p_monte_carlo", permutations=tr.integer(test.permutations or 0)))
    if test.dropped:
        notes.append(tr("stats.dropped", ids=", ".join(test.dropped)))
    return "; ".join(notes)


def gender(view: RoundView, tr: Translator) -> Table:
    rows = tuple(
        (
            Cell(view.name_of(g.model_id)),
            Cell(tr.percent(g.bias_male), g.bias_male, numeric=True),
            Cell(tr.percent(g.bias_female), g.bias_female, numeric=True),
            Cell(tr.points(g.bias_delta), g.bias_delta, numeric=True),
            Cell(tr.percent(g.omission_male), g.omission_male, numeric=True),
            Cell(tr.percent(g.omission_female), g.omission_female, numeric=True),
            Cell(tr.points(g.omission_delta), g.omission_delta, numeric=True),
        )
        for g in require_stats(view).gender_gaps
    )
    return Table(
        table_id=f"gender-gaps-{view.round_id}",  # "gender-" is the bias rates' table
        caption=tr("stats.gender.caption"),
        header=(
            Cell(tr("table.model")),
            *numeric_headers(
                tr,
                "stats.bias_male",
                "stats.bias_female",
                "stats.delta",
                "stats.omission_male",
                "stats.omission_female",
                "stats.delta",
            ),
        ),
        rows=rows,
        sortable=True,
    )


# Every model page lists its own tests and intervals: indexed once per results object.
@by_identity(4)
def _tests_by_model(stats: RoundResults) -> dict[str, list[McNemarTest]]:
    """model id -> the McNemar tests it is in, in the results' order."""
    tests: dict[str, list[McNemarTest]] = {}
    for test in stats.mcnemar:
        tests.setdefault(test.model_a, []).append(test)
        if test.model_b != test.model_a:
            tests.setdefault(test.model_b, []).append(test)
    return tests


@by_identity(4)
def _intervals_by_model(stats: RoundResults) -> dict[str, ModelIntervals]:
    """model id -> its intervals (the first entry, should one repeat)."""
    intervals: dict[str, ModelIntervals] = {}
    for entry in stats.intervals:
        intervals.setdefault(entry.model_id, entry)
    return intervals


def mcnemar(view: RoundView, tr: Translator, model_id: str) -> Table:
    """McNemar of one model against every model it was tested with (BH over the round's
    tested pairs: every pair, or adjacent ranks past ALL_PAIRS_UP_TO models)."""
    rows = []
    for test in _tests_by_model(require_stats(view)).get(model_id, ()):
        mine_first = test.model_a == model_id
        other = test.model_b if mine_first else test.model_a
        difference = test.difference if mine_first else -test.difference
        only_me = test.only_a_biased if mine_first else test.only_b_biased
        only_other = test.only_b_biased if mine_first else test.only_a_biased
        rows.append(
            (
                Cell(view.name_of(other)),
                Cell(tr.integer(only_me), only_me, numeric=True),
                Cell(tr.integer(only_other), only_other, numeric=True),
                Cell(tr.points(difference), difference, numeric=True),
                Cell(tr(f"stats.method.{test.method}")),
                Cell(tr.pvalue(test.p_value), test.p_value, numeric=True),
                Cell(tr.pvalue(test.p_adjusted), test.p_adjusted, numeric=True),
            )
        )
    return Table(
        table_id=f"mcnemar-{model_id}",
        caption=model_mcnemar_caption(view, tr, model_id),
        header=(
            Cell(tr("stats.other_model")),
            *numeric_headers(tr, "stats.only_this", "stats.only_other", "stats.difference"),
            Cell(tr("stats.method")),
            *numeric_headers(tr, "stats.p_raw", "stats.p_bh"),
        ),
        rows=tuple(rows),
        sortable=True,
    )


def model_intervals(view: RoundView, tr: Translator, model_id: str) -> Table:
    """One model's five intervals, each with its denominator."""
    entry = _intervals_by_model(require_stats(view))[model_id]
    rows = []
    for metric in ("failure", "index", "bias_rate", "omission_rate", "correct_rate"):
        interval: Interval = getattr(entry, metric)
        bounds = (
            f"[{tr.percent(interval.lower)}; {tr.percent(interval.upper)}]"
            if interval.lower is not None and interval.upper is not None
            else tr("stats.not_computable")
        )
        rows.append(
            (
                Cell(tr(f"metric.{metric}")),
                Cell(tr.percent(interval.estimate), interval.estimate, numeric=True),
                Cell(bounds),
                Cell(f"{interval.denominator} = {tr.integer(interval.denominator_count)}"),
            )
        )
    return Table(
        table_id=f"intervals-{model_id}",
        caption=tr("model.intervals"),
        header=(
            Cell(tr("compare.metric")),
            Cell(tr("table.value"), numeric=True),
            *text_cells(tr, "stats.interval", "table.denominator"),
        ),
        rows=tuple(rows),
    )


def mcnemar_all(view: RoundView, tr: Translator) -> Table:
    """McNemar on the biased indicator for the pairs tested (one BH family): every pair, or
    adjacent ranks past ALL_PAIRS_UP_TO models, which the caption says (`pair_scope`)."""
    rows = tuple(
        (
            Cell(view.name_of(test.model_a)),
            Cell(view.name_of(test.model_b)),
            Cell(tr.integer(test.only_a_biased), test.only_a_biased, numeric=True),
            Cell(tr.integer(test.only_b_biased), test.only_b_biased, numeric=True),
            Cell(tr.points(test.difference), test.difference, numeric=True),
            Cell(tr(f"stats.method.{test.method}")),
            Cell(tr.pvalue(test.p_value), test.p_value, numeric=True),
            Cell(tr.pvalue(test.p_adjusted), test.p_adjusted, numeric=True),
        )
        for test in require_stats(view).mcnemar
    )
    return Table(
        table_id=f"mcnemar-{view.round_id}",
        caption=mcnemar_caption(view, tr),
        header=(
            *text_cells(tr, "stats.model_a", "stats.other_model"),
            *numeric_headers(tr, "stats.only_a", "stats.only_b", "stats.difference"),
            Cell(tr("stats.method")),
            *numeric_headers(tr, "stats.p_raw", "stats.p_bh"),
        ),
        rows=rows,
        sortable=True,
    )


def correlation(view: RoundView, tr: Translator) -> Table:
    """Pearson and Spearman correlation of bias and omission across models."""
    c = require_stats(view).correlation
    rows = (
        (
            Cell("Pearson r"),
            Cell(_maybe(tr, c.pearson_r), numeric=True),
            Cell(tr.pvalue(c.pearson_p), numeric=True),
        ),
        (
            Cell(
                "Spearman ρ" + (f" ({tr('stats.p_exact')})" if c.spearman_method == "exact" else "")
            ),
            Cell(_maybe(tr, c.spearman_rho), numeric=True),
            Cell(tr.pvalue(c.spearman_p), numeric=True),
        ),
    )
    return Table(
        table_id=f"correlation-{view.round_id}",
        caption=tr("stats.correlation.caption", models=tr.integer(c.models)),
        header=(
            Cell(tr("stats.subject")),
            *numeric_headers(tr, "stats.coefficient", "stats.p_raw"),
        ),
        rows=rows,
        notes=(reason_text(c.reason, tr),) if c.reason else (),
    )


def _maybe(tr: Translator, value: float | None) -> str:
    return tr("stats.not_computable") if value is None else tr.decimal(value)
