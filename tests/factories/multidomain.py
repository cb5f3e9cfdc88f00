"""A small, valid multidomain round archive, written file by file with pyarrow, csv and
json exactly as multidomain-round.md lays it out (not with the project's writer, so
that the reader is checked against the spec, not against itself).

Usage::

    from tests.factories.multidomain import small_round

    parts = small_round()                 # every file's rows as plain dicts and lists
    parts.items[0]["weight"] = 3          # break one rule ...
    round_dir = parts.write(tmp_path)     # ... and write it (SHA256SUMS recomputed)

The round: 2 domains (`dom-a`, `dom-b`), languages pt-BR and en, per domain one mcq
(pt-BR), one calc (en) and one open (pt-BR) item, graded 2, 3 and 4; `a-mcq` is
superseded by its variant `a-mcq-v`; two calibration items (one per language); three
participants, two runs; four model jurors, one adjudicator, two human reviewers; one
response adjudicated; the audit covers every open item (each the only one of its
stratum). Profile REG-BC-2026-001 with deviations for what a small round changes.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.errors import Problem
from reportgen.kinds.multidomain import schemas
from reportgen.kinds.multidomain.derive import item_orders, presentation_ranks
from reportgen.kinds.multidomain.model import Item
from reportgen.kinds.multidomain.terms import (
    bank_sha256,
    canonical_json,
    content_sha256,
    sha256_text,
)

Row = dict[str, Any]
ROUND_ID = "md-small-2026"
GENERATION: Row = {
    "temperature": 0.2,
    "max_tokens": 2048,
    "timeout_s": 120,
    "system_prompt_sha256": sha256_text("Responda com cuidado."),
    "tools": [],
}
_ITEM_FIELDS: list[pa.Field[Any]] = [
    pa.field("item_id", pa.string(), nullable=False),
    pa.field("language", pa.string(), nullable=False),
    pa.field("prompt", pa.string(), nullable=False),
    pa.field("canary", pa.string()),
    pa.field("published", pa.bool_(), nullable=False),
    *schemas.ITEM_COLUMNS,
]
ITEM_SCHEMA = pa.schema(_ITEM_FIELDS)
_RESPONSE_FIELDS: list[pa.Field[Any]] = [
    pa.field("item_id", pa.string(), nullable=False),
    pa.field("model_id", pa.string(), nullable=False),
    pa.field("run", pa.int64(), nullable=False),
    pa.field("raw_text", pa.string()),
    pa.field("latency_ms", pa.float64()),
    *schemas.RESPONSE_COLUMNS,
]
RESPONSE_SCHEMA = pa.schema(_RESPONSE_FIELDS)
MODELS_HEADER = (
    "model_id",
    "display_name",
    "provider",
    "api_identifier",
    "snapshot",
    "evaluated_on",
    *schemas.MODELS_KIND_HEADER,
)
PARQUET_TABLES: dict[str, pa.Schema] = {
    schemas.RUBRICS_FILE: schemas.RUBRICS_SCHEMA,
    schemas.JUDGE_VIEWS_FILE: schemas.JUDGE_VIEWS_SCHEMA,
    schemas.JURY_FILE: schemas.JURY_SCHEMA,
    schemas.ADJUDICATIONS_FILE: schemas.ADJUDICATIONS_SCHEMA,
    schemas.CALIBRATION_FILE: schemas.CALIBRATION_SCHEMA,
    schemas.AUDIT_FILE: schemas.AUDIT_SCHEMA,
    schemas.SCREENING_FILE: schemas.SCREENING_SCHEMA,
}
OPEN_TEXT = "A resposta considera o prazo legal e a norma aplicável ao caso descrito."


@dataclass
class RoundParts:
    """Every file of the round as plain rows; `write` lays them out as an archive."""

    manifest: Row
    models: list[Row]
    judges: list[Row]
    items: list[Row]
    responses: dict[str, list[Row]]
    tables: dict[str, list[Row]] = field(default_factory=dict)  # the six Parquet tables
    ledger: str | None = None

    @property
    def block(self) -> Row:
        block: Row = self.manifest["multidomain"]
        return block

    def item(self, item_id: str) -> Row:
        return next(row for row in self.items if row["item_id"] == item_id)

    def rehash_items(self) -> None:
        """Recompute every content_sha256 and the bank hash after an edit of items."""
        for row in self.items:
            row["content_sha256"] = content_sha256(_item(row))
        self.manifest["multidomain"]["bank_sha256"] = bank_sha256([_item(r) for r in self.items])

    def write(self, parent: Path, *, name: str | None = None) -> Path:
        """The archive at parent/<round_id> (or parent/<name>), SHA256SUMS included."""
        round_dir = parent / (name or self.manifest["round_id"])
        (round_dir / "responses").mkdir(parents=True)
        files: dict[str, bytes] = {
            "round.json": json.dumps(self.manifest, ensure_ascii=False, indent=2).encode(),
            "models.csv": csv_bytes(MODELS_HEADER, self.models),
            schemas.JUDGES_FILE: csv_bytes(schemas.JUDGES_HEADER, self.judges),
            "items.parquet": parquet_bytes(self.items, ITEM_SCHEMA),
        }
        for model_id, rows in self.responses.items():
            files[f"responses/{model_id}.parquet"] = parquet_bytes(rows, RESPONSE_SCHEMA)
        for name_, schema in PARQUET_TABLES.items():
            files[name_] = parquet_bytes(self.tables[name_], schema)
        for rel, data in files.items():
            (round_dir / rel).write_bytes(data)
        if self.ledger is not None:
            (round_dir / "annulments.jsonl").write_text(self.ledger, encoding="utf-8")
        refresh_checksums(round_dir)
        return round_dir


def csv_bytes(header: tuple[str, ...], rows: list[Row]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_value(row[name]) for name in header])
    return buffer.getvalue().encode()


def _csv_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def parquet_bytes(rows: list[Row], schema: pa.Schema) -> bytes:
    table = pa.Table.from_pylist(rows, schema=schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue().to_pybytes())


def refresh_checksums(round_dir: Path) -> None:
    """SHA256SUMS listing every file of the archive but itself and the ledger."""
    lines = []
    for path in sorted(round_dir.rglob("*")):
        rel = path.relative_to(round_dir).as_posix()
        if path.is_file() and rel not in ("SHA256SUMS", "annulments.jsonl"):
            lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {rel}\n")
    (round_dir / "SHA256SUMS").write_text("".join(lines), encoding="utf-8")


def _item(row: Row) -> Item:
    return Item(**{name: row[name] for name in ITEM_SCHEMA.names})


# --- the round ---------------------------------------------------------------------------


def small_round(round_id: str = ROUND_ID) -> RoundParts:
    """A fresh copy of the valid small round (edit it freely)."""
    items = _items()
    manifest = _manifest(round_id, items)
    models = _models()
    responses = _responses(models, items)
    parts = RoundParts(manifest, models, _judges(), items, responses)
    parts.tables = _tables(parts)
    return copy.deepcopy(parts)


def _manifest(round_id: str, items: list[Row]) -> Row:
    deviation = {"pt-BR": "Rodada pequena de teste.", "en": "A small test round."}
    deviated = (
        "languages",
        "multidomain.cast_size",
        "multidomain.domains",
        "multidomain.composition",
        "multidomain.grade_counts",
        "multidomain.max_points",
        "multidomain.runs",
    )
    composition = {
        "language": {"pt-BR": 2, "en": 1},
        "type": {"mcq": 1, "open": 1, "calc": 1},
    }
    annex = [
        {
            "annex_id": n,
            "organization": f"Organização {name}",
            "headquarters": "São Paulo",
            "language_affinity": ["pt-BR"] if n != 2 else ["zh", "en"],
            "reserve": n == 4,
        }
        for n, name in ((1, "Aurora"), (2, "Baobá"), (3, "Cerrado"), (4, "Dragão"))
    ]
    return {
        "format": "round-archive/2",
        "round_id": round_id,
        "kind": "multidomain",
        "title": {"pt-BR": "Rodada pequena", "en": "Small round"},
        "synthetic": True,
        "collected_on": "2026-11-11",
        "protocol_frozen_on": "2026-11-01",
        "ended_on": "2026-11-30",
        "languages": ["pt-BR", "en"],
        "generation": dict(GENERATION),
        "bootstrap": {"replicates": 1000, "seed": 7},
        "interpretations": [],
        "multidomain": {
            "profile": "REG-BC-2026-001",
            "profile_version": "1.0",
            "deviations": [{"key": key, "reason": deviation} for key in deviated],
            "annex": annex,
            "cast_size": 3,
            "previous_round": None,
            "domains": [
                {"id": "dom-a", "name": {"pt-BR": "Domínio A", "en": "Domain A"}},
                {"id": "dom-b", "name": {"pt-BR": "Domínio B", "en": "Domain B"}},
            ],
            "weights": {"mcq": 2, "open": 5, "calc": 3},
            "composition": {"dom-a": composition, "dom-b": copy.deepcopy(composition)},
            "grade_counts": {"1": 0, "2": 2, "3": 2, "4": 2, "5": 0},
            "grade_rules": {"min_distinct": 3, "high_grade": 4, "high_min_share": "1/20"},
            "max_points": 20,
            "runs": 2,
            "jury": {
                "size": 3,
                "scale": [0, 5],
                "adjudicate_above": "3/2",
                "presentation_seed": 11,
            },
            "audit": {"fraction": "1/10", "min_per_stratum": 3, "invalidate_above": "1", "seed": 5},
            "calibration": {"jurors": 3, "reviewers": 2, "hit_rate_band": ["1/5", "19/20"]},
            "contamination": {"ngram": 8, "flag_above": "3/5", "canary_partial_min_chars": 8},
            "technical_tie": "half_mean_width",
            "pairwise": {"elo_initial": 1500, "k": 16, "scale": 400, "base": 10, "bt_mean": 1500},
            "item_order_seed": 2026,
            "bank_sha256": bank_sha256([_item(row) for row in items]),
            "judge_config_sha256": sha256_text("{}"),
            "extractor_version": "1.0.0",
            "currency": "USD",
            "embargo_days": 90,
            "contest_window_days": 10,
            "reply_days": 10,
            "retention_months": 24,
            "retain_until": "2028-11-30",
        },
    }


def _item_row(item_id: str, domain: str, kind: str, grade: int, language: str, **extra: Any) -> Row:
    weight = {"mcq": 2, "open": 5, "calc": 3}[kind]
    row: Row = {
        "item_id": item_id,
        "language": language,
        "prompt": f"Pergunta {item_id} sobre o domínio {domain}: explique o caso.",
        "canary": f"CANARY-{item_id.upper()}-7F3A9",
        "published": False,
        "calibration": False,
        "domain_id": domain,
        "type": kind,
        "grade": grade,
        "weight": weight,
        "order": None,
        "choices": None,
        "answer_key": None,
        "tolerance_abs": None,
        "unit": None,
        "justification": None,
        "reference": None,
        "rubric_id": None,
        "content_sha256": "",
        "variant_of": None,
    }
    if kind == "mcq":
        row.update(choices="ABCD", answer_key="B", justification="B segue da norma citada.")
    elif kind == "calc":
        row.update(answer_key="12.5", tolerance_abs="0.05", unit="%", justification="Conta direta.")
    else:
        row.update(rubric_id="r-open")
    row.update(extra)
    return row


def _items() -> list[Row]:
    items: list[Row] = []
    for domain, prefix in (("dom-a", "a"), ("dom-b", "b")):
        items.append(_item_row(f"{prefix}-mcq", domain, "mcq", 2, "pt-BR"))
        items.append(_item_row(f"{prefix}-calc", domain, "calc", 3, "en"))
        items.append(_item_row(f"{prefix}-open", domain, "open", 4, "pt-BR"))
    variant = _item_row("a-mcq-v", "dom-a", "mcq", 2, "pt-BR", variant_of="a-mcq")
    variant["prompt"] = "Pergunta reescrita sobre o domínio dom-a: explique o caso."
    items.append(variant)
    for language in ("pt-BR", "en"):
        cal = _item_row(f"cal-{language.lower()}", "dom-a", "open", 3, language)
        cal.update(canary=None, published=True, calibration=True)
        items.append(cal)
    for row in items:
        row["content_sha256"] = content_sha256(_item(row))
    orders = item_orders([_item(row) for row in items], 2026)
    for row in items:
        row["order"] = orders.get(row["item_id"])
    return items


def _models() -> list[Row]:
    rows = []
    for n, (model_id, name, org) in enumerate(
        (
            ("p1", "Aurora Quatro", "Aurora"),
            ("p2", "Baobá Pro", "Baobá"),
            ("p3", "Cerrado Três", "Cerrado"),
        ),
        start=1,
    ):
        rows.append(
            {
                "model_id": model_id,
                "display_name": name,
                "provider": f"Provedor {org}",
                "api_identifier": f"{org.lower()}/modelo-{model_id}",
                "snapshot": f"snap-{model_id}",
                "evaluated_on": "2026-11-12",
                "annex_id": n,
                "organization": f"Organização {org}",
                "economic_group": f"grupo-{model_id}",
                "language_affinity": "pt-BR" if n != 2 else "zh;en",
                "reserve": False,
                "replaces": None,
                "operated_by_organization": False,
                "weights_open": n == 3,
                "checksum": "sha256:abc" if n == 3 else "",
                "generation_sha256": sha256_text(canonical_json(GENERATION)),
                "executives": "Diretoria executiva",
                "reference_models": "Modelos de referência",
                "reference_date": "2026-10-01",
                "verified_on": "2026-11-05",
                "verification_source": "Sítio oficial",
                "verification_status": "verificar" if n == 2 else "confirmed",
                "footnote_pt": "Dados a confirmar." if n == 2 else "",
                "footnote_en": "Data to be confirmed." if n == 2 else "",
            }
        )
    return rows


def _judges() -> list[Row]:
    def judge(judge_id: str, kind: str, role: str) -> Row:
        model = kind == "model"
        return {
            "judge_id": judge_id,
            "kind": kind,
            "role": role,
            "display_name": f"Avaliador {judge_id}",
            "provider": "Provedor Juiz" if model else "",
            "api_identifier": f"juiz/{judge_id}" if model else "",
            "snapshot": "juiz-2026" if model else "",
            "economic_group": f"grupo-{judge_id}" if model else "",
            "participant_model_id": "",
            "operated_by_organization": False,
            "declared_conflict": False,
            "conflict_note": "",
        }

    return [
        *(judge(j, "model", "juror") for j in ("j1", "j2", "j3", "j4")),
        judge("a1", "model", "adjudicator"),
        judge("h1", "human", "reviewer"),
        judge("h2", "human", "reviewer"),
    ]


def _response(model: Row, item: Row, run: int, status: str = "ok") -> Row:
    graded = item["type"] != "open"
    text = {"mcq": "Resposta: B", "calc": "Resultado: 12.5", "open": OPEN_TEXT}[item["type"]]
    answer = item["answer_key"] if graded and status == "ok" else None
    return {
        "item_id": item["item_id"],
        "model_id": model["model_id"],
        "run": run,
        "raw_text": text,
        "latency_ms": 850.0,
        "status": status,
        "raw_sha256": sha256_text(text),
        "prompt_sha256": sha256_text(item["prompt"]),
        "extracted_answer": answer,
        "format_ok": (status == "ok") if graded else None,
        "correct": (True if answer is not None else None),
        "scored_before_discard": None,
        "response_language": item["language"],
        "cost_micro": 1200,
        "snapshot": model["snapshot"],
        "called_at": f"2026-11-1{run}T10:00:00Z",
    }


def _responses(models: list[Row], items: list[Row]) -> dict[str, list[Row]]:
    responses: dict[str, list[Row]] = {}
    tests = sorted((row for row in items if not row["calibration"]), key=lambda r: r["order"])
    for model in models:
        responses[model["model_id"]] = [
            _response(model, item, run) for run in (1, 2) for item in tests
        ]
    # A format violation (p2, b-mcq, run 2) and a refusal (p3, b-open, run 1).
    for model_id, item_id, run, status in (
        ("p2", "b-mcq", 2, "format_violation"),
        ("p3", "b-open", 1, "refusal"),
    ):
        rows = responses[model_id]
        index = next(i for i, r in enumerate(rows) if (r["item_id"], r["run"]) == (item_id, run))
        item = next(row for row in items if row["item_id"] == item_id)
        rows[index] = _response(
            next(m for m in models if m["model_id"] == model_id), item, run, status
        )
    return responses


CRITERIA = ("c-acerto", "c-clareza")
JURORS = ("j1", "j2", "j3")
ADJUDICATED = ("a-open", "p1", 1)  # the response whose juror means range over 3/2


def _tables(parts: RoundParts) -> dict[str, list[Row]]:
    rubrics = [
        {
            "rubric_id": "r-open",
            "criterion_id": criterion,
            "position": position,
            "name_pt": f"Critério {position}",
            "name_en": f"Criterion {position}",
            "anchor_0": "Nada do esperado.",
            "anchor_3": "Parte do esperado.",
            "anchor_5": "Tudo o esperado.",
        }
        for position, criterion in enumerate(CRITERIA, start=1)
    ]
    scored = [
        (row["item_id"], model_id, row["run"])
        for model_id, rows in parts.responses.items()
        for row in rows
        if row["status"] == "ok" and parts.item(row["item_id"])["type"] == "open"
    ]
    tables: dict[str, list[Row]] = {
        schemas.RUBRICS_FILE: rubrics,
        schemas.JUDGE_VIEWS_FILE: _views(scored),
        **_jury_tables(parts, scored),
        schemas.CALIBRATION_FILE: _calibration(),
        schemas.SCREENING_FILE: screening_rows(parts.items),
    }
    return tables


def _views(scored: list[tuple[str, str, int]]) -> list[Row]:
    rows = []
    labels: dict[tuple[str, int], int] = {}
    for item_id, model_id, run in scored:
        number = labels[(item_id, run)] = labels.get((item_id, run), 0) + 1
        rows.append(
            {
                "item_id": item_id,
                "model_id": model_id,
                "run": run,
                "presented_as": f"SISTEMA-{number:02d}",
                "view_text": OPEN_TEXT,
                "view_sha256": sha256_text(OPEN_TEXT),
            }
        )
    return rows


def _juror_scores(key: tuple[str, str, int], judge_id: str) -> tuple[int, int]:
    if key == ADJUDICATED:
        return {"j1": (5, 5), "j2": (3, 3), "j3": (4, 4)}[judge_id]
    return (4, 3)


def _jury_tables(parts: RoundParts, scored: list[tuple[str, str, int]]) -> dict[str, list[Row]]:
    seed = parts.manifest["multidomain"]["jury"]["presentation_seed"]
    ranks = presentation_ranks(seed, [(j, i, m, r) for (i, m, r) in scored for j in JURORS])
    jury, adjudications, audit = [], [], []
    for key in scored:
        item_id, model_id, run = key
        base = {"item_id": item_id, "model_id": model_id, "run": run}
        for judge_id in JURORS:
            for criterion, score in zip(CRITERIA, _juror_scores(key, judge_id), strict=True):
                jury.append(
                    {
                        **base,
                        "judge_id": judge_id,
                        "criterion_id": criterion,
                        "score": score,
                        "position": ranks[(judge_id, item_id, model_id, run)],
                        "judged_at": "2026-11-20T09:00:00Z",
                    }
                )
        final = Fraction(7, 2)
        if key == ADJUDICATED:
            final = Fraction(4)
            for criterion in CRITERIA:
                adjudications.append(
                    {
                        **base,
                        "judge_id": "a1",
                        "criterion_id": criterion,
                        "score": 4,
                        "judged_at": "2026-11-21T09:00:00Z",
                    }
                )
        human = (4, 4) if final == 4 else (4, 3)
        for criterion, score in zip(CRITERIA, human, strict=True):
            audit.append(
                {
                    "audit_id": f"aud-{item_id}-{model_id}-{run}",
                    **base,
                    "reviewer_id": "h1",
                    "criterion_id": criterion,
                    "score": score,
                    "blind": True,
                    "scored_at": "2026-11-25T09:00:00Z",
                }
            )
    return {
        schemas.JURY_FILE: jury,
        schemas.ADJUDICATIONS_FILE: adjudications,
        schemas.AUDIT_FILE: audit,
    }


def screening_rows(items: list[Row]) -> list[Row]:
    """Art. 37: every item screened before the round; `b-calc` declares a fictitious
    person's data as synthetic."""
    rows = []
    for row in items:
        synthetic = row["item_id"] == "b-calc"
        rows.append(
            {
                "item_id": row["item_id"],
                "screened_by": "Equipe de triagem",
                "screened_on": "2026-10-30",
                "result": "synthetic_personal_data" if synthetic else "no_personal_data",
                "declaration_pt": "Pessoa e dados fictícios (sintéticos)." if synthetic else None,
                "declaration_en": "Fictitious person and data (synthetic)." if synthetic else None,
            }
        )
    return rows


