"""Art. 16 as written: the hit rate in the calibration test is the adjudicating judge's,
and it gates.

Each adjudicator scores the calibration responses (calibration.parquet) as the jurors
do; its hit rate is Σ its score of each response ÷ (5 x responses) (derive). An
adjudicator without calibration scores, or whose hit rate lies outside
`calibration.hit_rate_band`, may not score a test response: every adjudications.parquet
row of such a judge is refused, named by the judge and the first item it scored.
"""

from __future__ import annotations

from collections import defaultdict

from reportgen.archive import Problems
from reportgen.kinds.multidomain.derive import calibration_hit_rates
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.rules._index import ADJUDICATIONS
from reportgen.kinds.multidomain.terms import threshold_text


def check_hit_rates(round_: Round, problems: Problems) -> None:
    found = problems.in_file(ADJUDICATIONS)
    rules = round_.manifest.calibration
    low, high = rules.hit_rate_band
    band = f"[{threshold_text(low)}, {threshold_text(high)}]"
    rates = calibration_hit_rates(round_.calibration, round_.manifest.jury.scale[1])
    scored: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for number, row in enumerate(round_.adjudications, start=1):
        scored[row.judge_id].append((number, row.item_id))
    for judge_id, rows in sorted(scored.items()):
        number, item_id = rows[0]
        items = len({item for _, item in rows})
        where = f"row {number}, judge_id {judge_id!r} (item {item_id!r}"
        where += f" and {items - 1} other item(s))" if items > 1 else ")"
        rate = rates.get(judge_id)
        if rate is None:
            found.add(
                where,
                f"adjudicator {judge_id!r} scored test item {item_id!r} without scoring the "
                "calibration test: expected its calibration.parquet rows, whose hit rate must "
                f"lie in {band} (Art. 16)",
            )
        elif not low <= rate[0] <= high:
            found.add(
                where,
                f"adjudicator {judge_id!r} scored test item {item_id!r}, but its calibration "
                f"hit rate is {threshold_text(rate[0])} over {rate[1]} response(s): expected "
                f"within {band} (multidomain.calibration.hit_rate_band, Art. 16); a judge "
                "outside the band may not score test items",
            )
