"""A table cell carries its value beside its text: the page shows the rounded, localized text,
the table's CSV writes the value in full precision (issue 20, point 4)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from reportgen.kinds.counterfactual.render.text import Text as CfText
from reportgen.kinds.counterfactual.render.text import exact_cell
from reportgen.kinds.multidomain.render.text import Text as MdText
from reportgen.kinds.multidomain.results import Exact, SliceScore
from reportgen.render.table import AS_SHOWN, Cell, Estimate, ValueText, cell_download, to_html
from reportgen.render.text import DASH


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _score(score: Fraction, lo: Fraction, hi: Fraction) -> SliceScore:
    return SliceScore(
        slice="primary",
        score=Exact.of(score),
        lo=Exact.of(lo),
        hi=Exact.of(hi),
        n=12,
        possible=12,
        undefined_replicates=0,
    )


def test_the_csv_writes_values_never_localized_display_text() -> None:
    text = MdText("pt-BR")
    rate = Exact.of(Fraction(1, 3))
    block = text.block(
        "t",
        "caption",
        ["participant", "rate", "score", "elo", "n", "absent"],
        [
            (
                "Aurora 4",
                text.rate(rate),
                text.score(_score(Fraction(8059, 100), Fraction(781, 10), Fraction(83))),
                text.real(1677.9290839869152),
                text.integer(73171),
                DASH,
            )
        ],
    )
    html = str(to_html(block.table))
    for shown in ("33,3%", "1.677,93", "73.171"):  # the page: pt-BR
        assert shown in html
    assert _rows(block.csv_text) == [
        [
            "participant",
            "rate",
            "score",
            "score (limite inferior)",
            "score (limite superior)",
            "elo",
            "n",
            "absent",
        ],
        ["Aurora 4", repr(1 / 3), "80.59", "78.1", "83.0", "1677.9290839869152", "73171", ""],
    ]


def test_an_estimate_column_writes_empty_bounds_for_a_plain_cell() -> None:
    text = MdText("en")
    score = _score(Fraction(1, 2), Fraction(1, 4), Fraction(3, 4))
    block = text.block("t", "c", ["name", "score"], [("a", text.score(score)), ("b", DASH)])
    assert _rows(block.csv_text)[1:] == [["a", "0.5", "0.25", "0.75"], ["b", "", "", ""]]


def test_a_rating_that_is_not_estimable_is_an_empty_field() -> None:
    text = MdText("en")
    shown = text.rating(None, None, None)
    assert isinstance(shown, ValueText)
    assert shown.value is None
    assert cell_download(Cell.of(shown)) == (None,)


def test_a_counterfactual_cell_carries_its_fraction_as_tooltip_and_value() -> None:
    text = CfText("en")
    gap = Fraction(5, 6)
    cell = exact_cell(text.gap(gap, True), gap)
    assert (cell.title, cell.text, cell.value) == ("5/6", "83.3 pp", gap)
    block = text.block("t", "c", ["name", "gap", "yes"], [("a", cell, text.yes_no(True))])
    assert 'title="5/6"' in str(to_html(block.table))
    assert _rows(block.csv_text)[1] == ["a", repr(5 / 6), "true"]


def test_text_that_says_more_than_a_number_is_written_as_shown() -> None:
    text = CfText("en")
    composite = f"{text.integer(3)} / {text.integer(4)}"  # McNemar's b / c
    assert not isinstance(composite, ValueText)
    cell = exact_cell(composite, None)
    assert cell.value is AS_SHOWN
    assert cell.title is None
    assert cell_download(cell) == ("3 / 4",)


def test_an_estimate_writes_three_fields() -> None:
    cell = Cell("x", value=Estimate(Fraction(1, 3), 0.25, None))
    assert cell_download(cell, 3) == (repr(1 / 3), "0.25", None)
    assert cell_download(Cell("y", value=2), 3) == ("2", None, None)