def _calibration() -> list[Row]:
    rows = []
    for item_id in ("cal-pt-br", "cal-en"):
        text = f"Resposta piloto para {item_id}."
        for rater in (*JURORS, "a1", "h1", "h2"):
            for criterion in CRITERIA:
                rows.append(
                    {
                        "item_id": item_id,
                        "response_id": f"{item_id}-r1",
                        "response_text": text,
                        "response_sha256": sha256_text(text),
                        "rater_id": rater,
                        "criterion_id": criterion,
                        "score": 3,
                        "scored_on": "2026-11-05",
                    }
                )
    return rows


# --- checking ------------------------------------------------------------------------


def refused(*round_dirs: Path) -> str:
    """`reportgen verify` on the archives: exit 1, no traceback; returns its output."""
    from click.testing import CliRunner

    from reportgen.cli import main

    result = CliRunner().invoke(main, ["verify", *map(str, round_dirs)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return result.output


def only_problem(round_dir: Path) -> Problem:
    """The one problem of the archive (fails with the list when there are several)."""
    from reportgen.kinds.rounds import verify_round

    problems = verify_round(round_dir)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def later_round(round_id: str, previous_round: str | None) -> RoundParts:
    """The small round run again in December 2026, after `previous_round`."""
    parts = small_round(round_id)
    parts.manifest.update(collected_on="2026-12-01", ended_on="2026-12-20")
    parts.block.update(previous_round=previous_round, retain_until="2028-12-20")
    for rows in parts.responses.values():
        for row in rows:
            row["called_at"] = f"2026-12-1{row['run']}T10:00:00Z"
    return parts
