"""What tells that an answer names itself besides its known names, for the anonymiser
(review_app.anonymiser.anonymise): the names and makers in no list that its self-introductions give
(review_app.anonymiser.intro, cjk_intro, opening), the organisations it serves
(anonymiser.org), and what it runs on or is described as (anonymiser.basis)."""

from __future__ import annotations

from review_app.anonymiser.basis import (
    spans_of_cjk_speakers,
    spans_of_described_assistants,
    spans_of_models_run_on,
)
from review_app.anonymiser.cjk_intro import spans_of_cjk_introductions, spans_of_cjk_makers
from review_app.anonymiser.intro import spans_of_introduced_names, spans_of_unknown_makers
from review_app.anonymiser.opening import (
    spans_of_cjk_names_after_latin_cues,
    spans_of_opening_speakers,
)
from review_app.anonymiser.org import spans_of_own_organisations
from review_app.anonymiser.textfold import FoldedText


def spans_of_speakers(document: FoldedText) -> list[tuple[int, int]]:
    """The spans of the speaker's names, makers and organisations in no list."""
    return [
        *spans_of_unknown_makers(document),
        *spans_of_cjk_makers(document),
        *spans_of_introduced_names(document),
        *spans_of_opening_speakers(document),
        *spans_of_cjk_names_after_latin_cues(document),
        *spans_of_cjk_introductions(document),
        *spans_of_own_organisations(document),
        *spans_of_models_run_on(document),
        *spans_of_described_assistants(document),
        *spans_of_cjk_speakers(document),
    ]
