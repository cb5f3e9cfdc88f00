"""The per-model charts' specs built from a kept template are the specs Altair builds.

`SpecTemplates` builds a chart with Altair once per shape and fills in the data of the
others (reportgen/kinds/estigmas/render/spec_templates.py); here every spec of many models
of varied data (with and without intervals, equal rows, missing styles), in both
languages, equals the one Altair builds from scratch, key order included.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.kinds.estigmas.render.charts import _style_spec
from reportgen.kinds.estigmas.render.model_parts import _failure_rows, _failure_spec
from reportgen.kinds.estigmas.render.spec_templates import SpecTemplates

COLOURS = ("#4477AA", "#EE6677")


def fake_row(rng: random.Random, index: int) -> Any:
    n_all, n_pos = rng.randint(100, 500), rng.randint(50, 200)
    biased, omissions = rng.randint(0, n_all), rng.randint(0, n_pos)
    score = SimpleNamespace(
        biased=biased, N=n_all, omissions=omissions, n=n_pos,
        bias_rate=biased / n_all, omission_rate=omissions / n_pos,
    )  # fmt: skip
    intervals: dict[str, tuple[float, float]] = {}
    kind = index % 4
    if kind in (1, 2):
        intervals["bias_rate"] = (score.bias_rate * 0.9, min(1.0, score.bias_rate * 1.1))
    if kind in (2, 3):
        intervals["omission_rate"] = (score.omission_rate * 0.8, score.omission_rate)
    if index % 7 == 0:  # both rates equal, both intervals equal
        score.omission_rate, score.omissions, score.n = score.bias_rate, biased, n_all
    return SimpleNamespace(score=score, intervals=intervals, colour=COLOURS[index % 2])


def dumped(spec: dict[str, Any]) -> str:
    return json.dumps(spec, ensure_ascii=False)  # key order kept: it is compared too


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_failure_specs_from_templates_equal_altairs(language: str) -> None:
    tr, rng, templates = Translator(language), random.Random(5), SpecTemplates()
    for index in range(40):
        rows = _failure_rows(fake_row(rng, index), tr)
        with_interval = [r for r in rows if r["lower"] is not None and r["upper"] is not None]
        datasets = [rows, with_interval] if with_interval else [rows]
        kept = templates.spec(("failure", language), datasets, lambda d: _failure_spec(d, tr))
        assert dumped(kept) == dumped(_failure_spec(datasets, tr)), index


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_style_specs_from_templates_equal_altairs(language: str) -> None:
    tr, rng, templates = Translator(language), random.Random(6), SpecTemplates()
    for index in range(40):
        model = fake_row(rng, index)
        styles = ["original", "doubt", "positive"][: 1 + index % 3]
        values = [{"style": tr(f"style.{s}"), "bias": rng.random()} for s in styles]
        key = ("style", language, model.colour)

        def build(data: Sequence[list[dict[str, Any]]], m: Any = model) -> dict[str, Any]:
            return _style_spec(data[0], m, tr)

        kept = templates.spec(key, [values], build)
        assert dumped(kept) == dumped(_style_spec(values, model, tr)), index
