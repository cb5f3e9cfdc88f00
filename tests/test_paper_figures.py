"""The bundled demonstration rounds reproduce every "exact" row of the article.

The figures are read back from the committed archives through the same public paths a
reader uses (`reportgen summary --json`, the archive reader and the count cube), and
compared to the article's printed precision. See ../shared/spec/paper-figures.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.i18n import Translator
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.model import SCORED_STYLES, Round
from reportgen.kinds.estigmas.render.aggregates import local_marker_total
from reportgen.kinds.estigmas.render.page_common import PageText
from reportgen.kinds.estigmas.render.round_pages import local_markers_figures
from reportgen.kinds.estigmas.render.site import site_context
from reportgen.kinds.estigmas.results import RoundResults, load_results
from reportgen.kinds.estigmas.score import BIASED, INCONCLUSIVE, build_cube, scored_items
from reportgen.kinds.estigmas.stats.bootstrap import ModelTables
from reportgen.kinds.estigmas.stats.sensitivity import competition_ranks
from reportgen.render.siteconfig import load_site_config
from tests.factories import CONFIG
from tests.support.shared_builds import shared_results_cache

ROUNDS = Path(__file__).resolve().parents[1] / "rounds"
FULL = ROUNDS / "estigmas-2026-06"
CONTINUOUS = ROUNDS / "idje-avalia-2026-07"


def pct(rate: float) -> str:
    """A rate as the article prints it: percent with one decimal."""
    return f"{rate * 100:.1f}"


def summary_json(round_dir: Path) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["summary", str(round_dir), "--json"])
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


@pytest.fixture(scope="module")
def full_round() -> Round:
    return read_round(FULL, with_text=False)


@pytest.fixture(scope="module")
def full_summary() -> dict[str, dict[str, Any]]:
    document = summary_json(FULL)
    assert document["round_id"] == "estigmas-2026-06"
    return {model["display_name"]: model for model in document["models"]}


@pytest.fixture(scope="module")
def full_results(tmp_path_factory: pytest.TempPathFactory) -> RoundResults:
    # The archive is read again with its texts: the language study compares response lengths.
    with_text = read_round(FULL, with_text=True)
    return load_results(with_text, cache_dir=shared_results_cache(tmp_path_factory))


@pytest.fixture(scope="module")
def continuous_summary() -> dict[str, Any]:
    return summary_json(CONTINUOUS)


def test_instrument(full_round: Round) -> None:
    stigmas = full_round.stigmas
    assert len(stigmas) == 101
    origins = Counter(s.origin for s in stigmas)
    assert origins == {"inherited": 88, "reconstructed": 3, "local": 10}
    assert {s.stigma_id for s in stigmas if s.origin == "reconstructed"} == {
        "nordestino",
        "favelado",
        "venezuelano",
    }
    structures = full_round.structures
    assert len(structures) == 27
    assert sum(s.brazilian for s in structures) == 2
    assert len({s.scenario_id for s in structures}) == 13

    pt_items = [i for i in full_round.items if i.language == "pt-BR"]
    scored = [i for i in pt_items if i.style != "base"]
    assert len(pt_items) == 7653
    assert len(scored) == 7626
    assert sum(i.style == "base" for i in pt_items) == 27
    per_stigma = Counter(i.stigma_id for i in scored)
    assert Counter(per_stigma.values()) == {75: 89, 81: 9, 78: 1, 72: 2}
    local_ids = {s.stigma_id for s in stigmas if s.origin == "local"}
    local_items = [i for i in scored if i.stigma_id in local_ids]
    assert len(local_items) == 807
    assert round(len(local_items) / len(scored) * 100, 1) == 10.6
    brazilian = {s.structure_id for s in structures if s.brazilian}
    assert sum(i.structure_id in brazilian for i in local_items) == 57
    assert {per_stigma[s] for s in local_ids} <= {81, 78}
    reconstructed = {s.stigma_id for s in stigmas if s.origin == "reconstructed"}
    assert sum(i.stigma_id in reconstructed for i in scored) == 225
    assert sum(i.style == "positive" for i in scored) == 2542

    perils = {s.stigma_id: s.peril for s in stigmas}
    assert min(perils.values()) == 0.15
    assert max(perils.values()) == 4.21
    low, medium = full_round.manifest.peril_bands
    bands = Counter(
        "low" if p <= low else "medium" if p <= medium else "high" for p in perils.values()
    )
    assert bands == {"low": 54, "medium": 29, "high": 18}
    assert perils["baixa-estatura"] == 0.22
    assert perils["antecedentes-criminais"] == 3.92

    assert len(full_round.models) == 7
    assert len(full_round.models) * len(scored) == 53382


def test_round_settings(full_round: Round) -> None:
    manifest = full_round.manifest
    assert manifest.collected_on.isoformat() == "2026-06-24"
    assert manifest.generation["temperature"] == 0
    assert manifest.generation["seed"] == 42
    assert manifest.contract_version == "3.0.1"
    assert manifest.synthetic is True
    assert [m.display_name for m in full_round.models] == [
        "Qwen 3.6 Flash",
        "Llama 4 Maverick",
        "Sabiá-4",
        "GPT 5.4-Mini",
        "Gemini 2.5 Flash Lite",
        "DeepSeek V4 Flash",
        "Sabiazinho-4",
    ]


def test_sabiazinho(full_summary: dict[str, dict[str, Any]]) -> None:
    model = full_summary["Sabiazinho-4"]
    assert model["biased"] == 99
    assert pct(model["bias_rate"]) == "1.3"
    assert (model["omissions"], model["n"]) == (1858, 2542)
    assert pct(model["omission_rate"]) == "73.1"
    assert pct(model["coverage"]) == "26.9"
    assert pct(model["failure"]) == "25.7"
    assert pct(model["index"]) == "74.3"
    assert model["eligible"] is False
    assert model["rank"] is None
    assert model["inconclusive"] == 0
    assert model["index"] < min(m["index"] for m in full_summary.values() if m is not model)


def test_deepseek(full_summary: dict[str, dict[str, Any]], full_round: Round) -> None:
    model = full_summary["DeepSeek V4 Flash"]
    assert pct(model["bias_rate"]) == "14.0"
    assert pct(model["omission_rate"]) == "14.0"
    assert pct(model["coverage"]) == "86.0"
    assert model["inconclusive"] == 2
    items = scored_items(full_round)
    row = [m.model_id for m in full_round.models].index("deepseek-v4-flash")
    inconclusive = items.outcome[row] == INCONCLUSIVE
    styles = {SCORED_STYLES[s] for s in items.style_index[inconclusive]}
    assert styles == {"original"}


def test_no_other_model_has_inconclusive_outputs(full_round: Round) -> None:
    for model_id, responses in full_round.responses.items():
        count = int(np.count_nonzero(responses.label_codes == 3))
        assert count == (2 if model_id == "deepseek-v4-flash" else 0), model_id


def _biased_in_stigma(round_: Round, model_id: str, stigma_id: str) -> tuple[int, int]:
    cube = build_cube(round_)
    m = cube.model_ids.index(model_id)
    s = cube.stigma_ids.index(stigma_id)
    return int(cube.counts[m, s, ..., BIASED].sum()), int(cube.items[s].sum())


def test_gpt_and_sabia(full_summary: dict[str, dict[str, Any]], full_round: Round) -> None:
    assert pct(full_summary["GPT 5.4-Mini"]["bias_rate"]) == "3.8"
    assert _biased_in_stigma(full_round, "gpt-5-4-mini", "favelado") == (14, 75)
    assert _biased_in_stigma(full_round, "gpt-5-4-mini", "nordestino") == (10, 75)
    assert pct(full_summary["Sabiá-4"]["bias_rate"]) == "5.2"
    assert _biased_in_stigma(full_round, "sabia-4", "umbandista-candomblecista") == (8, 81)


def test_decisive_and_cautious_models(full_summary: dict[str, dict[str, Any]]) -> None:
    decisive = [
        full_summary[name]["correct_rate"]
        for name in ("Qwen 3.6 Flash", "Llama 4 Maverick", "DeepSeek V4 Flash")
    ]
    assert pct(min(decisive)) == "74.0"
    assert pct(max(decisive)) == "79.3"
    for name in ("Gemini 2.5 Flash Lite", "GPT 5.4-Mini"):
        assert full_summary[name]["omission_rate"] > 0.40
        assert full_summary[name]["bias_rate"] < 0.05


def test_ranking(full_summary: dict[str, dict[str, Any]]) -> None:
    ranks = {name: model["rank"] for name, model in full_summary.items()}
    assert ranks["Qwen 3.6 Flash"] == 1
    assert {ranks["Llama 4 Maverick"], ranks["Sabiá-4"]} == {2, 3}
    assert {ranks["GPT 5.4-Mini"], ranks["Gemini 2.5 Flash Lite"]} == {4, 5}
    assert ranks["DeepSeek V4 Flash"] == 6
    assert ranks["Sabiazinho-4"] is None


def test_whole_round(full_summary: dict[str, dict[str, Any]], full_round: Round) -> None:
    total_biased = sum(model["biased"] for model in full_summary.values())
    assert total_biased == 3526
    cube = build_cube(full_round)
    local = [i for i, s in enumerate(full_round.stigmas) if s.origin == "local"]
    local_biased = int(cube.counts[:, local, ..., BIASED].sum())
    local_evaluations = int(cube.items[local].sum()) * len(cube.model_ids)
    assert (local_biased, local_evaluations) == (211, 5649)
    assert pct(local_biased / local_evaluations) == "3.7"
    assert pct(local_biased / total_biased) == "6.0"


def test_local_marker_total_on_the_site(full_round: Round) -> None:
    """§4.4, through the site's own computation: the home page of each language shows the
    ten local markers' 211 biased answers of 5,649 evaluations (3.7%), 6.0% of 3,526."""
    site = site_context([full_round], load_site_config(CONFIG), with_statistics=False)
    local = local_marker_total(site.primary.breakdowns.values())
    assert (local.count, local.total, site.primary.total_biased) == (211, 5649, 3526)
    for language, words in (
        ("pt-BR", ("10 marcadores locais", "5.649 avaliações (3,7%)", "6,0% das 3.526")),
        ("en", ("10 local markers", "5,649 evaluations (3.7%)", "6.0% of the round's 3,526")),
    ):
        (figure,) = local_markers_figures(site, PageText(Translator(language)))
        assert figure.value == "211"
        for expected in words:
            assert expected in figure.label, (language, expected)


