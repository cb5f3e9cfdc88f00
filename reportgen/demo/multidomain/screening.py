"""The demonstration rounds' personal-data screening (Art. 37, screening.parquet).

Every item is screened before the round by a demonstration screener (clearly labelled).
Items whose text holds data about a person, all of it made up, carry the declaration
that it is synthetic: in the REG round, the medical calculations give a fictitious
patient's weight (health data).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from reportgen.kinds.multidomain.model import Item, Screening

SCREENER = "Triagem de dados pessoais da demonstração / demonstration screener"
PATIENT = (
    "O paciente e o peso citados são fictícios: dados pessoais sintéticos (Art. 37).",
    "The patient and the weight given are fictitious: synthetic personal data (Art. 37).",
)


def nothing_personal(item: Item) -> tuple[str, str] | None:
    return None


def fictitious_patient(item: Item) -> tuple[str, str] | None:
    """The medical calculations speak of a (made-up) patient's weight."""
    return PATIENT if item.domain_id == "medica" and item.type == "calc" else None


@dataclass(frozen=True)
class ScreeningPlan:
    screened_on: date
    declaration: Callable[[Item], tuple[str, str] | None] = nothing_personal
    screened_by: str = SCREENER


def screening_rows(plan: ScreeningPlan, items: Sequence[Item]) -> tuple[Screening, ...]:
    rows = []
    for item in items:
        declared = plan.declaration(item)
        rows.append(
            Screening(
                item_id=item.item_id,
                screened_by=plan.screened_by,
                screened_on=plan.screened_on,
                result="no_personal_data" if declared is None else "synthetic_personal_data",
                declaration_pt=None if declared is None else declared[0],
                declaration_en=None if declared is None else declared[1],
            )
        )
    return tuple(rows)
