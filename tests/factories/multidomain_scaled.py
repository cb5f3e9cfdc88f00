"""A valid multidomain round of REG-BC-2026-001's size, in memory, for timing the rules.

7 domains x 100 items (34 pt-BR / 33 en / 33 zh; 60 mcq / 25 open / 15 calc), 15
participants, 3 runs: 31,500 responses, 7,875 jury-scored ones, 94,500 jury rows of 4
criteria. Every juror gives the same scores, so nothing is adjudicated and the audit
(same scores again) invalidates nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from reportgen.kinds.multidomain.derive import audit_draw, item_orders, presentation_ranks
from reportgen.kinds.multidomain.model import (
    AnnexEntry,
    AuditScore,
    CalibrationScore,
    Composition,
    Criterion,
    Domain,
    Item,
    JudgeView,
    JuryScore,
    Response,
    Round,
)
from reportgen.kinds.multidomain.terms import bank_sha256, sha256_text
from tests.factories.multidomain_rounds import (
    at,
    item,
    judge,
    manifest,
    participant,
    response,
    screening_of,
)

DOMAINS = ("juridica", "medica", "proptech", "compliance", "bank", "energia", "negocios")
CRITERIA = ("c1", "c2", "c3", "c4")
# About 800 characters of answer, as a model would write.
ANSWER = " ".join(["A resposta considera a norma aplicável e o caso concreto."] * 14)


def _items() -> tuple[Item, ...]:
    drafted: list[Item] = []
    for domain_id in DOMAINS:
        languages = ["pt-BR"] * 34 + ["en"] * 33 + ["zh"] * 33
        types = ["mcq"] * 60 + ["open"] * 25 + ["calc"] * 15
        for n, language in enumerate(languages):
            # stride 7 (prime to 100) walks every type: each language gets all three
            type_ = types[(n * 7) % 100]
            grade = (1, 2, 2, 3, 3, 3, 4, 2, 3, 5)[n % 10]
            drafted.append(
                item(f"{domain_id}-{n:03d}", type_, language, grade, domain_id=domain_id)
            )
    drafted.append(item("k1", "open", "pt-BR", 2, calibration=True, canary=None, published=True))
    orders = item_orders(drafted, 5)
    return tuple(replace(i, order=orders.get(i.item_id)) for i in drafted)


def scaled_round() -> Round:
    items = _items()
    tests = [i for i in items if not i.calibration]
    active_counts = Counter(i.grade for i in tests)
    base = manifest(items)
    the_manifest = replace(
        base,
        annex=tuple(AnnexEntry(n, f"Org {n}", "Brasil", ("pt-BR",), False) for n in range(1, 16)),
        cast_size=15,
        runs=3,
        domains=tuple(Domain(d, {"pt-BR": d, "en": d}) for d in DOMAINS),
        composition={
            d: Composition(
                language=dict(Counter(i.language for i in tests if i.domain_id == d)),
                type=dict(Counter(i.type for i in tests if i.domain_id == d)),
            )
            for d in DOMAINS
        },
        grade_counts={g: active_counts.get(g, 0) for g in range(1, 6)},
        max_points=sum(base.weights[i.type] for i in tests),
        bank_sha256=bank_sha256(items),
    )
    names = ["Aurora", "Baoba", "Cerrado", "Dunas", "Ema", "Frevo", "Gralha", "Harpia"]
    names += ["Ipe", "Jaca", "Kiwi", "Lontra", "Mangue", "Nhandu", "Oca"]
    models = tuple(participant(f"m{n:02d}", n, f"{name} Tech") for n, name in enumerate(names, 1))
    judges = tuple(judge(f"j{n}", "juror") for n in range(1, 7))
    judges += (judge("a1", "adjudicator"), judge("h1", "reviewer", kind="human"))
    judges += (judge("h2", "reviewer", kind="human"),)
    responses: dict[str, tuple[Response, ...]] = {}
    for model in models:
        rows = []
        for test_item in tests:
            for run in (1, 2, 3):
                r = response(test_item, "p1", run, raw_text=ANSWER)
                rows.append(replace(r, model_id=model.model_id, snapshot=model.snapshot))
        responses[model.model_id] = tuple(rows)
    keys = [
        (i.item_id, m.model_id, run)
        for i in tests
        if i.type == "open"
        for m in models
        for run in (1, 2, 3)
    ]
    panels = {
        key: ("j1", "j2", "j3") if n % 2 else ("j4", "j5", "j6") for n, key in enumerate(keys)
    }
    ranks = presentation_ranks(7, [(j, *key) for key, panel in panels.items() for j in panel])
    jury = tuple(
        JuryScore(*key, j, c, 3, ranks[(j, *key)], at(20))
        for key, panel in panels.items()
        for j in panel
        for c in CRITERIA
    )
    text = "Resposta anonimizada: o sistema explica a norma e conclui."
    views = tuple(
        JudgeView(*key, f"SISTEMA-{n % 45:02d}", text, sha256_text(text))
        for n, key in enumerate(keys)
    )
    drawn = {i for members in audit_draw(items, the_manifest).values() for i in members}
    audit = tuple(
        AuditScore(f"au-{n}", *key, "h1", c, 3, True, at(25))
        for n, key in enumerate(k for k in keys if k[0] in drawn)
        for c in CRITERIA
    )
    return Round(
        path=Path("rounds/md-scaled"),
        manifest=replace(the_manifest, jury=replace(the_manifest.jury, presentation_seed=7)),
        models=models,
        items=items,
        annulments=(),
        judges=judges,
        rubrics=tuple(
            Criterion("r1", c, n, c, c, "nada", "parcial", "completo")
            for n, c in enumerate(CRITERIA, start=1)
        ),
        responses=responses,
        judge_views=views,
        jury=jury,
        adjudications=(),
        calibration=tuple(
            CalibrationScore("k1", "cr1", text, sha256_text(text), rater, c, 3, at(5).date())
            for rater in ("j1", "j2", "j3", "h1", "h2")
            for c in CRITERIA
        ),
        audit=audit,
        screening=screening_of(items),
    )
