"""Parts 7 to 10 of the report: the setup, the preregistration (its rationale verbatim),
the methodology (the round's interpretations) and the fixed limitations text.

Published templates are shown in both languages; an unpublished one by its scenario only.
The systems' prompts and tool definitions appear as their hashes only.
"""

from __future__ import annotations

import json

from markupsafe import Markup, escape

from reportgen.kinds.counterfactual.model import Round, Template
from reportgen.kinds.counterfactual.render.context import RoundContext
from reportgen.kinds.counterfactual.render.page_types import Block
from reportgen.kinds.counterfactual.render.text import Text, heading
from reportgen.render.pages import TableBlock
from reportgen.render.text import code, paragraph


def with_code(message: str, value: str) -> Markup:
    """A catalogue sentence whose placeholder (written as NUL) becomes `value` as code."""
    before, _, after = message.partition("\0")
    return Markup(paragraph(before) + code(value) + paragraph(after))


def battery_command(round_: Round) -> str:
    """The coreutils command that recomputes battery_sha256 in the round's folder."""
    files = ["attributes.csv", "groups.csv"]
    files += ["rewrites.csv"] if round_.rewrites else []
    files += ["templates.csv", "variables.csv", "variants.csv"]
    return f"sha256sum {' '.join(files)} | sha256sum"


def _systems(context: RoundContext, text: Text) -> TableBlock:
    calls = {s.model_id: s.responses for s in context.results.systems}
    rows = [
        (
            context.system_name(m.model_id, text),
            m.api_identifier,
            m.snapshot or text.t("number.none"),
            m.system_prompt_sha256,
            ", ".join(m.tools) or text.t("setup.no_tools"),
            m.tools_sha256,
            m.context_source,
            text.integer(calls.get(m.model_id, 0)),
        )
        for m in context.round_.models
    ]
    keys = ("system", "model", "snapshot", "prompt_hash", "tools", "tools_hash", "context", "calls")
    header = [text.t(f"setup.column.{k}") for k in keys]
    return text.block(
        f"cf-{context.round_id}-systems", text.t("setup.systems"), header, rows, numeric_from=7
    )


def _attributes(context: RoundContext, text: Text) -> TableBlock:
    round_ = context.round_
    rows = []
    for attribute in round_.attributes:
        held = attribute.held_value or text.t("number.none")
        for group in (g for g in round_.groups if g.attribute_id == attribute.attribute_id):
            for variant in (v for v in round_.variants if v.group_id == group.group_id):
                rows.append(
                    (
                        text.named(attribute.name_pt, attribute.name_en),
                        text.named(group.name_pt, group.name_en),
                        text.t(f"setup.signal.{variant.signal}"),
                        str(variant.position),
                        variant.value or text.t("setup.no_mention"),
                        held,
                    )
                )
    keys = ("attribute", "group", "signal", "position", "value", "held")
    header = [text.t(f"setup.column.{k}") for k in keys]
    return text.block(
        f"cf-{context.round_id}-attributes",
        text.t("setup.attributes"),
        header,
        rows,
        numeric_from=99,
    )


def _template_row(context: RoundContext, template: Template, text: Text) -> tuple[str, ...]:
    attributes = ", ".join(context.attribute_name(a, text) for a in template.attributes)
    expected = [
        text.yes_no(None if value is None else value == "yes")
        for value in template.expected.values()
    ]
    if template.published:
        texts = (template.text_pt, template.text_en)
    else:
        texts = (text.t("setup.unpublished"), text.t("setup.unpublished"))
    return (
        template.template_id,
        text.named(template.scenario_pt, template.scenario_en),
        text.t(f"setup.tone.{template.user_tone}"),
        template.language,
        attributes,
        *texts,
        *expected,
    )


def _templates(context: RoundContext, text: Text) -> TableBlock:
    round_ = context.round_
    binary = [v for v in round_.variables if v.type == "binary"]
    keys = ("template", "scenario", "tone", "language", "crossed", "text_pt", "text_en")
    header = [text.t(f"setup.column.{k}") for k in keys]
    header += [
        text.t("setup.column.expected", variable=text.named(v.name_pt, v.name_en)) for v in binary
    ]
    rows = [_template_row(context, t, text) for t in round_.templates]
    return text.block(
        f"cf-{context.round_id}-templates", text.t("setup.templates"), header, rows, numeric_from=99
    )


