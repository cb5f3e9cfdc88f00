"""The round indexed once for every cross-table rule: dicts by id and by response.

A REG round holds about 32,000 responses and 100,000 jury rows; every rule reads these
dicts instead of scanning the tables again, so that all rules together stay linear.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from reportgen.archive import response_path
from reportgen.kinds._fields import by_field
from reportgen.kinds.multidomain.model import (
    Item,
    Judge,
    Participant,
    Response,
    ResponseKey,
    Round,
)
from reportgen.kinds.multidomain.terms import active_items, is_jury_scored

MODELS = "models.csv"
ITEMS = "items.parquet"
JUDGE_VIEWS = "judge_views.parquet"
JURY = "jury.parquet"
ADJUDICATIONS = "adjudications.parquet"
CALIBRATION = "calibration.parquet"
AUDIT = "audit.parquet"
LEDGER = "annulments.jsonl"


def responses_file(model_id: str) -> str:
    return response_path(model_id)


def response_where(key: ResponseKey) -> str:
    """How a problem names one response: its (item, participant, run)."""
    item_id, model_id, run = key
    return f"response ({item_id}, {model_id}, run {run})"


def criteria_problem(scored: Iterable[str], expected: Iterable[str]) -> str | None:
    """What is wrong with one rater's criteria of one response, or None when each
    criterion of the rubric is scored exactly once."""
    listed, wanted = list(scored), list(expected)
    if listed == wanted:  # the usual case (rows in rubric order), cheapest
        return None
    listed.sort()
    wanted.sort()
    if listed == wanted:  # the usual case, cheaply (about 100,000 raters x responses)
        return None
    counted = Counter(listed)
    missing = sorted(set(wanted) - counted.keys())
    extra = sorted(counted.keys() - set(wanted))
    twice = sorted(c for c, n in counted.items() if n > 1 and c in wanted)
    parts = [
        f"{label} {', '.join(ids)}"
        for label, ids in (("missing", missing), ("not in the rubric", extra), ("twice", twice))
        if ids
    ]
    if not parts:
        return None
    return f"criteria {'; '.join(parts)} (expected each of {', '.join(wanted)} once)"


def scale_text(scale: tuple[int, int]) -> str:
    return f"an integer in {scale[0]}..{scale[1]} (multidomain.jury.scale)"


@dataclass(frozen=True)
class RoundIndex:
    """The round's rows by id, built once."""

    round_: Round

    @cached_property
    def items(self) -> Mapping[str, Item]:
        return by_field(self.round_.items, "item_id")

    @cached_property
    def active_ids(self) -> frozenset[str]:
        return frozenset(item.item_id for item in active_items(self.round_.items))

    @cached_property
    def participants(self) -> Mapping[str, Participant]:
        return by_field(self.round_.models, "model_id")

    @cached_property
    def judges(self) -> Mapping[str, Judge]:
        return by_field(self.round_.judges, "judge_id")

    @cached_property
    def criteria(self) -> Mapping[str, tuple[str, ...]]:
        """rubric_id -> its criterion ids in position order."""
        by_rubric: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for criterion in self.round_.rubrics:
            by_rubric[criterion.rubric_id].append((criterion.position, criterion.criterion_id))
        return {rubric: tuple(c for _, c in sorted(rows)) for rubric, rows in by_rubric.items()}

    def item_criteria(self, item_id: str) -> tuple[str, ...]:
        item = self.items.get(item_id)
        if item is None or item.rubric_id is None:
            return ()
        return self.criteria.get(item.rubric_id, ())

    @cached_property
    def responses(self) -> Mapping[ResponseKey, Response]:
        """Every participant's responses by (item_id, model_id, run)."""
        return {
            (response.item_id, response.model_id, response.run): response
            for rows in self.round_.responses.values()
            for response in rows
        }

    @cached_property
    def jury_scored(self) -> frozenset[ResponseKey]:
        """The responses the jury must score (terms.is_jury_scored)."""
        items = self.items
        return frozenset(
            key
            for key, response in self.responses.items()
            if key[1] in self.participants
            and key[0] in items
            and not items[key[0]].calibration
            and is_jury_scored(items[key[0]], response)
        )
