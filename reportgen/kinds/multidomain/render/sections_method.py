"""Sections 1, 2 and 13 of the report: methodology, cast and versions, limitations."""

from __future__ import annotations

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.sections_disclosure import screening, system_instruction
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.text import DASH, bullets, paragraph

CANNOT_CHECK = ("art18", "art35", "art40")  # what software cannot check (catalogue keys)


def _threshold(value: object) -> str:
    """A declared threshold as the manifest writes it: an exact fraction ("3/2")."""
    return str(value)


def _setting(value: object, text: Text) -> str:
    """A generation setting: a number in the page's format, anything else as declared."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return text.integer(value) if isinstance(value, int) else text.as_declared(value)


def _generation(context: RoundContext, text: Text) -> list[tuple[str, str]]:
    """The profile and the settings every participant was called with."""
    manifest = context.round_.manifest
    generation = manifest.generation
    tools = generation.get("tools")
    return [
        (text.t("method.profile"), f"{manifest.profile} v{manifest.profile_version}"),
        (text.t("method.temperature"), _setting(generation.get("temperature"), text)),
        (text.t("method.max_tokens"), _setting(generation.get("max_tokens"), text)),
        (text.t("method.timeout"), _setting(generation.get("timeout_s"), text)),
        (
            text.t("method.tools"),
            text.t("method.no_tools") if not tools else ", ".join(map(str, tools)),  # type: ignore[call-overload]
        ),
        (text.t("method.runs"), text.integer(manifest.runs)),
    ]


def _parameters(context: RoundContext, text: Text) -> list[tuple[str, str]]:
    manifest = context.round_.manifest
    weights = manifest.weights
    return [
        *_generation(context, text),
        (
            text.t("method.weights"),
            text.t(
                "method.weights_value",
                **{k: text.integer(weights[k]) for k in ("mcq", "open", "calc")},
            ),
        ),
        (
            text.t("method.jury"),
            text.t(
                "method.jury_value",
                size=text.integer(manifest.jury.size),
                above=_threshold(manifest.jury.adjudicate_above),
            ),
        ),
        (
            text.t("method.audit"),
            text.t(
                "method.audit_value",
                fraction=_threshold(manifest.audit.fraction),
                minimum=text.integer(manifest.audit.min_per_stratum),
                above=_threshold(manifest.audit.invalidate_above),
            ),
        ),
        (
            text.t("method.bootstrap"),
            text.t(
                "method.bootstrap_value",
                replicates=text.integer(manifest.bootstrap_replicates),
                seed=manifest.bootstrap_seed,
            ),
        ),
        (
            text.t("method.pairwise"),
            text.t(
                "method.pairwise_value",
                initial=text.integer(manifest.pairwise.elo_initial),
                k=text.integer(manifest.pairwise.k),
                scale=text.integer(manifest.pairwise.scale),
                base=text.integer(manifest.pairwise.base),
                mean=text.integer(manifest.pairwise.bt_mean),
            ),
        ),
        (text.t("method.item_order_seed"), str(manifest.item_order_seed)),
        (text.t("method.bank_sha256"), manifest.bank_sha256),
        (text.t("method.judge_config_sha256"), manifest.judge_config_sha256),
        (text.t("method.extractor_version"), manifest.extractor_version),
    ]


def methodology(context: RoundContext, text: Text) -> tuple[Block, ...]:
    manifest = context.round_.manifest
    rid = context.round_id
    blocks: list[Block] = [paragraph(text.t("method.intro"))]
    blocks.append(
        text.block(
            f"md-{rid}-parameters",
            text.t("method.parameters"),
            (text.t("column.parameter"), text.t("column.value")),
            _parameters(context, text),
            numeric_from=99,
        )
    )
    blocks.append(Markup(f"## {text.t('method.deviations')} {{ #deviations }}"))
    if manifest.deviations:
        rows = [(d.key, text.pick(d.reason)) for d in manifest.deviations]
        blocks.append(
            text.block(
                f"md-{rid}-deviations",
                text.t("method.deviations"),
                (text.t("column.key"), text.t("column.reason")),
                rows,
                numeric_from=99,
            )
        )
    else:
        blocks.append(paragraph(text.t("method.no_deviations")))
    blocks.append(Markup(f"## {text.t('method.interpretations')} {{ #interpretations }}"))
    readings = [(i.id, text.pick(i.topic), text.pick(i.reading)) for i in manifest.interpretations]
    blocks.append(
        text.block(
            f"md-{rid}-interpretations",
            text.t("method.interpretations"),
            (text.t("column.id"), text.t("column.topic"), text.t("column.reading")),
            readings,
            numeric_from=99,
        )
    )
    blocks += system_instruction(context, text)
    blocks += screening(context, text)
    blocks.append(Markup(f"## {text.t('method.cannot_check')} {{ #cannot-check }}"))
    blocks.append(bullets([text.t(f"method.cannot.{key}") for key in CANNOT_CHECK]))
    # The site ships no CJK font (nothing is fetched at view time): say what a reader of
    # the zh items needs.
    blocks.append(Markup(f"## {text.t('method.fonts')} {{ #fonts }}"))
    blocks.append(paragraph(text.t("method.fonts_body")))
    return tuple(blocks)


CAST_COLUMNS = (
    "annex",
    "organization",
    "name",
    "api",
    "artefact",
    "affinity",
    "reserve",
    "evaluated",
)
JUDGE_COLUMNS = ("name", "kind", "role", "provider", "group", "conflict")


def _judges(context: RoundContext, text: Text) -> Block:
    """Judges' public configuration (Art. 7); a human reviewer is not named."""
    rows = []
    for j in context.round_.judges:
        rows.append(
            (
                j.display_name if j.kind == "model" else text.t("cast.human"),
                text.t(f"cast.kind.{j.kind}"),
                text.t(f"cast.role.{j.role}"),
                j.provider or DASH,
                j.economic_group or DASH,
                j.conflict_note if j.declared_conflict else text.t("word.no"),
            )
        )
    header = text.headers(JUDGE_COLUMNS, "cast.judges")
    return text.block(
        f"md-{context.round_id}-judges", text.t("cast.judges.title"), header, rows, numeric_from=99
    )


