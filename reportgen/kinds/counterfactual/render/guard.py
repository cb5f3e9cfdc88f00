"""What the leak guard keeps off the site of a counterfactual round (report spec, "Never on
the site"), at every date (a counterfactual round has no embargo):

- the texts of unpublished templates (both languages, their context and their
  writing-style rewrites): the site shows them by scenario only;
- every rendered prompt and rendered context (items.parquet), published template or not:
  the templates and the names suffice, so no rendered prompt is ever listed;
- raw responses, and the masked texts model extractors and judges received;
- canaries, in any case or compatibility form.

Eight consecutive words of a secret text are a leak unless they also occur in a public
text (the published templates and rewrites, which the setup prints). System prompts and
tool definitions are not in the archive (models.csv holds their hashes, which the setup
shows), and calibration reviewers appear nowhere on the page: the calibration shows pooled
agreement only, so no reviewer pseudonym needs guarding.
"""

from __future__ import annotations

import unicodedata

from reportgen.guard import GuardMaterial
from reportgen.kinds.counterfactual.model import Round, Template


def fold(text: str) -> str:
    """NFKC then casefold: a fullwidth or upper-case copy of a canary is the canary."""
    return unicodedata.normalize("NFKC", text).casefold()


def _template_texts(template: Template, round_: Round) -> list[str]:
    texts = [template.text_pt, template.text_en]
    if template.context:
        texts.append(template.context)
    for rewrite in round_.rewrites:
        if rewrite.template_id == template.template_id:
            texts += [rewrite.text_pt, rewrite.text_en]
    return [text for text in texts if text]


def _secret_texts(round_: Round) -> list[tuple[str, str]]:
    secret: list[tuple[str, str]] = []
    for template in round_.templates:
        if not template.published:
            source = f"unpublished template {template.template_id}"
            secret += [(source, text) for text in _template_texts(template, round_)]
    for item in round_.items:
        secret.append((f"rendered prompt {item.item_id}", item.prompt))
        if item.context:
            secret.append((f"rendered context {item.item_id}", item.context))
    for model_id, responses in round_.responses.items():
        for response in responses:
            if response.raw_text:  # None only in a round read without its texts
                source = f"response {response.item_id}/{model_id}/{response.run}"
                secret.append((source, response.raw_text))
    for model_id, extractions in round_.extractions.items():
        for extraction in extractions:
            if extraction.input_text:
                source = (
                    f"extractor input {extraction.item_id}/{model_id}/{extraction.run}"
                    f"/{extraction.variable_id}"
                )
                secret.append((source, extraction.input_text))
    return secret


def _names(round_: Round) -> list[str]:
    names = [name for m in round_.models for name in (m.display_name, m.provider)]
    names += [name for a in round_.attributes for name in (a.name_pt, a.name_en)]
    names += [name for g in round_.groups for name in (g.name_pt, g.name_en)]
    names += [name for v in round_.variables for name in (v.name_pt, v.name_en)]
    names += [v.value for v in round_.variants if v.value]
    return names


def guard_material(round_: Round) -> GuardMaterial:
    """The round's secrets for `reportgen.guard`."""
    public: list[str] = []
    for template in round_.templates:
        if template.published:
            public += _template_texts(template, round_)
    return GuardMaterial(
        round_id=round_.round_id,
        secret_texts=tuple(_secret_texts(round_)),
        public_texts=tuple(public),
        canaries=tuple(item.canary for item in round_.items if item.canary),
        names=tuple(_names(round_)),
        fold=fold,
    )
