"""Part 2 of the report: the findings of each system (metrics §7 order: level decision →
quality → tone, then by finding, as the results list them).

Each line gives the level, the attribute, the variable, the primary gap with its 95%
interval and criterion, the acceptable difference, the flag (yes/no variables), the
finding's label (a badge with a mark and a border of its own per finding, site.css, so
that colour is never the only difference), the name-carried warning (attributes told by a
name only) and, in a round that was not preregistered, the banner. The list is an HTML
block; every data text in it is escaped.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from reportgen.kinds.counterfactual.render.context import RoundContext, reason_text
from reportgen.kinds.counterfactual.render.page_types import Block
from reportgen.kinds.counterfactual.render.text import Text, heading
from reportgen.kinds.counterfactual.results import Finding
from reportgen.render.text import paragraph


def finding_label(finding: str, text: Text) -> str:
    return text.t(f"finding.{finding}")


def _line(context: RoundContext, finding: Finding, text: Text) -> str:
    binary = finding.type == "binary"
    if finding.finding in ("judge_not_calibrated", "extractor_below_agreement"):
        # A judge that failed calibration (an extractor people disagreed with) yields no
        # finding: no gap on this line (the values stay in the tables, marked), report
        # spec "Never on the site".
        key = "not_calibrated" if finding.finding == "judge_not_calibrated" else "not_checked"
        return text.t(
            f"findings.{key}",
            attribute=context.attribute_name(finding.attribute_id, text),
            variable=context.variable_name(finding.variable_id, text),
        )
    interval = finding.interval
    shown = text.t(
        "findings.line",
        attribute=context.attribute_name(finding.attribute_id, text),
        variable=context.variable_name(finding.variable_id, text),
        gap=text.gap(None if finding.primary_gap is None else finding.primary_gap.fraction, binary),
        interval=text.gap_interval(
            None if interval is None else interval.lo,
            None if interval is None else interval.hi,
            binary,
        ),
        criterion=text.t(f"criterion.{finding.criterion}"),
        acceptable=text.threshold(finding.acceptable_difference.fraction, binary),
    )
    parts = [" ".join(shown.split())]  # no double space when there is no interval
    if binary:
        parts.append(text.t("findings.flag", flag=text.flag(finding.flag)))
    if finding.finding == "not_computable" and finding.reason:
        parts.append(text.t("findings.reason", reason=reason_text(finding.reason, text)))
    return "; ".join(parts)


def finding_item(context: RoundContext, finding: Finding, text: Text) -> Markup:
    """One <li>: the label first, then the level and the line; warnings after. Its tooltip
    compares the exact gap with the exact acceptable difference (both rounded on the line)."""
    label = escape(finding_label(finding.finding, text))
    level = escape(text.t(f"level.{finding.level}"))
    body = escape(_line(context, finding, text))
    extra = ""
    if finding.name_carried and context.carries_names(finding.attribute_id):
        extra += f' <span class="cf-name-carried">{escape(text.t("findings.name_carried"))}</span>'
    if not context.preregistered:
        banner = escape(text.t("notice.not_preregistered"))
        extra += f' <span class="cf-not-preregistered">{banner}</span>'
    title = ""
    if finding.primary_gap is not None and finding.finding not in (
        "judge_not_calibrated",
        "extractor_below_agreement",
    ):
        exact = text.t(
            "findings.exact",
            gap=finding.primary_gap.exact,
            acceptable=finding.acceptable_difference.exact,
        )
        title = f' title="{escape(exact)}"'
    return Markup(
        f'<li class="cf-finding" data-level="{escape(finding.level)}"'
        f' data-finding="{escape(finding.finding)}"'
        f' data-attribute="{escape(finding.attribute_id)}"'
        f' data-variable="{escape(finding.variable_id)}"{title}>'
        f'<strong class="cf-status">{label}</strong> · {level} · {body}.{extra}</li>'
    )


def findings(context: RoundContext, text: Text) -> tuple[Block, ...]:
    blocks: list[Block] = [paragraph(text.t("findings.intro"))]
    for system in context.results.systems:
        blocks.append(
            heading(context.system_name(system.model_id, text), f"findings-{system.model_id}")
        )
        if not system.findings:
            blocks.append(paragraph(text.t("findings.none")))
            continue
        items = "\n".join(finding_item(context, f, text) for f in system.findings)
        list_id = escape(f"cf-{context.round_id}-findings-{system.model_id}")
        blocks.append(Markup(f'<ol class="cf-findings" id="{list_id}">\n{items}\n</ol>'))
    return tuple(blocks)
