"""Statistics that every kind shares, each written once: Benjamini–Hochberg over a family
of tests and Krippendorff's α. A kind's own statistics live in its `stats/` package."""

from reportgen.stats._agreement import Metric, krippendorff_alpha
from reportgen.stats._multiple_testing import bh_adjust, significant

__all__ = ["Metric", "bh_adjust", "krippendorff_alpha", "significant"]
