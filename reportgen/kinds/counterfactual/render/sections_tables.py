"""Part 3 of the report: per system and attribute, for each criterion shown the
responses it counts (in words: every response, or only those whose variable should be yes)
with the groups' values over them and the gap with its flag and interval; then the extreme
pair's test, "k of K pairs significant", the other pairs folded, the finding.

A table has one block of rows per variable (attributes.csv, then the level order of the
findings: decision, quality, tone, then variables.csv). Each rounded number carries its
exact fraction as the cell's tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reportgen.kinds.counterfactual.render.context import RoundContext, reason_text, shown_gaps
from reportgen.kinds.counterfactual.render.page_types import Block, DetailsBlock
from reportgen.kinds.counterfactual.render.text import Text, exact_cell, heading
from reportgen.kinds.counterfactual.results import Exact, Gap, PairTest, Row, SystemResults
from reportgen.render.pages import TableBlock
from reportgen.render.table import Cell
from reportgen.render.text import paragraph

LEVEL_ORDER = {"decision": 0, "quality": 1, "tone": 2}
Lines = list[tuple[str, str | Cell]]  # (label, value) rows of a variable's block


def fraction(value: Exact | None) -> Fraction | None:
    return None if value is None else value.fraction


def ordered_rows(system: SystemResults, attribute_id: str) -> list[Row]:
    rows = [r for r in system.rows if r.attribute_id == attribute_id]
    return sorted(rows, key=lambda r: LEVEL_ORDER[r.level])  # stable: variables.csv order


def gap_text(gap: Gap, binary: bool, text: Text) -> str:
    if gap.gap is None:
        return f"{text.t('number.none')} ({reason_text(gap.reason, text)})"
    interval = gap.interval
    shown = text.t(
        "tables.gap_value",
        gap=text.gap(gap.gap.fraction, binary),
        interval=text.gap_interval(
            None if interval is None else interval.lo,
            None if interval is None else interval.hi,
            binary,
        ),
        flag=text.flag(gap.flag),
    )
    if not binary:  # count and score gaps carry no point flags (metrics §3)
        shown = shown.rpartition(";")[0]
    return " ".join(shown.split())


def counts_text(test: PairTest, text: Text) -> str:
    """b / c (McNemar) or n′; W⁺ (Wilcoxon)."""
    if test.test == "mcnemar":
        return f"{text.integer(test.b)} / {text.integer(test.c)}"
    w_plus = text.real(test.w_plus, 1)
    return f"{text.integer(test.n_nonzero)}; {w_plus}"


def pair_name(context: RoundContext, test: PairTest, text: Text) -> str:
    return f"{context.group_name(test.g, text)} × {context.group_name(test.h, text)}"


def method_text(test: PairTest, text: Text) -> str:
    if not test.computable or test.method is None:
        return f"{text.t('test.' + test.test)} ({reason_text(test.reason, text)})"
    return text.t(
        "tables.test_value",
        test=text.t(f"test.{test.test}"),
        method=text.t(f"method.{test.method}"),
    )


def population_text(context: RoundContext, row: Row, criterion: str, text: Text) -> str:
    """Which responses a criterion's group values count, in words (metrics §1): every
    response for demographic parity, only those whose expected value is yes for equal
    opportunity."""
    eligible, templates = context.population_templates(row.attribute_id, row.variable_id)
    if criterion == "equal_opportunity":
        return text.t(
            "tables.population.equal_opportunity",
            variable=context.variable_name(row.variable_id, text),
            k=eligible,
            total=templates,
        )
    return text.t("tables.population.demographic_parity", total=templates)


def _criterion_lines(context: RoundContext, row: Row, gap: Gap, text: Text) -> Lines:
    """One criterion's block: the population in words, each group's value over it, the gap."""
    binary = row.type == "binary"
    criterion = text.t(f"criterion.{gap.criterion}")
    if gap.criterion == row.criterion:
        criterion = text.t("criterion.primary", criterion=criterion)
    name = text.t(f"criterion.{gap.criterion}")
    lines: Lines = [
        (
            text.t("tables.population", criterion=criterion),
            population_text(context, row, gap.criterion, text),
        )
    ]
    for group in gap.groups:
        shown = text.t(
            "tables.group_value",
            value=text.value(fraction(group.value), binary),
            n=text.integer(group.n),
            na=text.integer(group.na),
        )
        group_name = context.group_name(group.group_id, text)
        label = text.t("tables.group", group=group_name, criterion=name)
        # The line also gives n and NA: written as shown, the exact value as its tooltip.
        lines.append((label, exact_cell(shown, fraction(group.value))))
    label = text.t("tables.gap", criterion=criterion)
    shown_gap = gap_text(gap, binary, text)  # with its interval and flag: as shown
    lines.append((label, exact_cell(shown_gap, fraction(gap.gap))))
    return lines


def _test_lines(context: RoundContext, row: Row, text: Text) -> Lines:
    test = row.extreme_pair
    if test is None:
        return []
    counts_label = text.t("tables.discordant" if test.test == "mcnemar" else "tables.nonzero")
    return [
        (text.t("tables.pair"), pair_name(context, test, text)),
        (text.t("tables.test"), method_text(test, text)),
        (counts_label, counts_text(test, text)),
        (text.t("tables.statistic"), text.p(test.statistic)),
        (text.t("tables.n_pairs"), text.integer(test.n_pairs)),
        (text.t("tables.p"), text.p(test.p)),
        (text.t("tables.p_adjusted"), text.p(test.p_adjusted)),
    ]


def row_lines(context: RoundContext, row: Row, text: Text) -> Lines:
    """(label, value) of one variable's block, in the spec's order."""
    finding = text.t(f"finding.{row.finding}")
    if row.finding == "not_computable" and row.finding_reason:
        finding = f"{finding} ({reason_text(row.finding_reason, text)})"
    significant = text.t(
        text.plural("tables.significant_value", row.total_pairs),
        k=text.integer(row.significant_pairs),
        total=text.integer(row.total_pairs),
    )
    return [
        *(line for gap in shown_gaps(row) for line in _criterion_lines(context, row, gap, text)),
        *_test_lines(context, row, text),
        (text.t("tables.significant"), significant),
        (text.t("tables.exceeds"), text.yes_no(row.exceeds)),
        (text.t("tables.finding"), finding),
    ]


def pairs_block(
    context: RoundContext, system: SystemResults, row: Row, pairs: Sequence[PairTest], text: Text
) -> TableBlock:
    binary = row.type == "binary"
    header = [
        text.t(f"pairs.column.{key}")
        for key in (
            "pair",
            "difference",
            "test",
            "counts",
            "statistic",
            "n_pairs",
            "p",
            "p_adjusted",
            "significant",
        )
    ]
    body = [
        (
            pair_name(context, p, text),
            exact_cell(text.gap(fraction(p.difference), binary), fraction(p.difference)),
            method_text(p, text),
            counts_text(p, text),
            text.p(p.statistic),
            text.integer(p.n_pairs),
            text.p(p.p),
            text.p(p.p_adjusted),
            text.yes_no(p.significant),
        )
        for p in pairs
    ]
    caption = text.t(
        "tables.pairs_caption",
        system=context.system_name(system.model_id, text),
        attribute=context.attribute_name(row.attribute_id, text),
        variable=context.variable_name(row.variable_id, text),
    )
    table_id = f"cf-{context.round_id}-pairs-{system.model_id}-{row.attribute_id}-{row.variable_id}"
    return text.block(table_id, caption, header, body)


def _attribute_blocks(
    context: RoundContext, system: SystemResults, attribute_id: str, text: Text
) -> list[Block]:
    rows = ordered_rows(system, attribute_id)
    body: list[tuple[str, str, str | Cell]] = []
    folded: list[Block] = []
    for row in rows:
        variable = context.variable_name(row.variable_id, text)
        body += [(variable, label, value) for label, value in row_lines(context, row, text)]
        others = [p for p in row.pairs if p != row.extreme_pair]
        if others:
            summary = text.t(
                "tables.other_pairs",
                attribute=context.attribute_name(attribute_id, text),
                variable=variable,
                count=text.integer(len(others)),
            )
            folded.append(DetailsBlock(summary, pairs_block(context, system, row, others, text)))
    caption = text.t(
        "tables.caption",
        system=context.system_name(system.model_id, text),
        attribute=context.attribute_name(attribute_id, text),
    )
    header = [text.t(f"tables.column.{key}") for key in ("variable", "row", "value")]
    table_id = f"cf-{context.round_id}-table-{system.model_id}-{attribute_id}"
    table = text.block(table_id, caption, header, body, numeric_from=99)
    return [table, *folded]


def tables(context: RoundContext, text: Text) -> tuple[Block, ...]:
    blocks: list[Block] = [paragraph(text.t("tables.intro"))]
    for system in context.results.systems:
        blocks.append(
            heading(context.system_name(system.model_id, text), f"tables-{system.model_id}")
        )
        for attribute in context.round_.attributes:
            blocks += _attribute_blocks(context, system, attribute.attribute_id, text)
    return tuple(blocks)
