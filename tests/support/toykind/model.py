"""The toy kind's round: its items, responses, scores (`toy_scores.csv`) and the round
that holds them, with the one score it computes (each model's mean)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from reportgen.archive import FileProblems, Record
from reportgen.kinds import TableSpec
from reportgen.model import Round

SCORES_FILE = "toy_scores.csv"


@dataclass(frozen=True)
class ToyItem:
    item_id: str
    language: str
    prompt: str
    canary: str | None
    published: bool


@dataclass(frozen=True)
class ToyResponse:
    item_id: str
    model_id: str
    raw_text: str
    run: int = 1
    latency_ms: float | None = None


@dataclass(frozen=True)
class ToyScore:
    item_id: str
    model_id: str
    score: int


@dataclass(frozen=True, kw_only=True)
class ToyRound(Round):
    scores: tuple[ToyScore, ...]
    outputs: Mapping[str, tuple[str, ...]]  # model_id -> raw texts, aligned with items

    def mean_scores(self) -> dict[str, float]:
        """Each model's mean score over the items not annulled."""
        kept = [s for s in self.scores if s.item_id not in self.annulled_item_ids]
        return {
            m.model_id: sum(s.score for s in kept if s.model_id == m.model_id)
            / max(1, sum(1 for s in kept if s.model_id == m.model_id))
            for m in self.models
        }


def _parse_scores(records: Sequence[Record], found: FileProblems) -> tuple[ToyScore, ...]:
    rows = []
    for number, record in records:
        text = record["score"]
        if not text.isdigit() or not 0 <= int(text) <= 10:
            found.add(f"row {number}", f"score {text!r} is not an integer from 0 to 10")
            continue
        rows.append(ToyScore(record["item_id"], record["model_id"], int(text)))
    return tuple(rows)


def _score_row(row: object) -> list[str]:
    score = cast(ToyScore, row)
    return [score.item_id, score.model_id, str(score.score)]


TABLES = (TableSpec(SCORES_FILE, ("item_id", "model_id", "score"), _parse_scores, _score_row),)
