"""Scoring against hand-computed golden rounds (tests/golden/scoring/<case>/).

Each case is a tiny round written as plain CSV files; `expected.json` holds the counts,
rates (as exact fractions), eligibility and ranks worked out by hand from metrics.md.
This module also provides `memory_round`, the in-memory `Round` builder the other
scoring tests reuse.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import numpy as np
import pytest

from reportgen.kinds.estigmas.model import (
    LABEL_CODE,
    Annulment,
    Axis,
    Gender,
    Item,
    Label,
    Language,
    Manifest,
    Model,
    ModelResponses,
    Round,
    Stigma,
    Structure,
    Style,
    Variant,
)
from reportgen.kinds.estigmas.score import (
    ScoringError,
    build_cube,
    paired_sample,
    score_models,
    scored_items,
)

GOLDEN = Path(__file__).parent / "golden" / "scoring"
CASES = sorted(path.name for path in GOLDEN.iterdir() if path.is_dir())


def memory_round(
    *,
    round_id: str = "test-round",
    kind: Variant = "full",
    max_omission: float = 0.5,
    synthetic: bool = True,
    models: Sequence[tuple[str, str, str]],
    stigmas: Sequence[tuple[str, Axis | None]],
    structures: Sequence[tuple[str, str]],
    items: Sequence[Item],
    labels: Mapping[str, Sequence[Label]],
    annulled: Sequence[str] = (),
    texts: Mapping[str, Sequence[str]] | None = None,
) -> Round:
    """A `Round` held in memory: models are (id, display name, provider), stigmas
    (id, axis), structures (id, biased answer); `labels[model_id]` is aligned with `items`."""
    day = date(2026, 6, 24)
    manifest = Manifest(
        round_id=round_id,
        variant=kind,
        title={"pt-BR": "Rodada de teste", "en": "Test round"},
        collected_on=day,
        protocol_frozen_on=day,
        contract_version="3.0.1",
        parser_version="test",
        generation={"temperature": 0, "seed": 42, "system_prompt": None},
        instruction={"pt-BR": "Responda com sim/não/não sei.", "en": "Answer yes/no/can't tell."},
        max_omission=max_omission,
        peril_bands=(1.0, 2.5),
        bootstrap_replicates=100,
        bootstrap_seed=42,
        synthetic=synthetic,
        parent_round=None,
    )
    responses: dict[str, ModelResponses] = {}
    for model_id, _, _ in models:
        codes = np.array([LABEL_CODE[label] for label in labels[model_id]], dtype=np.int8)
        codes.flags.writeable = False
        model_texts = tuple(texts[model_id]) if texts is not None else ()
        responses[model_id] = ModelResponses(
            model_id=model_id,
            raw_text=model_texts,
            label_codes=codes,
            latency_ms=(None,) * len(items),
        )
    return Round(
        path=Path(round_id),
        manifest=manifest,
        models=tuple(
            Model(model_id, display, provider, model_id, "", day)
            for model_id, display, provider in models
        ),
        stigmas=tuple(
            Stigma(stigma_id, stigma_id, stigma_id, "inherited", 1.0, "assigned", axis)
            for stigma_id, axis in stigmas
        ),
        structures=tuple(
            Structure(structure_id, "scenario", "cenário", "scenario", cast(Any, answer), False)
            for structure_id, answer in structures
        ),
        items=tuple(items),
        responses=MappingProxyType(responses),
        annulments=tuple(
            Annulment(
                item_id, day, "contestation", f"contest-{item_id}", {"pt-BR": "-", "en": "-"}, ""
            )
            for item_id in annulled
        ),
        checksums={},
        ledger_sha256="",
    )


def make_item(
    item_id: str,
    stigma_id: str | None,
    structure_id: str,
    style: Style,
    gender: Gender = "unspecified",
    language: Language = "pt-BR",
    pair_item_id: str | None = None,
) -> Item:
    """An item with placeholder prompt and canary (scoring never reads them)."""
    return Item(
        item_id=item_id,
        stigma_id=stigma_id,
        structure_id=structure_id,
        style=style,
        target_gender=gender,
        language=language,
        pair_item_id=pair_item_id,
        prompt=f"prompt {item_id}",
        canary=f"canary-{item_id}",
        published=False,
    )


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def golden_round(case: str) -> Round:
    """Turn the plain files of one golden case into an in-memory `Round`."""
    folder = GOLDEN / case
    about = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    items = [
        make_item(
            row["item_id"],
            row["stigma_id"] or None,
            row["structure_id"],
            cast(Style, row["style"]),
            cast(Gender, row["target_gender"]),
            cast(Language, row["language"]),
            row["pair_item_id"] or None,
        )
        for row in _rows(folder / "items.csv")
    ]
    models = [
        (r["model_id"], r["display_name"], r["provider"]) for r in _rows(folder / "models.csv")
    ]
    by_model: dict[str, dict[str, Label]] = {model_id: {} for model_id, _, _ in models}
    for row in _rows(folder / "responses.csv"):
        by_model[row["model_id"]][row["item_id"]] = cast(Label, row["label"])
    return memory_round(
        round_id=about["round_id"],
        kind=about["kind"],
        max_omission=about["max_omission"],
        synthetic=about["synthetic"],
        models=models,
        stigmas=[
            (r["stigma_id"], cast(Axis, r["axis"] or None)) for r in _rows(folder / "stigmas.csv")
        ],
        structures=[
            (r["structure_id"], r["biased_answer"]) for r in _rows(folder / "structures.csv")
        ],
        items=items,
        labels={m: [by_model[m][item.item_id] for item in items] for m in by_model},
        annulled=(folder / "annulled.txt").read_text(encoding="utf-8").split(),
    )


def _expected(case: str) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads((GOLDEN / case / "expected.json").read_text("utf-8"))
    return expected


@pytest.mark.parametrize("case", CASES)
def test_golden_scores_match_hand_computation(case: str) -> None:
    expected = _expected(case)
    scores = score_models(golden_round(case))
    assert [s.model_id for s in scores] == [m["model_id"] for m in expected["models"]]
    for score, wanted in zip(scores, expected["models"], strict=True):
        assert (score.N, score.n) == (expected["N"], expected["n"])
        for field in ("biased", "omissions", "correct", "inconclusive", "eligible", "rank"):
            assert getattr(score, field) == wanted[field], (score.model_id, field)
        for field in ("bias_rate", "omission_rate", "correct_rate", "coverage", "failure", "index"):
            exact = float(Fraction(wanted[field]))
            assert getattr(score, field) == pytest.approx(exact, abs=1e-15), (score.model_id, field)


@pytest.mark.parametrize("case", CASES)
def test_golden_cube_and_pairs(case: str) -> None:
    round_ = golden_round(case)
    expected = _expected(case)
    cube = build_cube(round_)
    assert int(cube.items.sum()) == expected["N"]
    assert scored_items(round_).outcome.shape == (len(round_.models), expected["N"])
    assert paired_sample(round_).pair_item_ids == tuple(expected["paired_items"])
    # Passing a prebuilt cube gives the same scores as building it inside.
    assert score_models(round_, cube) == score_models(round_)


def test_golden_cases_cover_what_the_brief_asks() -> None:
    """The golden set must keep covering ties, diagnostics, annulments and every style."""
    rounds = [golden_round(case) for case in CASES]
    expected = [_expected(case)["models"] for case in CASES]
    ranks = [m["rank"] for models in expected for m in models]
    assert len(CASES) >= 3
    assert None in ranks
    assert any(
        len(set(r)) < len(r) for r in ([m["rank"] for m in ms if m["rank"]] for ms in expected)
    )
    assert any(r.annulments for r in rounds)
    assert any(m["inconclusive"] for models in expected for m in models)
    assert {s.biased_answer for r in rounds for s in r.structures} == {"yes", "no"}
    assert {i.style for r in rounds for i in r.items} == {"original", "doubt", "positive", "base"}
    assert {i.language for r in rounds for i in r.items} == {"pt-BR", "en"}


def _one_stigma_round(styles: list[Style], annulled: list[str]) -> Round:
    items = [
        make_item(f"k{k}", "s1", "t1", style, "male", "pt-BR", None)
        for k, style in enumerate(styles)
    ]
    return memory_round(
        round_id="edge-round",
        models=[("m1", "Model One", "Provider")],
        stigmas=[("s1", None)],
        structures=[("t1", "yes")],
        items=items,
        labels={"m1": ["yes"] * len(items)},
        annulled=annulled,
    )


def test_a_round_with_every_item_annulled_cannot_be_scored() -> None:
    round_ = _one_stigma_round(["original", "positive", "base"], ["k0", "k1"])
    with pytest.raises(ScoringError, match=r"'edge-round' has no scored items \(N = 0\)"):
        score_models(round_)


def test_a_round_without_positive_items_cannot_be_scored() -> None:
    round_ = _one_stigma_round(["original", "doubt", "positive"], ["k2"])
    with pytest.raises(ScoringError, match=r"no scored items of style 'positive' \(n = 0\)"):
        score_models(round_)


def test_misaligned_responses_are_reported_by_file() -> None:
    round_ = _one_stigma_round(["original", "positive"], [])
    short = replace(round_.responses["m1"], label_codes=np.zeros(1, dtype=np.int8))
    broken = replace(round_, responses=MappingProxyType({"m1": short}))
    with pytest.raises(ScoringError, match=r"responses/m1\.parquet: 1 labels, expected .* \(2\)"):
        build_cube(broken)


def test_cube_and_item_arrays_are_read_only() -> None:
    round_ = golden_round(CASES[0])
    cube = build_cube(round_)
    scored = scored_items(round_)
    pairs = paired_sample(round_)
    for array in (cube.counts, cube.items, scored.outcome, scored.style_index, pairs.outcome):
        assert not array.flags.writeable
