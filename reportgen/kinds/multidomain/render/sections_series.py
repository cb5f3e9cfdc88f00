"""The history pages of a build with two or more multidomain rounds (Art. 2(d), 11, 17).

Under `series/` in each language's folder (render/series.py computes what they show):

- `index.md`: the rounds (id, dates, bank version, items, participants) and every
  participant's rank and primary score [95% CI] round by round;
- `bank-versions.md`: the bank version register: each version, the rounds that applied
  it, and the items added, removed and revised from the previous version;
- `<model_id>.md`: one participant's history (rank, technical-tie group, primary and
  global scores with their intervals and n, snapshot, change from its previous round).

With one round there is no series: no page is written and nothing is linked.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import notices
from reportgen.kinds.multidomain.render.page_types import AnnexPage, Block
from reportgen.kinds.multidomain.render.series import (
    SERIES_FOLDER,
    BankVersion,
    ParticipantSeries,
    Series,
    Standing,
    VersionStep,
)
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.pages import PageHead, TableBlock
from reportgen.render.table import escape_markdown
from reportgen.render.text import DASH, bullets, paragraph

INDEX, BANK_PAGE = "index", "bank-versions"


def series_head(series: Series, title: str, text: Text) -> PageHead:
    """Art. 2 first; synthetic data and provisional results when any round has them."""
    synthetic = any(c.round_.manifest.synthetic for c in series.contexts)
    provisional = [c.results.dates.provisional_until for c in series.contexts if c.provisional]
    until = max(provisional) if provisional else None
    body = text.t("series.synthetic") if synthetic else None
    return PageHead(title, notices(text, body, until, "series.provisional"))


def version_name(version: BankVersion, text: Text) -> str:
    if version.version is not None:
        return text.t("series.version", version=version.version)
    return text.t("series.version_unrecorded", round=version.round_ids[0])


def _link(label: str, href: str) -> Markup:
    return Markup(f"[{escape_markdown(label)}]({href})")


def _rounds_table(series: Series, text: Text) -> TableBlock:
    rows = []
    for context in series.contexts:
        manifest, results = context.round_.manifest, context.results
        scored = results.participants[0].global_score.n if results.participants else 0
        tests = sum(1 for item in context.round_.items if not item.calibration)
        rows.append(
            (
                context.round_id,
                text.date(manifest.collected_on),
                text.date(manifest.ended_on or manifest.collected_on),
                version_name(series.round_version[context.round_id], text),
                manifest.bank_sha256[:12],
                text.integer(tests),
                text.integer(scored),
                text.integer(len(results.participants)),
            )
        )
    keys = ("round", "collected_on", "ended_on", "bank_version", "bank_sha256", "test_items")
    header = text.headers((*keys, "scored_items", "participants"), "series.column")
    return text.block(
        "md-series-rounds",
        text.t("series.rounds_caption"),
        header,
        rows,
        numeric_from=5,
        notes=(text.t("series.rounds_note"),),
    )


def _cell(standing: Standing | None, text: Text) -> str:
    if standing is None:
        return text.t("series.absent")
    return text.t("series.rank_score", rank=standing.rank, score=text.score(standing.primary))


def _overview_table(series: Series, text: Text) -> TableBlock:
    rows = [
        (participant.display_name, *(_cell(s, text) for s in participant.standings))
        for participant in series.participants
    ]
    header = [text.t("column.participant"), *(c.round_id for c in series.contexts)]
    return text.block(
        "md-series-participants",
        text.t("series.participants_caption"),
        header,
        rows,
        sticky=0,
        notes=(text.t("series.compare_note"),),
    )


def index_blocks(series: Series, text: Text) -> tuple[Block, ...]:
    links = [
        _link(participant.display_name, f"{participant.model_id}.md")
        for participant in series.participants
    ]
    return (
        paragraph(text.t("series.intro", rounds=text.integer(len(series.contexts)))),
        _rounds_table(series, text),
        Markup(f"## {escape_markdown(text.t('series.participants_title'))} {{ #participants }}"),
        _overview_table(series, text),
        paragraph(text.t("series.participant_pages")),
        bullets(links),
        Markup(f"## {escape_markdown(text.t('series.bank_title'))} {{ #bank }}"),
        text.tm("series.bank_link", link=_link(text.t("series.bank_title"), f"{BANK_PAGE}.md")),
    )


def participant_blocks(
    series: Series, participant: ParticipantSeries, text: Text
) -> tuple[Block, ...]:
    rows = []
    for context, standing in zip(series.contexts, participant.standings, strict=True):
        version = version_name(series.round_version[context.round_id], text)
        if standing is None:
            rows.append((context.round_id, version, text.t("series.absent"), *(DASH,) * 7))
            continue
        change = DASH if standing.change is None else text.decimal(standing.change)
        group = text.t("ties.group", number=standing.tie_group) if standing.tie_group else DASH
        rows.append(
            (
                context.round_id,
                version,
                standing.snapshot,
                text.t("series.rank_of", rank=standing.rank, of=len(context.results.participants)),
                group,
                text.score(standing.primary),
                text.integer(standing.primary.n),
                text.score(standing.global_score),
                text.integer(standing.global_score.n),
                change,
            )
        )
    keys = ("round", "bank_version", "snapshot", "rank", "tie_group", "primary", "n", "global")
    header = text.headers((*keys, "n", "change"), "series.column")
    table = text.block(
        f"md-series-{participant.model_id}",
        text.t("series.history_caption", name=participant.display_name),
        header,
        rows,
        numeric_from=3,
        notes=(text.t("series.compare_note"),),
    )
    back = _link(text.t("series.title"), f"{INDEX}.md")
    return (paragraph(text.t("series.participant_intro")), table, text.tm("series.back", link=back))


def _items_table(
    series: Series, text: Text, table_id: str, caption: str, rows: Sequence[tuple[str, str]]
) -> list[Block]:
    """(item id, hash) rows, the embargoed ones counted, not named."""
    shown = [(item_id, digest) for item_id, digest in rows if series.shows_id(item_id)]
    hidden = len(rows) - len(shown)
    blocks: list[Block] = []
    if shown:
        header = [text.t("column.item"), text.t("series.column.content_sha256")]
        blocks.append(text.block(table_id, caption, header, shown, numeric_from=99))
    if hidden:
        blocks.append(paragraph(text.t("series.hidden", count=text.integer(hidden))))
    if not rows:
        blocks.append(paragraph(text.t("series.none")))
    return blocks


def _step_blocks(series: Series, step: VersionStep, text: Text) -> list[Block]:
    before, after = version_name(step.before, text), version_name(step.after, text)
    anchor = f"v{step.before.number}-v{step.after.number}"
    blocks: list[Block] = [
        Markup(
            f"## {escape_markdown(text.t('series.step_title', before=before, after=after))}"
            f" {{ #{anchor} }}"
        ),
        paragraph(
            text.t(
                "series.step_counts",
                kept=text.integer(step.kept),
                added=text.integer(len(step.added)),
                removed=text.integer(len(step.removed)),
                revised=text.integer(len(step.revised)),
            )
        ),
        Markup(f"### {escape_markdown(text.t('series.revised_title'))}"),
    ]
    revised = [r for r in step.revised if series.shows_id(r.old_id) and series.shows_id(r.new_id)]
    if revised:
        header = text.headers(("old", "old_sha", "new", "new_sha"), "series.column")
        pairs = [(r.old_id, r.old_sha256, r.new_id, r.new_sha256) for r in revised]
        caption = text.t("series.revised_caption", before=before, after=after)
        blocks.append(
            text.block(f"md-series-{anchor}-revised", caption, header, pairs, numeric_from=99)
        )
    if len(revised) < len(step.revised):
        blocks.append(
            paragraph(text.t("series.hidden", count=text.integer(len(step.revised) - len(revised))))
        )
    if not step.revised:
        blocks.append(paragraph(text.t("series.none")))
    for kind, rows in (("added", step.added), ("removed", step.removed)):
        blocks.append(Markup(f"### {escape_markdown(text.t(f'series.{kind}_title'))}"))
        caption = text.t(f"series.{kind}_caption", before=before, after=after)
        blocks += _items_table(series, text, f"md-series-{anchor}-{kind}", caption, rows)
    return blocks


def bank_blocks(series: Series, text: Text) -> tuple[Block, ...]:
    rows = [
        (
            version_name(version, text),
            ", ".join(version.round_ids),
            text.integer(len(version.items)),
        )
        for version in series.versions
    ]
    header = text.headers(("bank_version", "rounds", "bank_items"), "series.column")
    blocks: list[Block] = [
        paragraph(text.t("series.bank_intro")),
        text.block(
            "md-series-versions", text.t("series.versions_caption"), header, rows, numeric_from=2
        ),
    ]
    if not series.steps:
        blocks.append(paragraph(text.t("series.one_version")))
    for step in series.steps:
        blocks += _step_blocks(series, step, text)
    return tuple(blocks)


def series_pages(series: Series, text: Text) -> list[tuple[str, AnnexPage]]:
    """(path under the language's folder, page) of every history page."""
    title = text.t("series.title")
    pages = [
        (
            f"{SERIES_FOLDER}/{INDEX}.md",
            AnnexPage(
                series_head(series, title, text), Markup("series"), index_blocks(series, text)
            ),
        ),
        (
            f"{SERIES_FOLDER}/{BANK_PAGE}.md",
            AnnexPage(
                series_head(series, text.t("series.bank_title"), text),
                Markup("bank-versions"),
                bank_blocks(series, text),
            ),
        ),
    ]
    for participant in series.participants:
        head = series_head(
            series, text.t("series.participant_title", name=participant.display_name), text
        )
        page = AnnexPage(head, Markup("history"), participant_blocks(series, participant, text))
        pages.append((f"{SERIES_FOLDER}/{participant.model_id}.md", page))
    return pages


def history_link(text: Text) -> tuple[Block, ...]:
    """A round's first page, in a series: where its history across rounds is."""
    link = _link(text.t("series.title"), f"../{SERIES_FOLDER}/{INDEX}.md")
    return (
        Markup(f"## {escape_markdown(text.t('series.title'))} {{ #series }}"),
        text.tm("series.round_link", link=link),
    )


def series_nav(series: Series) -> list[str]:
    return [
        f"{SERIES_FOLDER}/{INDEX}.md",
        f"{SERIES_FOLDER}/{BANK_PAGE}.md",
        *(f"{SERIES_FOLDER}/{p.model_id}.md" for p in series.participants),
    ]
