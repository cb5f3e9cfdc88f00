"""The multidomain checks that need the typed round: items, rubrics, models and judges
against round.json and each other (refusals 15 and 21's bank_sha256 among them), the
responses against their items (archive_responses), then the cross-table rules."""

from __future__ import annotations

from collections import Counter

from reportgen.archive import ITEMS_FILE, MANIFEST_FILE, MODELS_FILE, Problems
from reportgen.kinds.multidomain.archive_bank import add_revision_problems
from reportgen.kinds.multidomain.archive_responses import check_responses_against
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.schemas import JUDGES_FILE, RUBRICS_FILE
from reportgen.kinds.multidomain.terms import bank_sha256, language_matches


def check_round_files(round_: Round, problems: Problems) -> None:
    """Every problem of the round's files that needs another file to see."""
    _check_items(round_, problems)
    add_revision_problems(round_, problems)
    _check_rubrics_used(round_, problems)
    _check_models_and_judges(round_, problems)
    check_responses_against(round_, problems)


def _check_items(round_: Round, problems: Problems) -> None:
    manifest = round_.manifest
    found = problems.in_file(ITEMS_FILE)
    domain_ids = {domain.id for domain in manifest.domains}
    entries: list[tuple[str, str]] = []
    for number, item in enumerate(round_.items, start=1):
        where = f"row {number} (item {item.item_id!r})"
        if item.domain_id not in domain_ids:
            entries.append(
                (f"{where}, domain_id", f"{item.domain_id!r} is not a domain of round.json")
            )
        expected = manifest.weights.get(item.type)
        if item.weight != expected:
            entries.append(
                (
                    f"{where}, weight",
                    f"a {item.type} item weighs {expected} (multidomain.weights), "
                    f"got {item.weight}",
                )
            )
    found.rows(entries, "rows with a problem")
    recomputed = bank_sha256(round_.items)
    if recomputed != manifest.bank_sha256:
        problems.add(
            MANIFEST_FILE,
            "multidomain.bank_sha256",
            f"expected {recomputed} (recomputed from items.parquet), got {manifest.bank_sha256}",
        )
    for language in manifest.languages:
        if not any(i.calibration and language_matches(i.language, language) for i in round_.items):
            found.add(
                "calibration", f"expected at least one calibration item in {language} (Art. 22)"
            )


def _check_rubrics_used(round_: Round, problems: Problems) -> None:
    used = {item.rubric_id for item in round_.items}
    unused = sorted({c.rubric_id for c in round_.rubrics} - used)
    for rubric_id in unused:
        problems.add(RUBRICS_FILE, f"rubric {rubric_id!r}", "no item uses this rubric")


def _check_models_and_judges(round_: Round, problems: Problems) -> None:
    counts = Counter(model.annex_id for model in round_.models)
    for number, model in enumerate(round_.models, start=1):
        if counts[model.annex_id] > 1:
            problems.add(
                MODELS_FILE, f"row {number}, annex_id", f"annex_id {model.annex_id} appears twice"
            )
    model_ids = {model.model_id for model in round_.models}
    for number, judge in enumerate(round_.judges, start=1):
        if judge.participant_model_id and judge.participant_model_id not in model_ids:
            problems.add(
                JUDGES_FILE,
                f"row {number}, participant_model_id",
                f"{judge.participant_model_id!r} is not a participant of models.csv",
            )
