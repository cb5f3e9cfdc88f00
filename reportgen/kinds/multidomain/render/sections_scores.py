"""Sections 3 to 6 of the report: classification, domains and languages, technical ties,
head-to-head. Every score is shown with its 95% interval and its n."""

from __future__ import annotations

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.sections_jury import jury_blocks
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.results import AdjacentPair, ParticipantResults, SliceScore
from reportgen.render.text import DASH, bullets, paragraph


def slice_of(participant: ParticipantResults, name: str) -> SliceScore | None:
    return next((s for s in participant.slices if s.slice == name), None)


def _n(value: SliceScore | None, text: Text) -> str:
    return DASH if value is None else text.integer(value.n)


def tie_markers(context: RoundContext) -> dict[str, str]:
    """model_id -> "E1", "E2"... (technical-tie group marker; singletons have none)."""
    return {
        model_id: f"{index}"
        for index, group in enumerate(context.results.tie_groups, start=1)
        for model_id in group
    }


RANKING_COLUMNS = (
    "rank", "participant", "primary", "n", "global", "n", "high_grade", "n", "non_native", "n",
    "decided_by", "tie_group",
)  # fmt: skip


def _decided_by(pair: AdjacentPair | None, tied: bool, text: Text) -> str:
    """What separates a participant from the one above; nothing between two participants
    of one technical-tie group (they are tied: their order is not a finding)."""
    if pair is None:
        return DASH
    if tied:
        return text.t("classification.tied_above")
    return text.t(f"criterion.{pair.decided_by}" if pair.decided_by else "criterion.none")


def _ranking_row(
    p: ParticipantResults, pair: AdjacentPair | None, markers: dict[str, str], text: Text
) -> tuple[str, ...]:
    high, foreign = slice_of(p, "high_grade"), slice_of(p, "non_native")
    marker = markers.get(p.model_id)
    tied = pair is not None and marker is not None and markers.get(pair.a) == marker
    return (
        str(p.rank),
        p.display_name,
        text.score(p.primary),
        text.integer(p.primary.n),
        text.score(p.global_score),
        text.integer(p.global_score.n),
        text.score(high),
        _n(high, text),
        text.score(foreign),
        _n(foreign, text),
        _decided_by(pair, tied, text),
        text.t("ties.group", number=marker) if marker else DASH,
    )


def tie_legend(context: RoundContext, text: Text) -> Block:
    """What the tie-group markers of the classification mean, and who is in each group."""
    if not context.results.tie_groups:
        return paragraph(text.t("classification.no_ties"))
    groups = [
        text.t(
            "ties.group_line",
            number=n,
            names=", ".join(context.name_of(m) for m in group),
        )
        for n, group in enumerate(context.results.tie_groups, start=1)
    ]
    return Markup("\n\n").join([paragraph(text.t("classification.legend")), bullets(groups)])


def classification(context: RoundContext, text: Text) -> tuple[Block, ...]:
    rid, results = context.round_id, context.results
    decided = {pair.b: pair for pair in results.adjacent}
    markers = tie_markers(context)
    rows = [_ranking_row(p, decided.get(p.model_id), markers, text) for p in results.participants]
    keys = RANKING_COLUMNS
    blocks: list[Block] = [
        paragraph(text.t("classification.intro")),
        text.block(
            f"md-{rid}-ranking",
            text.t("classification.caption"),
            text.headers(keys),
            rows,
            notes=(text.t("classification.note"),),
            # The participant's name is text (left-aligned) and, on a phone, stays in view
            # while the other columns scroll, the rank with them.
            numeric_from=keys.index("participant") + 1,
            sticky=keys.index("participant"),
        ),
        Markup(f"## {text.t('classification.ties_title')} {{ #tie-groups }}"),
        tie_legend(context, text),
    ]
    runs = range(1, context.round_.manifest.runs + 1)
    run_rows = [
        (p.display_name, *(text.score(slice_of(p, f"run:{r}")) for r in runs))
        for p in results.participants
    ]
    blocks.append(Markup(f"## {text.t('classification.runs')} {{ #runs }}"))
    blocks.append(
        text.block(
            f"md-{rid}-runs",
            text.t("classification.runs"),
            [text.t("column.participant"), *(text.t("column.run", run=r) for r in runs)],
            run_rows,
        )
    )
    blocks += jury_blocks(context, text)
    return tuple(blocks)


def _slice_table(
    context: RoundContext, text: Text, kind: str, names: list[tuple[str, str]]
) -> Block:
    rows = []
    for p in context.results.participants:
        cells = [p.display_name]
        for key, _ in names:
            value = slice_of(p, f"{kind}:{key}")
            cells += [text.score(value), _n(value, text)]
        rows.append(tuple(cells))
    header = [text.t("column.participant")]
    for _, label in names:
        header += [label, text.t("column.n")]
    return text.block(
        f"md-{context.round_id}-{kind}s", text.t(f"slices.{kind}.caption"), header, rows
    )


