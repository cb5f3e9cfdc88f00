"""The Art. 26 audit for the administrator: divergences and the invalidation of an item.

Per audited response: the reviewer's human score h (the mean of their criterion scores)
and the jury's final score F, both exact, and h − F. The app computes none of them: it
puts its scores into the round as audit.parquet's rows and reads the kind's audit report
(`stats.quality.audit_report`, what results.json and the site state), whose
invalidations name, per item, the response that triggers it. An item with a response
whose |h − F| is strictly above `audit.invalidate_above` may be invalidated: the action
appends an `audit` line to the round's ledger whose `ref` is that response's audit_id
(its sample code), and the next build removes the item for every participant. Refused,
with nothing changed: an item outside the audit sample, one whose divergence is not above
the threshold, one already annulled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from pathlib import Path

from sqlalchemy import Connection, Engine, select

from reportgen.errors import InputError
from reportgen.i18n import MISSING, exact_text
from reportgen.kinds.multidomain.model import NAME, AuditScore, Round
from reportgen.kinds.multidomain.review.export import audit_scores
from reportgen.kinds.multidomain.review.format import decimal_text
from reportgen.kinds.multidomain.review.round import append_ledger_line, read_md_round
from reportgen.kinds.multidomain.score import jury_outcomes
from reportgen.kinds.multidomain.stats.quality import Divergence, audit_report
from reportgen.model import TEXT_LANGUAGES
from review_app.core.auth import require
from review_app.core.db import audit, now_utc, rounds
from review_app.core.errors import ReviewInputError
from review_app.core.ledger_provenance import check_ledger, record_append
from review_app.core.round_identity import check_identity
from review_app.i18n import translate
from review_app.tasks.rubric_scores import RubricJudgment, rubric_scores

AppendLine = Callable[..., object]


@dataclass(frozen=True)
class AuditedResponse:
    """One scored audited response, unblinded (administrator only)."""

    audit_id: str
    item_id: str
    model_id: str
    run: int
    reviewer: str
    human: Fraction  # h: the reviewer's mean criterion score
    final: Fraction  # F: the jury's final score

    @property
    def difference(self) -> Fraction:
        """h − F."""
        return self.human - self.final

    @property
    def divergence(self) -> Fraction:
        """|h − F|."""
        return abs(self.difference)


@dataclass(frozen=True)
class AuditView:
    round_id: str
    threshold: Fraction  # audit.invalidate_above
    drawn: tuple[str, ...]  # the audit sample's items, in the draw's order
    responses: tuple[AuditedResponse, ...]
    annulled: Mapping[str, str]  # item_id -> ledger source, for items already annulled
    triggers: Mapping[str, str]  # item_id -> the audit_id that invalidates it (the kind's)

    def above(self, response: AuditedResponse) -> bool:
        return response.divergence > self.threshold

    @property
    def items_above(self) -> tuple[str, ...]:
        """Items with at least one response diverging strictly above the threshold."""
        return tuple(item_id for item_id in self.drawn if item_id in self.triggers)

    def trigger(self, item_id: str) -> AuditedResponse | None:
        """The response that invalidates the item, as the kind's audit report names it
        (its largest divergence above the threshold)."""
        audit_id = self.triggers.get(item_id)
        return next((r for r in self.responses if r.audit_id == audit_id), None)


def two_decimals(value: Fraction) -> str:
    """An exact value shown with two decimals, rounded half away from zero by the report's
    formatter (`reportgen.i18n.exact_text`, plain: the error message is formatted before a
    language is known)."""
    return exact_text(value, 2, "en", plain=True)


def multidomain_rounds(engine: Engine, token: str | None) -> list[str]:
    """The ids of the multidomain rounds in the database (they entered with a batch)."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        return [
            str(round_id)
            for round_id in connection.execute(
                select(rounds.c.round_id).where(rounds.c.kind == NAME).order_by(rounds.c.round_id)
            ).scalars()
        ]


def audit_view(engine: Engine, token: str | None, round_id: str) -> AuditView:
    require(engine, token, "admin")
    with engine.connect() as connection:
        round_dir, _ = round_folder(connection, round_id)
        round_ = read_md_round(round_dir, with_text=False)
        return _view(connection, round_)


