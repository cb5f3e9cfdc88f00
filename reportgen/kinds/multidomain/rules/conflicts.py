"""Refusals 12 and 13: conflicts of interest (Art. 7, reading MD-I02).

A judge with `declared_conflict` may score nothing (jury, adjudications, calibration,
audit: refusal 13). Otherwise a judge J may not score a response of participant P when
J is P, J and P share an economic group, or J is a participant and P is operated by the
Organization (refusal 12). Problems are reported once per judge and participant, with
the count of responses, so that a conflicted juror reads as one line, not hundreds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Judge, Participant


def conflict_reason(judge: Judge, participant: Participant) -> str | None:
    """Why `judge` may not score `participant` (declared conflicts aside), or None."""
    if judge.participant_model_id == participant.model_id:
        return "the judge is this participant"
    if judge.economic_group and judge.economic_group == participant.economic_group:
        return f"same economic group {participant.economic_group!r}"
    if judge.participant_model_id and participant.operated_by_organization:
        return "the judge is a participant and this participant is operated by the Organization"
    return None


def check_conflicts(
    file: str,
    scored: Iterable[tuple[str, str]],
    judges: Mapping[str, Judge],
    participants: Mapping[str, Participant],
    problems: Problems,
) -> None:
    """Refusal 12 over (judge_id, model_id), one pair per scored response."""
    counted = Counter(scored)
    found = problems.in_file(file)
    entries = []
    for (judge_id, model_id), responses in sorted(counted.items()):
        judge, participant = judges.get(judge_id), participants.get(model_id)
        if judge is None or participant is None or judge.declared_conflict:
            continue  # unknown ids are reported elsewhere; declared: refusal 13
        reason = conflict_reason(judge, participant)
        if reason is not None:
            entries.append(
                (
                    f"judge {judge_id}",
                    f"scores {responses} response(s) of {model_id} despite a conflict of "
                    f"interest ({reason}; Art. 7)",
                )
            )
    found.rows(entries, "conflicts of interest")


def check_declared(
    file: str, rater_ids: Iterable[str], judges: Mapping[str, Judge], problems: Problems
) -> None:
    """Refusal 13: a judge with a declared conflict scores nothing, in any table."""
    counted = Counter(rater_ids)
    found = problems.in_file(file)
    for judge_id, rows in sorted(counted.items()):
        judge = judges.get(judge_id)
        if judge is not None and judge.declared_conflict:
            found.add(
                f"judge {judge_id}",
                f"has a declared conflict and may score nothing (Art. 7), yet has {rows} row(s)",
            )