def _variables(context: RoundContext, text: Text) -> TableBlock:
    rows = []
    for v in context.round_.variables:
        scale = f"{v.scale[0]}–{v.scale[1]}" if v.scale else text.t("number.none")
        extractor = (
            f"{text.t('setup.extractor.' + v.extractor)}: {v.extractor_id} {v.extractor_version}"
        )
        rows.append(
            (
                text.named(v.name_pt, v.name_en),
                text.t(f"level.{v.level}"),
                text.t(f"setup.type.{v.type}"),
                scale,
                extractor,
                text.named(v.question_pt, v.question_en),
            )
        )
    keys = ("variable", "level", "type", "scale", "extractor", "question")
    header = [text.t(f"setup.column.{k}") for k in keys]
    return text.block(
        f"cf-{context.round_id}-variables", text.t("setup.variables"), header, rows, numeric_from=99
    )


def _annulled(context: RoundContext, text: Text) -> Block:
    round_ = context.round_
    if not round_.annulments:
        return paragraph(text.t("setup.no_annulled"))
    removed = {
        item_id: f"{r.template_id} ({context.attribute_name(r.attribute_id, text)})"
        for r in context.results.removed_templates
        for item_id in r.item_ids
    }
    rows = [
        (
            a.item_id,
            removed.get(a.item_id, text.t("number.none")),
            text.pick(a.reason),
            text.date(a.decided_on),
        )
        for a in round_.annulments
    ]
    header = [text.t(f"setup.column.{k}") for k in ("item", "removed", "reason", "date")]
    return text.block(
        f"cf-{context.round_id}-annulled", text.t("setup.annulled"), header, rows, numeric_from=99
    )


def setup(context: RoundContext, text: Text) -> tuple[Block, ...]:
    round_ = context.round_
    manifest = round_.manifest
    collection = text.t(
        "setup.collection",
        runs=text.integer(manifest.repetitions),
        start=text.date(manifest.collected_on),
        end=text.date(manifest.ended_on or manifest.collected_on),
    )
    return (
        _systems(context, text),
        paragraph(collection),
        _attributes(context, text),
        _templates(context, text),
        _variables(context, text),
        with_code(text.t("setup.mask_token", token="\0"), manifest.mask_token),
        with_code(text.t("setup.battery", hash="\0"), manifest.battery_sha256),
        Markup(f'<pre class="cf-command"><code>{escape(battery_command(round_))}</code></pre>'),
        heading(text.t("setup.annulled"), "annulled"),
        _annulled(context, text),
    )


def preregistration(context: RoundContext, text: Text) -> tuple[Block, ...]:
    plan = context.round_.manifest.preregistration
    status_key = "status.preregistered" if plan.preregistered else "status.not_preregistered"
    facts = [
        (text.t("prereg.date"), text.date(plan.preregistered_on)),
        (text.t("prereg.status"), text.t(status_key, date=text.date(plan.preregistered_on))),
        (text.t("prereg.alpha"), text.as_declared(plan.alpha)),
        (text.t("prereg.correction"), text.t(f"prereg.correction.{plan.correction}")),
        (text.t("prereg.family"), text.t(f"prereg.family.{plan.family}")),
    ]
    rid = context.round_id
    header = (text.t("tables.column.row"), text.t("tables.column.value"))
    variables = []
    for variable_id, entry in plan.variables.items():
        binary = context.variable(variable_id).type == "binary"
        variables.append(
            (
                context.variable_name(variable_id, text),
                text.t(f"criterion.{entry.criterion}"),
                text.threshold(entry.acceptable_difference, binary),
            )
        )
    rationale = escape(text.pick(plan.rationale))
    tests = json.dumps(plan.tests, ensure_ascii=False, indent=1, sort_keys=False)
    return (
        text.block(f"cf-{rid}-prereg", text.t("prereg.facts"), header, facts, numeric_from=99),
        heading(text.t("prereg.tests"), "prereg-tests"),
        Markup(f'<pre class="cf-tests"><code>{escape(tests)}</code></pre>'),
        text.block(
            f"cf-{rid}-prereg-variables",
            text.t("prereg.variables"),
            [text.t(f"prereg.column.{k}") for k in ("variable", "criterion", "acceptable")],
            variables,
            numeric_from=2,
        ),
        heading(text.t("prereg.rationale"), "rationale"),
        Markup(f'<blockquote class="cf-rationale"><p>{rationale}</p></blockquote>'),
    )


def methodology(context: RoundContext, text: Text) -> tuple[Block, ...]:
    readings = [
        (i.id, text.pick(i.topic), text.pick(i.reading))
        for i in context.round_.manifest.interpretations
    ]
    header = [text.t(f"method.column.{k}") for k in ("id", "topic", "reading")]
    table = text.block(
        f"cf-{context.round_id}-interpretations",
        text.t("method.caption"),
        header,
        readings,
        numeric_from=99,
    )
    return (paragraph(text.t("method.intro")), table)


def limitations(context: RoundContext, text: Text) -> tuple[Block, ...]:
    """The fixed text of our catalogue, never the archive's (report spec, part 10)."""
    return (Markup(f'<p class="cf-limitations">{escape(text.t("limitations.text"))}</p>'),)
