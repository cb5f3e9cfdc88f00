"""A REG-sized multidomain round built in memory from the tiny round's templates.

15 participants, 7 domains x 100 items (34/33/33 pt-BR/en/zh, 60 mcq / 25 open / 15 calc),
3 runs, a three-juror jury on every open response (adjudicated when the jurors' range is
above 3/2), the audit draw of the spec with its human scores. Statuses, correctness and
scores are drawn at random (seeded). For the benchmark and scale tests: it is not verified
and its hashes are not meaningful.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from fractions import Fraction

from reportgen.kinds.multidomain.derive import audit_draw, mean_score
from reportgen.kinds.multidomain.model import (
    Adjudication,
    AuditScore,
    Domain,
    Item,
    ItemType,
    JuryScore,
    Response,
    Round,
    Status,
)

_AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
_WORDS = [
    "o",
    "registro",
    "da",
    "decisao",
    "permite",
    "auditoria",
    "posterior",
    "e",
    "controle",
    "de",
    "risco",
]


def _items(template: Round, domains: int, per_domain: int) -> list[Item]:
    tests = [item for item in template.items if not item.calibration]
    by_type = {item.type: item for item in tests}
    languages = ("pt-BR", "en", "zh")
    mcq: list[ItemType] = ["mcq"]
    open_: list[ItemType] = ["open"]
    calc: list[ItemType] = ["calc"]
    types = mcq * 60 + open_ * 25 + calc * 15
    items = []
    order = 1
    for d in range(domains):
        for n in range(per_domain):
            kind = types[n * len(types) // per_domain]
            item_id = f"d{d}-{n:03d}"
            items.append(
                dataclasses.replace(
                    by_type[kind],
                    item_id=item_id,
                    language=languages[n % 3],
                    domain_id=f"dom{d}",
                    grade=1 + n % 5,
                    order=order,
                    canary=f"MDCANARY-reg-{item_id}-5e2a",
                    prompt=" ".join(_WORDS[(n + k) % len(_WORDS)] for k in range(24)),
                )
            )
            order += 1
    return items


def _status(rng: random.Random, kind: ItemType) -> Status:
    roll = rng.random()
    if roll < 0.02:
        return "refusal"
    if roll < 0.03:
        return "timeout"
    if roll < 0.035 and kind != "open":
        return "format_violation"
    return "ok"


def _response(rng: random.Random, item: Item, model_id: str, run: int) -> Response:
    status = _status(rng, item.type)
    closed = item.type != "open"
    text = None if status == "timeout" else " ".join(rng.sample(_WORDS, 8))
    return Response(
        item_id=item.item_id,
        model_id=model_id,
        run=run,
        raw_text=text,
        latency_ms=None if status == "timeout" else float(rng.randint(300, 9000)),
        status=status,
        raw_sha256=None,
        prompt_sha256="",
        extracted_answer="A" if closed and status == "ok" else None,
        format_ok=(status == "ok") if closed else None,
        correct=(rng.random() < 0.7) if closed and status == "ok" else None,
        scored_before_discard=None,
        response_language=item.language if text else None,
        cost_micro=rng.randint(50, 900),
        snapshot="s1",
        called_at=_AT,
    )


def _jury(
    rng: random.Random, responses: list[Response], items: dict[str, Item], criteria: list[str]
) -> tuple[list[JuryScore], list[Adjudication]]:
    jury: list[JuryScore] = []
    adjudications: list[Adjudication] = []
    for response in responses:
        if items[response.item_id].type != "open" or response.status != "ok":
            continue
        base = rng.randint(1, 4)
        means = []
        for judge in ("j1", "j2", "j3"):
            scores = [min(5, max(0, base + rng.choice((-2, -1, 0, 0, 1)))) for _ in criteria]
            means.append(mean_score(scores))
            jury.extend(
                JuryScore(response.item_id, response.model_id, response.run, judge, c, s, 1, _AT)
                for c, s in zip(criteria, scores, strict=True)
            )
        if max(means) - min(means) > Fraction(3, 2):
            adjudications.extend(
                Adjudication(response.item_id, response.model_id, response.run, "a1", c, base, _AT)
                for c in criteria
            )
    return jury, adjudications


def reg_sized_round(
    template: Round, *, models: int = 15, domains: int = 7, per_domain: int = 100, seed: int = 1
) -> Round:
    """A round of the REG shape from the tiny round `template` (its judges, rubrics,
    calibration and manifest, with the domains, runs and cast replaced)."""
    rng = random.Random(seed)
    items = _items(template, domains, per_domain)
    by_id = {item.item_id: item for item in items}
    cast = [
        dataclasses.replace(template.models[k % len(template.models)], model_id=f"m{k:02d}")
        for k in range(models)
    ]
    manifest = dataclasses.replace(
        template.manifest,
        runs=3,
        domains=tuple(Domain(f"dom{d}", {"pt-BR": f"D{d}", "en": f"D{d}"}) for d in range(domains)),
    )
    responses = {
        model.model_id: tuple(
            _response(rng, item, model.model_id, run) for item in items for run in (1, 2, 3)
        )
        for model in cast
    }
    rubric = next(item.rubric_id for item in items if item.type == "open")
    criteria = [c.criterion_id for c in template.rubrics if c.rubric_id == rubric]
    flat = [r for rows in responses.values() for r in rows]
    jury, adjudications = _jury(rng, flat, by_id, criteria)
    drawn = {i for ids in audit_draw(items, manifest).values() for i in ids}
    audit = [
        AuditScore(f"A-{n}", r.item_id, r.model_id, r.run, "h1", c, rng.randint(0, 5), True, _AT)
        for n, r in enumerate(x for x in flat if x.item_id in drawn and x.status == "ok")
        for c in criteria
    ]
    calibration_items = [item for item in template.items if item.calibration]
    return dataclasses.replace(
        template,
        manifest=manifest,
        models=tuple(cast),
        items=tuple(items + calibration_items),
        responses=responses,
        jury=tuple(jury),
        adjudications=tuple(adjudications),
        audit=tuple(audit),
        annulments=(),
        judge_views=(),
    )