def domains_languages(context: RoundContext, text: Text) -> tuple[Block, ...]:
    manifest = context.round_.manifest
    domains = [(d.id, text.pick(d.name)) for d in manifest.domains]
    languages = [(lang, lang) for lang in manifest.languages]
    types = [(t, text.t(f"type.{t}")) for t in ("mcq", "open", "calc")]
    type_rows = []
    for p in context.results.participants:
        cells = [p.display_name]
        for key, _ in types:
            value = slice_of(p, f"type:{key}")
            cells += [text.exact(value.score) if value else DASH, _n(value, text)]
        type_rows.append(tuple(cells))
    type_header = [text.t("column.participant")]
    for _, label in types:
        type_header += [label, text.t("column.n")]
    return (
        paragraph(text.t("slices.intro")),
        Markup(f"## {text.t('slices.domain.caption')} {{ #domains }}"),
        _slice_table(context, text, "domain", domains),
        Markup(f"## {text.t('slices.language.caption')} {{ #languages }}"),
        _slice_table(context, text, "language", languages),
        Markup(f"## {text.t('slices.type.caption')} {{ #types }}"),
        text.block(
            f"md-{context.round_id}-types", text.t("slices.type.caption"), type_header, type_rows
        ),
    )


def technical_ties(context: RoundContext, text: Text) -> tuple[Block, ...]:
    results = context.results
    blocks: list[Block] = [paragraph(text.t("ties.reading"))]
    if results.tie_groups:
        groups = [
            text.t("ties.group_line", number=n, names=", ".join(context.name_of(m) for m in group))
            for n, group in enumerate(results.tie_groups, start=1)
        ]
        blocks.append(bullets(groups))
    else:
        blocks.append(paragraph(text.t("ties.none")))
    rows = [
        (
            f"{context.name_of(pair.a)} − {context.name_of(pair.b)}",
            text.exact(pair.difference),
            text.interval(text.exact(pair.lo), text.exact(pair.hi)),
            text.t("word.yes" if pair.separated else "word.no"),
            text.t("word.yes" if pair.technical_tie else "word.no"),
        )
        for pair in results.adjacent
    ]
    keys = ("pair", "difference", "interval", "separated", "technical_tie")
    blocks.append(
        text.block(
            f"md-{context.round_id}-adjacent",
            text.t("ties.adjacent"),
            text.headers(keys),
            rows,
            notes=(text.t("ties.diagnostic"),),
        )
    )
    return tuple(blocks)


def head_to_head(context: RoundContext, text: Text) -> tuple[Block, ...]:
    results, rid = context.results, context.round_id
    order = [p.model_id for p in results.participants]  # rank order, as every other table
    records = {(r.a, r.b): r for r in results.pairwise.pairs}
    matrix, probabilities = [], []
    for a in order:
        wlt, prob = [context.name_of(a)], [context.name_of(a)]
        for b in order:
            if a == b:
                wlt.append(DASH)
                prob.append(DASH)
                continue
            record = records.get((a, b))
            mirrored = records.get((b, a))
            if record is not None:
                wins, losses, ties, p = record.wins, record.losses, record.ties, record.p_a_beats_b
            elif mirrored is not None:
                wins, losses, ties = mirrored.losses, mirrored.wins, mirrored.ties
                p = None if mirrored.p_a_beats_b is None else 1 - mirrored.p_a_beats_b
            else:
                wlt.append(DASH)
                prob.append(DASH)
                continue
            wlt.append(text.t("h2h.wlt", wins=wins, losses=losses, ties=ties))
            prob.append(text.t("number.not_estimable") if p is None else text.real(p, 3))
        matrix.append(tuple(wlt))
        probabilities.append(tuple(prob))
    names = [text.t("column.participant"), *(context.name_of(m) for m in order)]
    ratings = [
        (
            p.display_name,
            text.rating(p.elo, p.elo_lo, p.elo_hi),
            text.rating(p.bt, p.bt_lo, p.bt_hi),
        )
        for p in results.participants
    ]
    return (
        Markup(f'<p class="rg-robustness"><strong>{text.t("h2h.robustness")}</strong></p>'),
        paragraph(text.t("h2h.intro", battles=text.integer(results.pairwise.battles))),
        text.block(f"md-{rid}-matrix", text.t("h2h.matrix"), names, matrix),
        text.block(f"md-{rid}-win-probability", text.t("h2h.probability"), names, probabilities),
        text.block(
            f"md-{rid}-ratings",
            text.t("h2h.ratings"),
            [text.t("column.participant"), text.t("column.elo"), text.t("column.bt")],
            ratings,
        ),
    )