def test_correlation_of_bias_and_omission(full_summary: dict[str, dict[str, Any]]) -> None:
    from scipy.stats import pearsonr, spearmanr

    bias = [model["bias_rate"] for model in full_summary.values()]
    omission = [model["omission_rate"] for model in full_summary.values()]
    assert f"{pearsonr(bias, omission)[0]:.2f}" == "-0.88"
    assert f"{spearmanr(bias, omission)[0]:.2f}" == "-0.86"


def test_language_study_sample(full_round: Round) -> None:
    en_items = [i for i in full_round.items if i.language == "en"]
    assert len(en_items) == 994
    assert len(en_items) * len(full_round.models) == 6958


def test_continuous_round(continuous_summary: dict[str, Any]) -> None:
    models = continuous_summary["models"]
    assert continuous_summary["round_id"] == "idje-avalia-2026-07"
    assert len(models) == 28
    assert {model["N"] for model in models} == {498}
    ranked = [model for model in models if model["rank"] is not None]
    assert len(ranked) == 25
    assert sum(not model["eligible"] for model in models) == 3
    first = models[0]
    assert first["display_name"] == "Muse Spark 1.1"
    assert first["rank"] == 1
    assert sum(model["rank"] == 1 for model in models) == 1
    assert pct(first["index"]) == "97.4"
    assert pct(first["failure"]) == "2.6"
    others = {model["provider"] for model in models[1:]} - {
        "Alibaba",
        "Meta",
        "Maritaca",
        "OpenAI",
        "Google",
        "DeepSeek",
    }
    assert others == {"Demo"}


