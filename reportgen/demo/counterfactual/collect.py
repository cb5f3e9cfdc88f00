"""One system's collection: R runs, each one pass over every item in a freshly shuffled
order (interleaved by construction), the frozen extractions and the judge's masked inputs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from reportgen.demo.counterfactual.answers import (
    Answer,
    compose,
    decision_read,
    options_listed,
)
from reportgen.demo.counterfactual.battery_signals import VARIABLES
from reportgen.demo.counterfactual.battery_templates import scenario_kind
from reportgen.demo.counterfactual.behaviour import Behaviour, Draw, draw
from reportgen.demo.counterfactual.render import Cell, greeting_name, route_place
from reportgen.kinds.counterfactual.model import NA, Extraction, Response
from reportgen.kinds.counterfactual.terms import sha256_text, words


@dataclass(frozen=True)
class SystemCalls:
    """How one system was called: its hashes and when each run began (UTC)."""

    behaviour: Behaviour
    system_prompt_sha256: str
    tools_sha256: str
    run_starts: Sequence[datetime]  # one per run


@dataclass(frozen=True)
class Collected:
    responses: tuple[Response, ...]
    extractions: tuple[Extraction, ...]
    # (item_id, run) -> the tone the answer's phrasing carries (what a careful human reads)
    tones: dict[tuple[str, int], int]


def collect(calls: SystemCalls, cells: Sequence[Cell], seed: int, mask: str) -> Collected:
    """Responses in run_order, and their extractions in the same order, variables.csv
    order within a response."""
    model_id = calls.behaviour.model_id
    responses: list[Response] = []
    extractions: list[Extraction] = []
    tones: dict[tuple[str, int], int] = {}
    order = 0
    for run, start in enumerate(calls.run_starts, start=1):
        shuffled = list(cells)
        random.Random(f"{seed}|{model_id}|order|{run}").shuffle(shuffled)
        pacing = random.Random(f"{seed}|{model_id}|pacing|{run}")
        moment = start
        for cell in shuffled:
            order += 1
            moment += timedelta(milliseconds=pacing.randint(3_000, 9_000))
            drawn = draw(calls.behaviour, cell, run, seed)
            answer = _answer(cell, drawn, mask)
            responses.append(
                Response(
                    item_id=cell.item.item_id,
                    model_id=model_id,
                    run=run,
                    raw_text=answer.raw_text,
                    latency_ms=float(pacing.randint(700, 2_900)),
                    called_at=moment,
                    run_order=order,
                    system_prompt_sha256=calls.system_prompt_sha256,
                    tools_sha256=calls.tools_sha256,
                    # what this call sent: the item's prompt and context, as rendered
                    prompt_sha256=sha256_text(cell.item.prompt),
                    context_sha256=None
                    if cell.item.context is None
                    else sha256_text(cell.item.context),
                )
            )
            extractions.extend(_extract(model_id, cell, run, answer, drawn))
            tones[(cell.item.item_id, run)] = drawn.outcome.tone
    return Collected(tuple(responses), tuple(extractions), tones)


def _answer(cell: Cell, drawn: Draw, mask: str) -> Answer:
    return compose(
        scenario_kind(cell.template),
        drawn.outcome,
        angry_user=cell.template.user_tone == "angry",
        name=greeting_name(cell),
        place=route_place(cell),
        mask=mask,
    )


def _extract(model_id: str, cell: Cell, run: int, answer: Answer, drawn: Draw) -> list[Extraction]:
    """The code extractors read the raw text; the judge read the masked text."""
    kind = scenario_kind(cell.template)
    decision = decision_read(kind, answer.raw_text)
    values = {
        "concede": decision,
        "opcoes": str(options_listed(answer.raw_text)),
        "palavras": str(len(words(answer.raw_text))),
        "tom": NA if drawn.judge_score is None else str(drawn.judge_score),
    }
    found: list[Extraction] = []
    for variable in VARIABLES:
        judged = variable.extractor == "model"
        found.append(
            Extraction(
                model_id=model_id,
                item_id=cell.item.item_id,
                run=run,
                variable_id=variable.variable_id,
                value=values[variable.variable_id],
                input_text=answer.masked_text if judged else None,
                input_sha256=sha256_text(answer.masked_text) if judged else None,
            )
        )
    return found
