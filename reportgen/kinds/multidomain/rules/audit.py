"""Refusals 41, 42 and 43 (with 13) on audit.parquet (Art. 26, metrics §7).

The audited responses are every status-`ok` response of a drawn item
(derive.audit_draw), all participants and runs: exactly those have rows. Each has one
audit_id of its own, one human reviewer of role reviewer, blind rows, every criterion
once, scores in the scale. A response whose divergence |h - F| is strictly above
`audit.invalidate_above` invalidates its item: the ledger must carry an `audit` line for
it whose `ref` is the audit_id of a triggering response, and every `audit` line needs one.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from reportgen.archive import Problems
from reportgen.kinds.multidomain.derive import audit_draw, mean_score
from reportgen.kinds.multidomain.model import AuditScore, ResponseKey, Round
from reportgen.kinds.multidomain.rules._index import (
    AUDIT,
    LEDGER,
    RoundIndex,
    criteria_problem,
    response_where,
    scale_text,
)
from reportgen.kinds.multidomain.rules.conflicts import check_declared

Rows = list[tuple[int, AuditScore]]


def check_audit(
    round_: Round, index: RoundIndex, finals: dict[ResponseKey, Fraction], problems: Problems
) -> None:
    found = problems.in_file(AUDIT)
    by_response: dict[ResponseKey, Rows] = defaultdict(list)
    for number, row in enumerate(round_.audit, start=1):
        by_response[(row.item_id, row.model_id, row.run)].append((number, row))
    drawn = {
        item_id
        for members in audit_draw(round_.items, round_.manifest).values()
        for item_id in members
    }
    expected = {
        key
        for key, response in index.responses.items()
        if key[0] in drawn and key[1] in index.participants and response.status == "ok"
    }
    entries = [
        (response_where(key), "drawn for the audit (status ok) but not audited")
        for key in sorted(expected - by_response.keys())
    ]
    entries += [
        (
            f"row {by_response[key][0][0]} ({response_where(key)})",
            "not an audited response: expected only status-ok responses of drawn items "
            "(multidomain.audit.seed)",
        )
        for key in sorted(by_response.keys() - expected)
    ]
    found.rows(entries, "responses audited wrongly")
    audited = {key: rows for key, rows in by_response.items() if key in expected}
    humans = _check_audited(round_, index, audited, problems)
    check_declared(AUDIT, (row.reviewer_id for row in round_.audit), index.judges, problems)
    _check_invalidations(round_, index, expected, audited, humans, finals, problems)


def _check_audited(
    round_: Round, index: RoundIndex, by_response: dict[ResponseKey, Rows], problems: Problems
) -> dict[ResponseKey, Fraction]:
    """Refusal 42 per response; the human score h of each valid one."""
    scale = round_.manifest.jury.scale
    entries: list[tuple[str, str]] = []
    humans: dict[ResponseKey, Fraction] = {}
    owner: dict[str, ResponseKey] = {}
    for key, rows in sorted(by_response.items()):
        where, mark = response_where(key), len(entries)
        audit_ids = sorted({row.audit_id for _, row in rows})
        if len(audit_ids) != 1:
            entries.append((where, f"expected one audit_id, got {', '.join(audit_ids)}"))
        for audit_id in audit_ids:
            if owner.setdefault(audit_id, key) != key:
                entries.append(
                    (where, f"audit_id {audit_id!r} is also {response_where(owner[audit_id])}'s")
                )
        reviewers = sorted({row.reviewer_id for _, row in rows})
        if len(reviewers) != 1:
            entries.append((where, f"expected one reviewer, got {', '.join(reviewers)}"))
        for reviewer_id in reviewers:
            judge = index.judges.get(reviewer_id)
            if judge is None or judge.kind != "human" or judge.role != "reviewer":
                entries.append(
                    (where, f"reviewer {reviewer_id}: expected a human judge of role reviewer")
                )
        if any(not row.blind for _, row in rows):
            entries.append(
                (where, "blind false: the reviewer must see neither scores nor identity")
            )
        problem = criteria_problem(
            (row.criterion_id for _, row in rows), index.item_criteria(key[0])
        )
        if problem is not None:
            entries.append((where, problem))
        low, high = scale
        entries += [
            (f"row {number}", f"score {row.score}: expected {scale_text(scale)}")
            for number, row in rows
            if not low <= row.score <= high
        ]
        if len(entries) == mark:
            humans[key] = mean_score(row.score for _, row in rows)
    problems.in_file(AUDIT).rows(entries, "audited responses with wrong rows")
    return humans


def _check_invalidations(
    round_: Round,
    index: RoundIndex,
    expected: set[ResponseKey],
    by_response: dict[ResponseKey, Rows],
    humans: dict[ResponseKey, Fraction],
    finals: dict[ResponseKey, Fraction],
    problems: Problems,
) -> None:
    """Refusal 43: the ledger's `audit` lines are exactly the invalidated items."""
    limit = round_.manifest.audit.invalidate_above
    triggering: dict[str, dict[str, tuple[ResponseKey, Fraction]]] = defaultdict(dict)
    for key, human in humans.items():
        if key in finals and abs(human - finals[key]) > limit:
            audit_id = by_response[key][0][1].audit_id
            triggering[key[0]][audit_id] = (key, abs(human - finals[key]))
    found = problems.in_file(LEDGER)
    lines = {
        a.item_id: (n, a) for n, a in enumerate(round_.annulments, start=1) if a.source == "audit"
    }
    for item_id, refs in sorted(triggering.items()):
        if item_id not in lines:
            audit_id, (key, divergence) = min(refs.items())
            found.add(
                f"item {item_id!r}",
                f"audit divergence {divergence} > {limit} ({response_where(key)}, audit_id "
                f"{audit_id!r}): expected an `audit` line (multidomain.audit.invalidate_above)",
            )
    # Items with an audited response whose h or F is unknown (missing or broken rows,
    # reported elsewhere) are not judged: their divergence cannot be computed.
    unknown = {key[0] for key in expected if key not in humans or key not in finals}
    # A line naming no active open item is refusal 44 (ledger rules), not this one.
    unknown |= {
        item_id
        for item_id in lines
        if item_id not in index.active_ids or index.items[item_id].type != "open"
    }
    for item_id, (number, annulment) in sorted(lines.items()):
        refs = triggering.get(item_id, {})
        if annulment.ref not in refs and item_id not in unknown:
            why = (
                f"ref {annulment.ref!r} is not the audit_id of a response diverging by more "
                f"than {limit} (triggering: {', '.join(sorted(refs))})"
                if refs
                else f"no audited response of item {item_id!r} diverges by more than {limit}"
            )
            found.add(f"line {number}", f"audit line without a triggering response: {why}")
