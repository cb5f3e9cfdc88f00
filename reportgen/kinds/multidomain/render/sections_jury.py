"""The jury's effect on the scores (Art. 24), on the classification page: how many open
responses the Adjudicator re-scored per participant, how far apart the three jurors were,
and each judge's mean score. Judges appear only aggregated (report spec, "Never on the
site"); human reviewers, who do not score for the jury, are not listed."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.results import Exact
from reportgen.render.text import DASH, paragraph
from reportgen.stats import rate

PARTICIPANT_COLUMNS = (
    "participant", "scored", "adjudicated", "share", "range", "variance", "moved",
)  # fmt: skip
JUDGE_COLUMNS = ("judge", "role", "responses", "mean")


def count(value: int, text: Text) -> str:
    """A count with the language's thousands separator."""
    return text.decimal(Decimal(value), 0)


def threshold(value: Fraction, text: Text) -> str:
    """A rule's threshold as the regulation writes it: 3/2 as "1,5" / "1.5"."""
    places = 1 if (value * 10).denominator == 1 else 2
    return text.exact(Exact.of(value), places)


def _exact(value: Fraction | None, text: Text) -> str:
    return DASH if value is None else text.exact(Exact.of(value))


def _participants(context: RoundContext, text: Text) -> Block:
    effect = context.jury_effect.participants
    rows = []
    for p in context.results.participants:
        mine = effect[p.model_id]
        share = rate(p.adjudicated, p.jury_scored)
        # Points moved, on the global score's scale: ÷ possible points × 100.
        moved = mine.points_moved * 100 / p.possible if p.possible else None
        rows.append(
            (
                p.display_name,
                count(p.jury_scored, text),
                count(p.adjudicated, text),
                DASH if share is None else text.rate(Exact.of(share)),
                _exact(mine.mean_range, text),
                DASH if p.judge_variance is None else text.exact(p.judge_variance),
                _exact(moved, text),
            )
        )
    return text.block(
        f"md-{context.round_id}-jury",
        text.t("jury.caption"),
        text.headers(PARTICIPANT_COLUMNS, "jury.column"),
        rows,
        notes=(text.t("jury.note"),),
    )


def _judges(context: RoundContext, text: Text) -> Block:
    work = context.jury_effect.judges
    rows = [
        (
            judge.display_name,
            text.t(f"cast.role.{judge.role}"),
            count(work[judge.judge_id].responses, text),
            _exact(work[judge.judge_id].mean, text),
        )
        for judge in context.round_.judges
        if judge.kind == "model" and judge.judge_id in work
    ]
    return text.block(
        f"md-{context.round_id}-judge-means",
        text.t("jury.judges_caption"),
        text.headers(JUDGE_COLUMNS, "jury.column"),
        rows,
        numeric_from=2,
    )


def jury_blocks(context: RoundContext, text: Text) -> list[Block]:
    scored = sum(p.jury_scored for p in context.results.participants)
    adjudicated = sum(p.adjudicated for p in context.results.participants)
    share = text.rate(Exact.of(Fraction(adjudicated, scored))) if scored else DASH
    rule = context.round_.manifest.jury
    return [
        Markup(f"## {text.t('jury.title')} {{ #jury }}"),
        paragraph(
            text.t("jury.intro", size=rule.size, above=threshold(rule.adjudicate_above, text))
        ),
        paragraph(
            text.t(
                "jury.summary",
                adjudicated=count(adjudicated, text),
                scored=count(scored, text),
                share=share,
            )
        ),
        _participants(context, text),
        _judges(context, text),
    ]