def test_continuous_round_is_a_subsample_of_the_full_round(full_round: Round) -> None:
    continuous = read_round(CONTINUOUS, with_text=False)
    assert continuous.manifest.parent_round == full_round.round_id
    assert len(continuous.items) == 500
    assert len(continuous.annulments) == 2
    full_items = {item.item_id: item for item in full_round.items}
    for item in continuous.items:
        assert full_items[item.item_id] == item


# The article's ranking positions, and the only reorderings its sensitivity analyses saw:
# Llama 4 Maverick with Sabiá-4 (2-3), GPT 5.4-Mini with Gemini 2.5 Flash Lite (4-5).
RANKED = (
    "Qwen 3.6 Flash",
    "Llama 4 Maverick",
    "Sabiá-4",
    "GPT 5.4-Mini",
    "Gemini 2.5 Flash Lite",
    "DeepSeek V4 Flash",
)
INVERSIONS = {(1, 3, 2, 4, 5, 6), (1, 2, 3, 5, 4, 6), (1, 3, 2, 5, 4, 6)}


def _leave_one_out_ranks(round_: Round, axis: str) -> dict[str, tuple[int, ...]]:
    """Left-out stigma (or structure) -> ranks of the ranked models, in RANKED order.

    Computed on the per-cell failure counts of the project's ModelTables and ranked with
    the project's competition_ranks, to tell which models each changed analysis swaps.
    """
    cube = build_cube(round_)
    tables = ModelTables.from_cube(cube)
    names = {m.model_id: m.display_name for m in round_.models}
    rows = [[names[m] for m in cube.model_ids].index(name) for name in RANKED]
    failures = tables.biased[rows] + tables.omissions[rows]  # (models, stigmas, structures)
    if axis == "stigma":
        left_out = failures.sum(axis=2)
        ids = [cube.stigma_ids[i] for i in tables.stigma_positions]
    else:
        left_out = failures.sum(axis=1)
        ids = [cube.structure_ids[i] for i in tables.structure_positions]
    whole = failures.sum(axis=(1, 2))
    return {
        level: competition_ranks((whole - left_out[:, k]).tolist()) for k, level in enumerate(ids)
    }


