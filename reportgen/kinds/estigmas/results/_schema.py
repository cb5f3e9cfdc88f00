"""The Estigmas results object as frozen pydantic models: its JSON form and its JSON Schema.

The JSON form (`RoundResults.to_json_dict()`, written by `reportgen stats ROUND --out
results.json`) is the models below, field for field: an object keeps its fields in
declaration order, a tuple is a list, `None` is `null`; rates and p-values are unrounded
floats. The values the statistics engine computes (ModelScore, LeaveOneOut, TestFamily, ...)
are the engine's frozen dataclasses; pydantic validates and describes them with the same
settings as the models (strict types, no unknown keys). `schema` names the version of the
form and changes whenever a field does. `results.schema.json`, beside this module, is the
JSON Schema generated from these models (`python -m reportgen.kinds.schemas estigmas`
writes it again; a test fails when it is stale).
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field

from reportgen.kinds.estigmas.score import ModelScore
from reportgen.kinds.estigmas.stats.diagnostics import GenderGap
from reportgen.kinds.estigmas.stats.fairness import FairnessGaps
from reportgen.kinds.estigmas.stats.language import LanguageStudy
from reportgen.kinds.estigmas.stats.sensitivity import LeaveOneOut
from reportgen.kinds.estigmas.stats.significance import Correlation, McNemarTest, TestFamily
from reportgen.results.exact import ResultsModel
from reportgen.results.schema import SCHEMA_FILE as SCHEMA_FILE
from reportgen.results.schema import ResultsDocument, ResultsSchema

SchemaVersion = Literal["reportgen-results/3"]
SCHEMA: Final[SchemaVersion] = "reportgen-results/3"  # mypy checks that the two agree

# Strict: a JSON document must carry exactly these keys with exactly these types (an integer
# where a float is expected is the only widening), as the hand-written decoder required.


class Interval(ResultsModel):
    """A point estimate with its 95% crossed-bootstrap percentile interval."""

    estimate: float
    lower: float | None = Field(
        description="2.5th percentile of the replicates; null when no replicate had a"
        " non-zero denominator"
    )
    upper: float | None = Field(description="97.5th percentile of the replicates")
    denominator: Literal["N", "n"] = Field(
        description="N: scored items; n: scored items of style positive"
    )
    denominator_count: int


class ModelIntervals(ResultsModel):
    """One model's intervals for the five per-model statistics."""

    model_id: str
    failure: Interval
    index: Interval
    bias_rate: Interval
    omission_rate: Interval
    correct_rate: Interval


class RankInterval(ResultsModel):
    """A ranked model's rank with the 95% interval of its ranks over the bootstrap replicates."""

    model_id: str
    rank: int = Field(description="the round's rank (competition ranking: ties share a rank)")
    best: int = Field(description="2.5th percentile of the replicates' ranks (lower method)")
    worst: int = Field(description="97.5th percentile of the replicates' ranks (higher method)")


class IndexDifference(ResultsModel):
    """index(model_a) - index(model_b) with its interval from the same replicates."""

    model_a: str
    model_b: str
    estimate: float
    lower: float | None
    upper: float | None
    separated: bool = Field(description="the interval excludes zero")


class RoundResults(ResultsDocument, ResultsModel):
    """Every interval and test of one Estigmas round (docs/metrics.md)."""

    # `schema` is an alias: a field of that name would shadow BaseModel.schema().
    schema_: SchemaVersion = Field(alias="schema", description="version of this JSON form")
    round_id: str
    kind: str = Field(description="the round's variant: full or continuous")
    synthetic: bool = Field(description="the round holds demonstration data")
    package_version: str = Field(description="version of reportgen that computed the results")
    replicates: int = Field(description="bootstrap replicates")
    seed: int = Field(
        description="bootstrap seed; with each test's name it also seeds the permutation tests"
    )
    permutations: int = Field(
        description="most random draws behind a Monte Carlo permutation p-value (fairness"
        " gaps, chi-square tests with expected counts below 5); a test whose p is clearly"
        " large stops earlier (docs/metrics.md)"
    )
    endpoint_error: float | None = Field(
        description="largest Monte Carlo standard error of an endpoint of the per-model"
        " intervals (order-statistic estimate); null when no interval exists"
    )
    models: tuple[ModelScore, ...] = Field(
        description="per-model counts and rates: ranked models by rank, then diagnostic cases"
    )
    intervals: tuple[ModelIntervals, ...] = Field(description="same order as models")
    ranks: tuple[RankInterval, ...] = Field(
        description="ranked models in ranking order: the 95% interval of each one's rank"
    )
    differences: tuple[IndexDifference, ...] = Field(
        description="index differences for every ordered pair of distinct models (up to 50"
        " models; beyond, the neighbours in the ranking, both ways)"
    )
    adjacent: tuple[IndexDifference, ...] = Field(
        description="index differences between neighbours in the ranking, best first"
    )
    leave_one_stigma_out: LeaveOneOut
    leave_one_structure_out: LeaveOneOut
    correlation: Correlation = Field(description="bias rate against omission rate across models")
    peril: TestFamily = Field(description="per model: biased x peril band")
    style: TestFamily = Field(description="per model: biased x prompt style")
    race: TestFamily = Field(description="per model: biased x stigma on the race axis")
    origin: TestFamily = Field(description="per model: biased x stigma on the origin axis")
    gender_gaps: tuple[GenderGap, ...]
    gender_tests: tuple[TestFamily, ...] = Field(
        description="one family per model: biased x gender within each tested stigma"
    )
    mcnemar: tuple[McNemarTest, ...] = Field(
        description="every pair of models (up to 50 models; beyond, neighbours in the"
        " ranking), one family"
    )
    fairness: tuple[FairnessGaps, ...] = Field(description="per axis (race, origin) and model")
    language: LanguageStudy = Field(description="the contrastive pt-BR / en language study")


RESULTS_SCHEMA = ResultsSchema(RoundResults, SCHEMA, __name__.rpartition(".")[0])
results_json_schema = RESULTS_SCHEMA.json_schema
results_json_schema_text = RESULTS_SCHEMA.text
published_json_schema_text = RESULTS_SCHEMA.published_text
