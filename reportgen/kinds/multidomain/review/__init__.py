"""The multidomain review tasks: people score responses on the item's rubric.

Two tasks share one form (each criterion of the rubric, an integer 0-5, anchors at 0, 3
and 5):

- `audit` (Art. 26): every `ok` response of an active open test item, one unit per
  (item, participant, run). Which of them are audited is the admin side's draw
  (`derive.audit_draw`: the sampled items; all their `ok` responses).
- `calibration` (Art. 22): each calibration response of calibration.parquet (a pilot
  answer, no participant), keyed by its `response_id`.

The units carry no score of the jury, the adjudicator or the other raters: what a
reviewer reads is the statement, the criteria and the answer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping

from reportgen.kinds.multidomain.model import Criterion, Item, Round
from reportgen.kinds.multidomain.terms import active_items
from reportgen.kinds.review_task import SCORED, ReviewTask, ReviewUnit, RubricCriterion

AUDIT = "audit"
CALIBRATION = "calibration"
SCALE = (0, 5)  # the anchors are at 0, 3 and 5 (rubrics.parquet)
# sample_keys.model_id of a calibration response: it has no participant.
NO_PARTICIPANT = ""

_LABELS = {
    "pt-BR": {SCORED: "Pontuada"},
    "en": {SCORED: "Scored"},
}
_STRATA = ("domain", "language")


def _typed(round_: object) -> Round:
    if not isinstance(round_, Round):
        raise TypeError(f"not a multidomain round: {type(round_).__name__}")
    return round_


def rubric_criteria(round_: Round) -> dict[str, tuple[RubricCriterion, ...]]:
    """rubric_id -> its criteria in `position` order, as a reviewer reads them."""
    by_rubric: dict[str, list[Criterion]] = defaultdict(list)
    for criterion in round_.rubrics:
        by_rubric[criterion.rubric_id].append(criterion)
    return {
        rubric_id: tuple(
            RubricCriterion(
                criterion_id=c.criterion_id,
                name_pt=c.name_pt,
                name_en=c.name_en,
                anchor_0=c.anchor_0,
                anchor_3=c.anchor_3,
                anchor_5=c.anchor_5,
            )
            for c in sorted(criteria, key=lambda c: c.position)
        )
        for rubric_id, criteria in by_rubric.items()
    }


def _criteria_of(
    item: Item, rubrics: Mapping[str, tuple[RubricCriterion, ...]]
) -> tuple[RubricCriterion, ...]:
    return rubrics.get(item.rubric_id or "", ())


def audit_units(round_: object) -> Iterator[ReviewUnit]:
    """Every `ok` response of an active open test item: (item, participant, run)."""
    typed = _typed(round_)
    rubrics = rubric_criteria(typed)
    index_of = {item.item_id: index for index, item in enumerate(typed.items)}
    open_items = {item.item_id: item for item in active_items(typed.items) if item.type == "open"}
    for participant in typed.models:
        for response in typed.responses.get(participant.model_id, ()):
            item = open_items.get(response.item_id)
            if item is None or response.status != "ok":
                continue
            yield ReviewUnit(
                item_index=index_of[item.item_id],
                item_id=item.item_id,
                model_id=participant.model_id,
                prompt=item.prompt,
                output=response.raw_text or "",
                automatic="",  # the jury's scores stay in the archive: never in a sample
                stratum=(item.domain_id, item.language),
                run=response.run,
                language=item.language,
                criteria=_criteria_of(item, rubrics),
            )


def calibration_units(round_: object) -> Iterator[ReviewUnit]:
    """Each calibration response (calibration.parquet), once, keyed by its response_id."""
    typed = _typed(round_)
    rubrics = rubric_criteria(typed)
    index_of = {item.item_id: index for index, item in enumerate(typed.items)}
    items = {item.item_id: item for item in typed.items if item.calibration}
    seen: set[str] = set()
    for row in sorted(typed.calibration, key=lambda r: (r.item_id, r.response_id)):
        item = items.get(row.item_id)
        if item is None or row.response_id in seen:
            continue
        seen.add(row.response_id)
        yield ReviewUnit(
            item_index=index_of[item.item_id],
            item_id=item.item_id,
            model_id=NO_PARTICIPANT,
            prompt=item.prompt,
            output=row.response_text,
            automatic="",
            stratum=(item.domain_id, item.language),
            run=1,
            language=item.language,
            criteria=_criteria_of(item, rubrics),
            key=row.response_id,
        )


def _rubric_task(
    task_type: str,
    units: Callable[[object], Iterable[ReviewUnit]],
    related: Mapping[str, ReviewTask],
) -> ReviewTask:
    return ReviewTask(
        task_type=task_type,
        choices=(SCORED,),
        note_required=frozenset(),
        automatic_values=(),
        comparison={},
        labels=_LABELS,
        stratum_names=_STRATA,
        units=units,
        scale=SCALE,
        related=related,
    )


# Each task reaches the other through `related` (filled once both exist).
_RELATED: dict[str, ReviewTask] = {}
AUDIT_TASK = _rubric_task(AUDIT, audit_units, _RELATED)
CALIBRATION_TASK = _rubric_task(CALIBRATION, calibration_units, _RELATED)
_RELATED.update({AUDIT: AUDIT_TASK, CALIBRATION: CALIBRATION_TASK})
REVIEW_TASK = AUDIT_TASK  # the kind's own task: a batch without task_type is an audit
