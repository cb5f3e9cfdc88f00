"""The outcome of one paired test (McNemar §4 or Wilcoxon §5), whichever it is.

Both tests fill the same record, so that the family (§6), the findings (§7) and the
placebo (§8) handle them alike; fields a test does not use stay None.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Method = Literal["exact", "chi2", "exact_conditional", "normal"]
TestKind = Literal["mcnemar", "wilcoxon_signed_rank"]
NO_PAIR = "no determined pair"


@dataclass(frozen=True, slots=True)
class PairedTest:
    test: TestKind
    n_pairs: int
    method: Method | None  # None: not computable (n_pairs = 0)
    statistic: float | None
    p: float | None
    effect: Fraction | None  # McNemar (b - c)/n_pairs; Wilcoxon mean of d
    b: int | None = None
    c: int | None = None
    table: tuple[tuple[int, int], tuple[int, int]] | None = None
    n_nonzero: int | None = None
    w_plus: float | None = None
    median: Fraction | None = None

    @property
    def computable(self) -> bool:
        return self.p is not None

    @property
    def reason(self) -> str | None:
        return None if self.computable else NO_PAIR
