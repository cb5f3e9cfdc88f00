"""The multidomain summary: the classification with the primary score's interval, the
global and domain scores, Elo, Bradley-Terry and the process figures.

`reportgen summary` prints it through the kind registry (the kind's `STAGES`, in
`stages.py`); both read the results object (cached).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from reportgen.i18n import exact_text
from reportgen.kinds._summary import print_heading, print_plain
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import Exact, ParticipantResults, Results, SliceScore

# Keys of one participant in `--json`, in output order.
PARTICIPANT_KEYS: tuple[str, ...] = (
    "model_id",
    "display_name",
    "rank",
    "primary",
    "global",
    "slices",
    "elo",
    "bt",
    "refusal_rate",
    "format_compliance",
)


def _exact(value: Exact | None) -> str | None:
    return None if value is None else value.exact


def _slice_json(entry: SliceScore) -> dict[str, Any]:
    return {
        "score": _exact(entry.score),
        "lo": _exact(entry.lo),
        "hi": _exact(entry.hi),
        "n": entry.n,
    }


def participant_json(participant: ParticipantResults) -> dict[str, Any]:
    """One participant, keys in PARTICIPANT_KEYS order; exact values as "n/d" strings."""
    return {
        "model_id": participant.model_id,
        "display_name": participant.display_name,
        "rank": participant.rank,
        "primary": _slice_json(participant.primary),
        "global": _slice_json(participant.global_score),
        "slices": {entry.slice: _slice_json(entry) for entry in participant.slices},
        "elo": participant.elo,
        "bt": participant.bt,
        "refusal_rate": _exact(participant.process.refusal_rate),
        "format_compliance": _exact(participant.process.format_compliance),
    }


def summary_json(round_: Round, results: Results) -> dict[str, Any]:
    """The `--json` document: the round id, then one object per participant, in
    classification order, with the technical-tie groups."""
    return {
        "round_id": round_.round_id,
        "scored_items": results.counts.scored_items,
        "annulled_items": results.counts.annulled_items,
        "participants": [participant_json(p) for p in results.participants],
        "tie_groups": [list(group) for group in results.tie_groups],
        "dates": date_fields(results),
    }


def date_fields(results: Results) -> dict[str, str | None]:
    """The organiser's dates of `date_lines` as ISO dates (None: no re-verification)."""
    dates = results.dates

    def iso(day: date | None) -> str | None:
        return None if day is None else day.isoformat()

    return {
        "reverified_on": iso(dates.reverified_on),
        "reverify_until": iso(dates.reverify_until),
        "ended_on": iso(dates.ended_on),
        "retain_until": iso(dates.retain_until),
    }


def _shown(value: Exact | None, places: int = 2) -> str:
    return "n/a" if value is None else value.display(places)


def _interval(entry: SliceScore) -> str:
    if entry.lo is None or entry.hi is None:
        return "n/a"
    return f"[{entry.lo.display()}, {entry.hi.display()}]"


def _rate(value: Exact | None) -> str:
    return "n/a" if value is None else f"{value.percent()}%"


def _tie_marker(results: Results) -> dict[str, str]:
    tied = {model for group in results.tie_groups for model in group}
    return {p.model_id: " (tie)" if p.model_id in tied else "" for p in results.participants}


def _ranking_table(results: Results) -> Table:
    """Rank, scores and process figures; the domain scores have a table of their own
    (one table of both would not fit 120 columns and rich would cut every heading)."""
    table = Table(title="Classification", title_justify="left")
    for heading in ("Rank", "Participant", "Primary", "95% interval", "Global"):
        table.add_column(heading, justify="left" if heading == "Participant" else "right")
    for heading in ("Elo", "BT", "Refusals", "Format"):
        table.add_column(heading, justify="right")
    marker = _tie_marker(results)
    for participant in results.participants:
        table.add_row(
            f"{participant.rank}{marker[participant.model_id]}",
            Text(participant.display_name),  # Text: a name such as "[beta]" is no markup
            _shown(participant.primary.score),
            _interval(participant.primary),
            _shown(participant.global_score.score),
            exact_text(participant.elo, 2, "en", plain=True),
            "not estimable"
            if participant.bt is None
            else exact_text(participant.bt, 2, "en", plain=True),
            _rate(participant.process.refusal_rate),
            _rate(participant.process.format_compliance),
        )
    return table


def _domain_table(round_: Round, results: Results) -> Table:
    """Each participant's score per domain, in classification order."""
    table = Table(title="Domain scores", title_justify="left")
    table.add_column("Rank", justify="right")
    table.add_column("Participant")
    domains = [domain.id for domain in round_.manifest.domains]
    for domain in domains:
        table.add_column(domain, justify="right", overflow="fold")
    for participant in results.participants:
        by_slice = {entry.slice: entry for entry in participant.slices}
        table.add_row(
            str(participant.rank),
            Text(participant.display_name),
            *(_shown(by_slice[f"domain:{domain}"].score) for domain in domains),
        )
    return table


def date_lines(results: Results) -> list[str]:
    """The dates REG-BC-2026-001 sets for the organiser: the Art. 6 re-verification
    deadline (business days, Brazil's national holidays) and the Art. 36 retention end."""
    dates = results.dates
    lines: list[str] = []
    if dates.reverified_on is not None and dates.reverify_until is not None:
        lines.append(
            f"Art. 6: re-verified {dates.reverified_on}; divergences reverted by"
            f" {dates.reverify_until} (5 business days, national holidays excluded)"
        )
    lines.append(
        f"Art. 36: evidence kept until {dates.retain_until} (24 months after the end,"
        f" {dates.ended_on})"
    )
    return lines


def print_summary(round_: Round, results: Results, console: Console) -> None:
    """The human-readable summary: round facts, the regulation's dates, the
    classification table, then the domain scores."""
    counts = results.counts
    facts = (
        f"{counts.scored_items:,} scored items ({counts.possible:,} points possible);"
        f" {counts.annulled_items:,} annulled, {counts.superseded_items:,} superseded"
    )
    print_heading(console, round_, "multidomain", facts)
    print_plain(console, date_lines(results))
    table = _ranking_table(results)
    table.caption = (
        "Primary = mean of the domain scores; 95% stratified item bootstrap"
        f" ({results.replicates:,} replicates). (tie): technical tie."
    )
    table.caption_justify = "left"
    console.print(table)
    console.print(_domain_table(round_, results))