def cast(context: RoundContext, text: Text) -> tuple[Block, ...]:
    rid = context.round_id
    rows, footnotes = [], []
    for m in context.round_.models:
        name = m.display_name
        if m.verification_status == "verificar":
            footnotes.append(m.footnote_pt if text.language == "pt-BR" else m.footnote_en)
            name = f"{name} [{len(footnotes)}]"
        artefact = m.checksum if m.weights_open else m.snapshot
        reserve = (
            text.t("cast.replaces", annex=m.replaces)
            if m.reserve and m.replaces is not None
            else text.yes_no(m.reserve)
        )
        rows.append(
            (
                str(m.annex_id),
                m.organization,
                name,
                m.api_identifier,
                artefact or DASH,
                ", ".join(m.language_affinity),
                reserve,
                text.date(m.evaluated_on),
            )
        )
    header = text.headers(CAST_COLUMNS, "cast.column")
    blocks: list[Block] = [
        # On a phone the system's name stays in view (not its annex number).
        text.block(
            f"md-{rid}-cast",
            text.t("cast.caption"),
            header,
            rows,
            numeric_from=99,
            sticky=CAST_COLUMNS.index("name"),
        )
    ]
    if footnotes:
        blocks.append(paragraph(text.t("cast.footnotes")))
        blocks.append(bullets([f"[{n}] {note}" for n, note in enumerate(footnotes, start=1)]))
    blocks.append(Markup(f"## {text.t('cast.judges.title')} {{ #judges }}"))
    blocks.append(_judges(context, text))
    return tuple(blocks)


def limitations(context: RoundContext, text: Text) -> tuple[Block, ...]:
    manifest = context.round_.manifest
    results = context.results
    lines: list[str] = []
    if manifest.deviations:
        keys = ", ".join(d.key for d in manifest.deviations)
        lines.append(text.t("limits.deviations", keys=keys))
    if any(p.primary.lo is not None and p.primary.lo == p.primary.hi for p in results.participants):
        lines.append(text.t("limits.point_intervals"))
    lines.append(text.t("limits.non_native"))
    lines.append(text.t("limits.elo_order"))
    if not results.pairwise.bt_estimable:
        lines.append(text.t("limits.bt_not_estimable"))
    if context.provisional:
        lines.append(text.t("limits.provisional", date=text.date(results.dates.provisional_until)))
    ids = ", ".join(i.id for i in manifest.interpretations)
    lines.append(text.t("limits.readings", ids=ids or DASH))
    return (paragraph(text.t("limits.intro")), bullets(lines))
