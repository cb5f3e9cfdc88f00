"""Statistics that every kind shares, each written once: Benjamini–Hochberg over a family
of tests, Krippendorff's α, and exact rates and means (undefined on an empty base); and how
many BLAS threads a small computation uses. A kind's own statistics live in its `stats/`
package."""

from reportgen.stats._agreement import Metric, krippendorff_alpha
from reportgen.stats._multiple_testing import bh_adjust, significant
from reportgen.stats._ratios import mean, rate
from reportgen.stats._threads import blas_threads

__all__ = [
    "Metric",
    "bh_adjust",
    "blas_threads",
    "krippendorff_alpha",
    "mean",
    "rate",
    "significant",
]
