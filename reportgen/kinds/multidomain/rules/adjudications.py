"""Refusals 36 and 37 (with 35, 12 and 13) on adjudications.parquet.

A response has adjudication rows iff the range of its juror means is strictly above
`jury.adjudicate_above` (derive.needs_adjudication, exact). Then one judge of role
adjudicator, none of the response's jurors, scores every criterion once. The final
score F of every response whose jury (and adjudication, when needed) is complete is
returned for the audit rules.
"""

from __future__ import annotations

from fractions import Fraction

from reportgen.archive import FileProblems, Problems
from reportgen.kinds.multidomain.derive import final_score, mean_score, needs_adjudication
from reportgen.kinds.multidomain.model import ResponseKey, Round
from reportgen.kinds.multidomain.rules._index import ADJUDICATIONS, RoundIndex, response_where
from reportgen.kinds.multidomain.rules.conflicts import check_conflicts, check_declared
from reportgen.kinds.multidomain.rules.jury import (
    Grouped,
    JuryResult,
    group_by_response,
    rater_problems,
    why_not_jury_scored,
)


def check_adjudications(
    round_: Round, index: RoundIndex, jury: JuryResult, problems: Problems
) -> dict[ResponseKey, Fraction]:
    """Check the table; return F of every response whose scores are complete."""
    found = problems.in_file(ADJUDICATIONS)
    grouped = group_by_response(round_.adjudications)
    above = round_.manifest.jury.adjudicate_above
    entries = [
        (
            response_where(key),
            "adjudication of a response the jury does not score "
            f"({why_not_jury_scored(index, key)})",
        )
        for key in sorted(grouped.keys() - index.jury_scored)
    ]
    needed = {key for key, means in jury.means.items() if needs_adjudication(means, above)}
    for key, means in sorted(jury.means.items()):
        if (key in needed) == (key in grouped):
            continue
        spread = max(means) - min(means)
        if key in needed:
            message = f"juror range {spread} > {above}: adjudication missing"
        else:
            message = (
                f"juror range {spread} <= {above} (multidomain.jury.adjudicate_above): "
                "no adjudication expected"
            )
        entries.append((response_where(key), message))
    found.rows(entries, "responses adjudicated wrongly")
    adjudicated = _check_adjudicators(round_, index, grouped, jury, found)
    check_conflicts(
        ADJUDICATIONS,
        ((judge_id, key[1]) for key, judges in grouped.items() for judge_id in judges),
        index.judges,
        index.participants,
        problems,
    )
    check_declared(
        ADJUDICATIONS, (row.judge_id for row in round_.adjudications), index.judges, problems
    )
    finals: dict[ResponseKey, Fraction] = {}
    for key, means in jury.means.items():
        if key not in needed:
            finals[key] = final_score(means, None, above)
        elif key in adjudicated:
            finals[key] = final_score(means, adjudicated[key], above)
    return finals


def _check_adjudicators(
    round_: Round, index: RoundIndex, grouped: Grouped, jury: JuryResult, found: FileProblems
) -> dict[ResponseKey, Fraction]:
    """Refusals 37 and 35 per adjudicated response; the adjudicator's mean of valid ones."""
    scale = round_.manifest.jury.scale
    entries: list[tuple[str, str]] = []
    adjudicated: dict[ResponseKey, Fraction] = {}
    for key in sorted(grouped.keys() & index.jury_scored):
        judges = grouped[key]
        mark = len(entries)
        if len(judges) != 1:
            entries.append(
                (response_where(key), f"expected one adjudicator, got {', '.join(sorted(judges))}")
            )
        for judge_id, rows in sorted(judges.items()):
            judge = index.judges.get(judge_id)
            reasons = []
            if judge is None:
                reasons.append("not in judges.csv")
            elif judge.role != "adjudicator":
                reasons.append(f"of role {judge.role!r}")
            if judge_id in jury.jurors.get(key, frozenset()):
                reasons.append("one of this response's jurors")
            if reasons:
                entries.append(
                    (
                        f"{response_where(key)}, judge {judge_id}",
                        f"{' and '.join(reasons)}: expected a judge of role adjudicator "
                        "outside the response's jury (Art. 24)",
                    )
                )
            entries += rater_problems(key, judge_id, rows, index.item_criteria(key[0]), scale)
        if len(entries) == mark:
            (rows,) = judges.values()
            adjudicated[key] = mean_score(row.score for _, row in rows)
    found.rows(entries, "wrong adjudications")
    return adjudicated