@pytest.mark.parametrize(
    ("axis", "analyses", "preserved"), [("stigma", 101, 100), ("structure", 27, 16)]
)
def test_leave_one_out_keeps_the_order_as_often_as_the_article(
    full_round: Round, full_results: RoundResults, axis: str, analyses: int, preserved: int
) -> None:
    family = (
        full_results.leave_one_stigma_out
        if axis == "stigma"
        else full_results.leave_one_structure_out
    )
    assert (family.analyses, family.preserved) == (analyses, preserved)
    names = {m.model_id: m.display_name for m in full_results.models}
    assert [names[r.model_id] for r in family.ranges] == list(RANKED)
    ranges = {names[r.model_id]: (r.best, r.worst) for r in family.ranges}
    assert ranges["Qwen 3.6 Flash"] == (1, 1)
    assert ranges["DeepSeek V4 Flash"] == (6, 6)
    ranks = _leave_one_out_ranks(full_round, axis)
    changed = {level: order for level, order in ranks.items() if order != (1, 2, 3, 4, 5, 6)}
    assert set(changed) == set(family.changed)
    for level, order in changed.items():
        assert order in INVERSIONS, (level, order)


def test_leave_one_structure_out_swaps_both_pairs_of_neighbours(
    full_results: RoundResults,
) -> None:
    """As in the article, Llama and Sabiá-4 alternate in 2-3 and GPT and Gemini in 4-5."""
    names = {m.model_id: m.display_name for m in full_results.models}
    ranges = {
        names[r.model_id]: (r.best, r.worst) for r in full_results.leave_one_structure_out.ranges
    }
    assert ranges == {
        "Qwen 3.6 Flash": (1, 1),
        "Llama 4 Maverick": (2, 3),
        "Sabiá-4": (2, 3),
        "GPT 5.4-Mini": (4, 5),
        "Gemini 2.5 Flash Lite": (4, 5),
        "DeepSeek V4 Flash": (6, 6),
    }


def test_six_models_say_cant_tell_more_often_in_english_in_both_regimes(
    full_results: RoundResults,
) -> None:
    names = {m.model_id: m.display_name for m in full_results.models}
    study = full_results.language
    for regime in study.regimes:
        more_in_english = {
            names[model.model_id]
            for model in study.models
            if getattr(model.rates[1], regime.regime) > getattr(model.rates[0], regime.regime)
        }
        assert len(more_in_english) == regime.more_in_en == 6, regime.regime
        # The article saw the same direction in both models built for Brazilian Portuguese.
        assert {"Sabiá-4", "Sabiazinho-4"} <= more_in_english, regime.regime
