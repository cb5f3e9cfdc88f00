"""One plain, JSON-serialisable results object per counterfactual round: everything the
report shows and downloads.

- `_values`, `_schema`: the results object as frozen pydantic models (`Results`), its JSON
  form and JSON Schema (`results.schema.json`);
- `_compute`: `build_results` (every computation of counterfactual-metrics.md on a round,
  with the regression view against a baseline round) and `load_results` (the same through
  the core results cache, `reportgen.results`).
"""

from reportgen.kinds.counterfactual.results._compute import build_results, cache_key, load_results
from reportgen.kinds.counterfactual.results._schema import (
    RESULTS_SCHEMA,
    SCHEMA,
    SCHEMA_FILE,
    AttributeSummary,
    Counts,
    ExtractionAgreement,
    Finding,
    JudgeCalibration,
    Placebo,
    Regression,
    RegressionRow,
    RemovedTemplate,
    Results,
    Row,
    ScoreCount,
    SystemResults,
    VoidedScore,
    published_json_schema_text,
    results_json_schema,
    results_json_schema_text,
)
from reportgen.kinds.counterfactual.results._values import (
    Criterion,
    Exact,
    FindingName,
    Flag,
    Gap,
    GroupValue,
    Interval,
    Level,
    NameValue,
    PairTest,
    TestMethod,
    TestName,
    VariableType,
    exact,
)

__all__ = [
    "RESULTS_SCHEMA",
    "SCHEMA",
    "SCHEMA_FILE",
    "AttributeSummary",
    "Counts",
    "Criterion",
    "Exact",
    "ExtractionAgreement",
    "Finding",
    "FindingName",
    "Flag",
    "Gap",
    "GroupValue",
    "Interval",
    "JudgeCalibration",
    "Level",
    "NameValue",
    "PairTest",
    "Placebo",
    "Regression",
    "RegressionRow",
    "RemovedTemplate",
    "Results",
    "Row",
    "ScoreCount",
    "SystemResults",
    "TestMethod",
    "TestName",
    "VariableType",
    "VoidedScore",
    "build_results",
    "cache_key",
    "exact",
    "load_results",
    "published_json_schema_text",
    "results_json_schema",
    "results_json_schema_text",
]