def _view(connection: Connection, round_: Round) -> AuditView:
    """The kind's audit report on the round with the app's scores as its audit rows; a
    response without a jury score is left out (the archive's verify says why)."""
    judgments = rubric_scores(connection, round_.round_id, "audit")
    report = audit_report(replace(round_, audit=_audit_rows(judgments)), jury_outcomes(round_))
    drawn = tuple(item_id for ids in report.draw.values() for item_id in ids)
    reviewers: dict[str, set[str]] = {}
    for judgment in judgments:
        reviewers.setdefault(judgment.audit_id, set()).add(judgment.reviewer_name)
    responses = [_response(d, ", ".join(sorted(reviewers[d.audit_id]))) for d in report.divergences]
    position = {item_id: n for n, item_id in enumerate(drawn)}
    responses.sort(key=lambda r: (position.get(r.item_id, len(drawn)), r.model_id, r.run))
    return AuditView(
        round_id=round_.round_id,
        threshold=report.threshold,
        drawn=drawn,
        responses=tuple(responses),
        annulled={a.item_id: a.source for a in round_.annulments},
        triggers={d.item_id: d.audit_id for d in report.invalidated},
    )


def _audit_rows(judgments: list[RubricJudgment]) -> tuple[AuditScore, ...]:
    """The app's audit scores as audit.parquet's rows (one per criterion scored), as the
    export writes them but for the reviewer, named by their account."""
    return tuple(row for j in judgments for row in audit_scores(j, j.reviewer_name))


def _response(divergence: Divergence, reviewer: str) -> AuditedResponse:
    return AuditedResponse(
        audit_id=divergence.audit_id,
        item_id=divergence.item_id,
        model_id=divergence.model_id,
        run=divergence.run,
        reviewer=reviewer,
        human=divergence.human,
        final=divergence.final,
    )


def round_folder(connection: Connection, round_id: str) -> tuple[Path, str | None]:
    row = connection.execute(
        select(rounds.c.round_dir, rounds.c.sums_sha256).where(rounds.c.round_id == round_id)
    ).first()
    if row is None:
        raise ReviewInputError("error_unknown_round", round_id=round_id)
    return Path(row.round_dir), row.sums_sha256


def invalidate_item(
    engine: Engine,
    token: str | None,
    round_id: str,
    item_id: str,
    *,
    clock: Callable[[], datetime] = now_utc,
    append_line: AppendLine = append_ledger_line,
) -> str:
    """Append the item's `audit` ledger line; returns the triggering audit_id."""
    me = require(engine, token, "admin")
    with engine.begin() as connection:
        round_dir, sums = round_folder(connection, round_id)
        check_identity(round_dir, round_id, sums)
        check_ledger(connection, round_id, round_dir)
        view = _view(connection, read_md_round(round_dir, with_text=False))
        trigger = _checked_trigger(view, item_id)
        audit(
            connection,
            me.account_id,
            "md_invalidate_item",
            {"round_id": round_id, "item_id": item_id, "audit_id": trigger.audit_id},
        )
        # The site shows the reason as written: each language's decimals, not 38/9.
        reason = {
            language: translate(
                language,
                "md_audit_reason",
                audit_id=trigger.audit_id,
                divergence=decimal_text(trigger.divergence, 2, language),
                threshold=decimal_text(view.threshold, 2, language),
            )
            for language in TEXT_LANGUAGES
        }
        record_append(
            connection, me.account_id, round_id, item_id=item_id, source="audit",
            ref=trigger.audit_id,
        )  # fmt: skip
        try:
            # Last: a database error above leaves the ledger untouched.
            append_line(
                round_dir,
                item_id=item_id,
                decided_on=clock().date(),
                source="audit",
                ref=trigger.audit_id,
                reason=reason,
            )
        except InputError as error:
            raise ReviewInputError("md_error_ledger", item_id=item_id, why=str(error)) from None
    return trigger.audit_id


def _checked_trigger(view: AuditView, item_id: str) -> AuditedResponse:
    if item_id not in view.drawn:
        raise ReviewInputError("md_error_not_drawn", item_id=item_id, round_id=view.round_id)
    if item_id in view.annulled:
        raise ReviewInputError(
            "md_error_already_annulled", item_id=item_id, source=view.annulled[item_id]
        )
    trigger = view.trigger(item_id)
    if trigger is None:
        largest = max((r.divergence for r in view.responses if r.item_id == item_id), default=None)
        raise ReviewInputError(
            "md_error_not_above",
            item_id=item_id,
            divergence=MISSING if largest is None else two_decimals(largest),
            threshold=two_decimals(view.threshold),
        )
    return trigger
