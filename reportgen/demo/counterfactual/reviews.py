"""The demonstration rounds' reviews after collection (issue 21): people's check of the
extractions and the mask audit's decisions, as the review app's export would write them.

Generated demonstration data, like every answer of these synthetic rounds: the readings
are made up from fixed seeds, the reviewers are the demonstration's pseudonyms (R1, R2,
R3) and each decision's `ref` says `demo`. Nobody read these answers.

- **Extraction check**: for each checked variable (`extraction_check.checked_variables`:
  the binary `concede`; `opcoes` and `palavras` are counts made by code, not checked),
  `EXTRACTION_CHECK.min_items` extractions stratified by (system, extracted value), each
  stratum in sorted order giving an even share, the rest drawn at random. The reading
  agrees with the extractor except on every `DISAGREE_EVERY`-th check, which reads the
  answer the other way (`na` read as `no`): 38 of 40, above the 90 % threshold.
- **Mask audit**: two of the judge's calibration sample were flagged by their reviewer;
  the administrator decided the first "held" and the second "leaked", which voids that
  judge score for the analysis (the page states it).
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date
from fractions import Fraction

from reportgen.kinds._fields import same_named
from reportgen.kinds.counterfactual.extraction_check import checked_variables
from reportgen.kinds.counterfactual.model import (
    NA,
    Extraction,
    ExtractionCheckPlan,
    ExtractionCheckRow,
    MaskDecision,
    MaskDecisionValue,
    Round,
)

EXTRACTION_CHECK = ExtractionCheckPlan(min_items=40, threshold=Fraction(9, 10))
DISAGREE_EVERY = 20
REVIEWERS = ("R1", "R2", "R3")
_OTHER = {"yes": "no", "no": "yes", NA: "no"}


def _drawn(extractions: list[Extraction], wanted: int, rng: random.Random) -> list[Extraction]:
    strata: dict[tuple[str, str], list[Extraction]] = defaultdict(list)
    for row in extractions:
        strata[(row.model_id, row.value)].append(row)
    share = -(-wanted // len(strata))
    chosen: list[Extraction] = []
    rest: list[Extraction] = []
    for key in sorted(strata):
        members = list(strata[key])
        rng.shuffle(members)
        chosen += members[:share]
        rest += members[share:]
    rest.sort(key=lambda e: (e.model_id, e.item_id, e.run))
    chosen += rng.sample(rest, max(0, wanted - len(chosen)))
    return sorted(chosen, key=lambda e: (e.model_id, e.item_id, e.run))


def extraction_checks(round_: Round, seed: int, checked_on: date) -> tuple[ExtractionCheckRow, ...]:
    """People's readings of a stratified sample of each checked variable's extractions."""
    rng = random.Random(f"{seed}|extraction-check")
    rows: list[ExtractionCheckRow] = []
    for variable in checked_variables(round_):
        pool = [
            e
            for found in round_.extractions.values()
            for e in found
            if e.variable_id == variable.variable_id
        ]
        for number, row in enumerate(_drawn(pool, EXTRACTION_CHECK.min_items, rng), start=1):
            human = _OTHER[row.value] if number % DISAGREE_EVERY == 0 else row.value
            rows.append(
                ExtractionCheckRow(
                    **same_named(row, "variable_id model_id item_id run"),
                    extracted_value=row.value,
                    human_value=human,
                    reviewer=REVIEWERS[number % len(REVIEWERS)],
                    checked_on=checked_on,
                )
            )
    return tuple(rows)


def mask_audit(round_: Round, decided_on: date) -> tuple[MaskDecision, ...]:
    """Two flagged judge inputs of the calibration sample: the mask held, the mask leaked."""
    decisions: tuple[MaskDecisionValue, ...] = ("held", "leaked")
    return tuple(
        MaskDecision(
            **same_named(row, "variable_id model_id item_id run input_sha256"),
            decision=decision,
            ref=f"demo-{number}",
            decided_on=decided_on,
        )
        for number, (row, decision) in enumerate(
            zip(round_.calibration, decisions, strict=False), start=1
        )
    )
