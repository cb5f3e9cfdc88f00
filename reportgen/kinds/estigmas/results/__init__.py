"""One plain, JSON-serialisable results object per Estigmas round: everything any page shows.

- `_schema`: the results object as frozen pydantic models, its JSON form and JSON Schema
  (`results.schema.json`, published on the site beside each round's `results.json`);
- `_compute`: `compute_results` (the statistics engine on a round) and `load_results`
  (the same through the core results cache, `reportgen.results`);
- `_pairs`: the pairs the compare page lists (`listed_pairs`) and their index differences
  read from the bootstrap replicates on demand (`pair_differences`), for any number of
  models.

Top-level keys of the JSON form: schema, round_id, kind, synthetic, package_version,
replicates, seed; models (ModelScore, ranking order); intervals (per model: failure, index,
bias_rate, omission_rate, correct_rate, each {estimate, lower, upper, denominator,
denominator_count}); ranks (per ranked model: rank, best, worst over the replicates);
differences (index difference with interval for every ordered pair, up to 50 models; beyond,
the neighbours both ways) and adjacent (neighbours in the ranking); leave_one_stigma_out and
leave_one_structure_out; correlation; peril, style, race, origin (test families);
gender_gaps and gender_tests (one family per model); mcnemar; fairness; language.
docs/metrics.md explains each.
"""

from reportgen.kinds.estigmas.results._compute import (
    cache_key,
    compute_results,
    load_results,
    model_intervals,
)
from reportgen.kinds.estigmas.results._pairs import (
    ALL_PAIRS_UP_TO,
    listed_pairs,
    pair_differences,
)
from reportgen.kinds.estigmas.results._schema import (
    RESULTS_SCHEMA,
    SCHEMA,
    SCHEMA_FILE,
    IndexDifference,
    Interval,
    ModelIntervals,
    RankInterval,
    RoundResults,
    published_json_schema_text,
    results_json_schema,
    results_json_schema_text,
)

# The core cache's settings and JSON writer, re-exported for the callers that used to find
# them here (build, `reportgen stats`).
from reportgen.results import CACHE_ENV, default_cache_dir, write_json

__all__ = [
    "ALL_PAIRS_UP_TO",
    "CACHE_ENV",
    "RESULTS_SCHEMA",
    "SCHEMA",
    "SCHEMA_FILE",
    "IndexDifference",
    "Interval",
    "ModelIntervals",
    "RankInterval",
    "RoundResults",
    "cache_key",
    "compute_results",
    "default_cache_dir",
    "listed_pairs",
    "load_results",
    "model_intervals",
    "pair_differences",
    "published_json_schema_text",
    "results_json_schema",
    "results_json_schema_text",
    "write_json",
]
