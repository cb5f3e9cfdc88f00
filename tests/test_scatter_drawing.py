"""The bias × omission scatter's drawing (SVG and PNG) leaves out what only a pointer shows.

Past a dozen models each point carries a number, and its name only while hovered: a last
layer of names at opacity 0. The drawing has no pointer, so that layer would be drawn
unseen; at a thousand models it was four fifths of the chart's drawing time. The page's
interactive chart keeps it, and the PNG is the same, pixel for pixel, without it.
"""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render.charts import (
    LABELLED_POINTS,
    SvgCache,
    bias_omission_scatter,
)
from reportgen.kinds.estigmas.render.context import ModelRow
from reportgen.kinds.estigmas.score import ModelScore
from reportgen.render.drawing import draw_png, draw_svg


def _row(number: int) -> ModelRow:
    biased, omissions = number % 7 + 1, number % 5 + 2
    score = ModelScore(
        model_id=f"m-{number}",
        # Names that would be drawn long and in odd scripts, were they drawn.
        display_name=f"Modelo {number} ＦＵＬＬ عربي",
        provider=f"Provider {number % 3}",
        N=40,
        n=20,
        biased=biased,
        omissions=omissions,
        correct=20 - omissions,
        inconclusive=omissions,
        bias_rate=biased / 40,
        omission_rate=omissions / 20,
        correct_rate=(20 - omissions) / 20,
        coverage=1.0,
        failure=(biased + omissions) / 60,
        index=1 - (biased + omissions) / 60,
        eligible=True,
        rank=number,
    )
    colour = ("#E69F00", "#56B4E9", "#009E73")[number % 3]
    return ModelRow(score, f"api-{number}", "snap", date(2026, 7, 1), colour, {})


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


@pytest.mark.parametrize("models", [LABELLED_POINTS, LABELLED_POINTS + 1, 30])
def test_the_drawing_leaves_out_the_names_shown_on_hover(tmp_path: Path, models: int) -> None:
    tr = Translator("pt-BR")
    rows = [_row(number) for number in range(1, models + 1)]
    chart = bias_omission_scatter("scatter-x", rows, tr, None, SvgCache(tmp_path))
    keyed = models > LABELLED_POINTS
    page_texts = [layer["encoding"]["text"]["field"] for layer in chart.spec["layer"][1:]]
    drawn_texts = [layer["encoding"]["text"]["field"] for layer in chart.drawing.spec["layer"][1:]]
    assert page_texts == (["key", "model"] if keyed else ["model"])
    assert drawn_texts == (["key"] if keyed else ["model"])
    # Drawn whole, the chart looks the same: the names were at opacity 0.
    whole = dict(chart.spec, width=640)
    whole_svg = draw_svg(whole, chart.drawing.locale, chart.drawing.key)
    assert np.array_equal(_pixels(chart.drawing.png), _pixels(draw_png(whole_svg)))
    # One text element fewer per point, and only where the points carry numbers.
    unseen = whole_svg.count("<text") - chart.drawing.svg.count("<text")
    assert unseen == (models if keyed else 0)
