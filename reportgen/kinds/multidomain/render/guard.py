"""What the leak guard keeps off the site of a multidomain round (report spec, "Never on
the site").

- Never, at any date: any canary (also in another form: fullwidth, other case), raw
  responses, the texts the judges saw, the anonymisation labels (`SISTEMA-XX`).
- Until `ended_on + embargo_days`: test-item prompts, answer keys, justifications, the
  texts of rubrics used only by test items, and the ids that render/embargo.py covers
  (flagged, superseded and audit-drawn items), each one public from the day a ledger
  line names it; and the system instruction sent to participants (its SHA-256 is public
  from the start).

Eight consecutive tokens of a secret text are a leak; tokens are `terms.tokens` (each
Chinese character is one), so eight characters of a Chinese prompt are caught.
Calibration items and their rubrics are published with the report: their texts are public.
"""

from __future__ import annotations

from reportgen.guard import GuardMaterial
from reportgen.kinds.multidomain.model import Item, Round
from reportgen.kinds.multidomain.render.embargo import id_embargo
from reportgen.kinds.multidomain.render.series import SERIES_FOLDER
from reportgen.kinds.multidomain.results import contamination_section
from reportgen.kinds.multidomain.terms import normalise, tokens


def _rubric_texts(round_: Round, rubric_ids: frozenset[str]) -> list[tuple[str, str]]:
    texts = []
    for criterion in round_.rubrics:
        if criterion.rubric_id in rubric_ids:
            source = f"rubric {criterion.rubric_id}/{criterion.criterion_id}"
            for text in (
                criterion.name_pt,
                criterion.name_en,
                criterion.anchor_0,
                criterion.anchor_3,
                criterion.anchor_5,
            ):
                texts.append((source, text))
    return texts


def _item_texts(item: Item) -> list[str]:
    return [t for t in (item.prompt, item.answer_key, item.justification) if t]


def guard_material(round_: Round) -> GuardMaterial:
    """The round's secrets for `reportgen.guard` (the embargo is decided there by as_of)."""
    # The same findings and rule as the pages (render/embargo.py), over the whole ledger:
    # the guard drops an id once `as_of` reaches the day its ledger line was decided.
    embargo = id_embargo(round_, contamination_section(round_))
    tests = [item for item in round_.items if not item.calibration]
    published = [item for item in round_.items if item.calibration]
    public_rubrics = frozenset(i.rubric_id for i in published if i.rubric_id)
    secret_rubrics = frozenset(i.rubric_id for i in tests if i.rubric_id) - public_rubrics
    public_texts = [text for item in published for text in _item_texts(item)]
    public_texts += [text for _, text in _rubric_texts(round_, public_rubrics)]
    embargoed = [(item.item_id, text) for item in tests for text in _item_texts(item)]
    embargoed += _rubric_texts(round_, secret_rubrics)
    if round_.manifest.system_prompt:
        # Published with the items (Art. 8 instruction; only its hash before).
        embargoed.append(("the system instruction", round_.manifest.system_prompt))
    always: list[tuple[str, str]] = []
    for model_id, responses in round_.responses.items():
        for response in responses:
            if response.raw_text:
                source = f"response {response.item_id}/{model_id}/{response.run}"
                always.append((source, response.raw_text))
    for view in round_.judge_views:
        if view.view_text:
            always.append((f"judge view {view.item_id}/{view.run}", view.view_text))
    labels = sorted({view.presented_as for view in round_.judge_views})
    names = [name for m in round_.models for name in (m.display_name, m.organization, m.provider)]
    names += [judge.display_name for judge in round_.judges]
    return GuardMaterial(
        round_id=round_.round_id,
        secret_texts=tuple(always),
        public_texts=tuple(public_texts),
        canaries=tuple(item.canary for item in round_.items if item.canary),
        names=tuple(names),
        tokenise=tokens,
        fold=normalise,
        never_strings=tuple(("the anonymisation label", label) for label in labels),
        embargoed_texts=tuple(embargoed),
        embargoed_ids=tuple(sorted(embargo.ids)),
        ids_public_from=tuple(sorted(embargo.named_from.items())),
        embargo_ends=embargo.ends,
        id_folders=(SERIES_FOLDER,),  # the history pages name items of every round
    )
