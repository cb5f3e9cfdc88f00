"""One plain, JSON-serialisable results object per multidomain round: everything the report shows.

- `_schema`: the results object as frozen pydantic models (`Results`), its JSON form and
  JSON Schema (`results.schema.json`);
- `_compute`: `build_results` (every computation of multidomain-metrics.md on a round)
  and `load_results` (the same through the core results cache, `reportgen.results`).
"""

from reportgen.kinds.multidomain.results._compute import (
    build_results,
    cache_key,
    load_results,
    participant_ranks,
)
from reportgen.kinds.multidomain.results._schema import (
    RESULTS_SCHEMA,
    SCHEMA,
    SCHEMA_FILE,
    AdjacentPair,
    Audit,
    AuditDivergence,
    AuditStratum,
    Calibration,
    CalibrationItem,
    CanaryFinding,
    Contamination,
    Counts,
    Dates,
    Exact,
    Jury,
    LanguageHitRate,
    NgramFinding,
    PairRecord,
    Pairwise,
    ParticipantResults,
    ProcessMetrics,
    Results,
    SliceScore,
    exact,
    published_json_schema_text,
    results_json_schema,
    results_json_schema_text,
)
from reportgen.kinds.multidomain.results._sections import contamination_section

__all__ = [
    "RESULTS_SCHEMA",
    "SCHEMA",
    "SCHEMA_FILE",
    "AdjacentPair",
    "Audit",
    "AuditDivergence",
    "AuditStratum",
    "Calibration",
    "CalibrationItem",
    "CanaryFinding",
    "Contamination",
    "Counts",
    "Dates",
    "Exact",
    "Jury",
    "LanguageHitRate",
    "NgramFinding",
    "PairRecord",
    "Pairwise",
    "ParticipantResults",
    "ProcessMetrics",
    "Results",
    "SliceScore",
    "build_results",
    "cache_key",
    "contamination_section",
    "exact",
    "load_results",
    "participant_ranks",
    "published_json_schema_text",
    "results_json_schema",
    "results_json_schema_text",
]
