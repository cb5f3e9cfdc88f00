"""Statistics that every kind shares, each written once: Benjamini–Hochberg over a family
of tests and Krippendorff's α; and how many BLAS threads a small computation uses. A kind's
own statistics live in its `stats/` package."""

from reportgen.stats._agreement import Metric, krippendorff_alpha
from reportgen.stats._multiple_testing import bh_adjust, significant
from reportgen.stats._threads import blas_threads

__all__ = ["Metric", "bh_adjust", "blas_threads", "krippendorff_alpha", "significant"]
