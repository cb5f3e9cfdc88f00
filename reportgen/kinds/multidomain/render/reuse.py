"""The released items as machine-readable downloads (Art. 42), with the terms of their
re-use (Art. 40): written only once the embargo is over (`ended_on + embargo_days`).

Under `data/<round_id>/` beside the other downloads, listed in its SHA256SUMS:

- `items.jsonl`: one JSON object per item (test items first, in the seeded order of
  Art. 21, then the calibration items), with its answer key, justification, reference
  and its rubric's criteria and anchors (`rubric`, a list; empty for mcq and calc);
- `items.parquet`: the same records (the rubric a list of structs), the terms in the
  file's key-value metadata (`reuse_terms.pt-BR`, `reuse_terms.en`, `round_id`,
  `bank_sha256`);
- `items-terms.txt`: the license and the no-training notice, in both languages.

No record holds a canary: the canary marks the Organisation's copies and is never
published (report spec, "Never on the site"), at any date.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds.multidomain.model import Criterion, Item, Round
from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.text import Text

JSONL_FILE = "items.jsonl"
PARQUET_FILE = "items.parquet"
TERMS_FILE = "items-terms.txt"
REUSE_FILES = (JSONL_FILE, PARQUET_FILE, TERMS_FILE)

_CRITERION = pa.struct(
    [
        pa.field(name, pa.int64() if name == "position" else pa.string(), nullable=False)
        for name in (
            "criterion_id",
            "position",
            "name_pt",
            "name_en",
            "anchor_0",
            "anchor_3",
            "anchor_5",
        )
    ]
)


def _s(name: str, *, null: bool = True) -> pa.Field[Any]:
    return pa.field(name, pa.string(), nullable=null)


SCHEMA = pa.schema(
    [
        _s("item_id", null=False),
        _s("language", null=False),
        pa.field("calibration", pa.bool_(), nullable=False),
        _s("status", null=False),
        _s("domain_id", null=False),
        _s("type", null=False),
        pa.field("grade", pa.int64(), nullable=False),
        pa.field("weight", pa.int64(), nullable=False),
        pa.field("order", pa.int64()),
        _s("prompt", null=False),
        _s("choices"),
        _s("answer_key"),
        _s("tolerance_abs"),
        _s("unit"),
        _s("justification"),
        _s("reference"),
        _s("rubric_id"),
        pa.field("rubric", pa.list_(pa.field("criterion", _CRITERION, nullable=False))),
        _s("content_sha256", null=False),
        _s("variant_of"),
    ]
)


def item_status(item: Item, round_: Round) -> str:
    """calibration | annulled | superseded | scored (annulled: by a ledger line in force
    on the site's date)."""
    if item.calibration:
        return "calibration"
    if item.item_id in round_.annulled_item_ids:
        return "annulled"
    if any(other.variant_of == item.item_id for other in round_.items):
        return "superseded"
    return "scored"


def _criterion(c: Criterion) -> dict[str, object]:
    return {
        "criterion_id": c.criterion_id,
        "position": c.position,
        "name_pt": c.name_pt,
        "name_en": c.name_en,
        "anchor_0": c.anchor_0,
        "anchor_3": c.anchor_3,
        "anchor_5": c.anchor_5,
    }


def item_records(round_: Round) -> list[dict[str, object]]:
    """Every item as released: the fields of SCHEMA, in its order; never the canary."""
    rubrics: dict[str, list[Criterion]] = {}
    for criterion in round_.rubrics:
        rubrics.setdefault(criterion.rubric_id, []).append(criterion)
    ordered = sorted(round_.items, key=lambda i: (i.calibration, i.order or 0, i.item_id))
    records = []
    for item in ordered:
        criteria = sorted(rubrics.get(item.rubric_id or "", []), key=lambda c: c.position)
        values = {
            **{name: getattr(item, name) for name in SCHEMA.names if hasattr(Item, name)},
            "status": item_status(item, round_),
            "rubric": [_criterion(c) for c in criteria],
        }
        records.append({name: values[name] for name in SCHEMA.names})
    return records


def terms_texts(context: RoundContext) -> dict[str, str]:
    """language -> the license and the no-training notice (Art. 40, 42)."""
    terms = {}
    for language in SITE_LANGUAGES:
        text = Text(language)
        round_title = text.pick(context.round_.manifest.title)
        terms[language] = "\n\n".join(
            (
                text.t("reuse.license", round=round_title, round_id=context.round_id),
                text.t("reuse.no_training"),
            )
        )
    return terms


def _parquet(records: list[dict[str, object]], context: RoundContext) -> bytes:
    terms = terms_texts(context)
    metadata = {f"reuse_terms.{language}": value for language, value in terms.items()}
    metadata["round_id"] = context.round_id
    metadata["bank_sha256"] = context.round_.manifest.bank_sha256
    table = pa.Table.from_pylist(records, schema=SCHEMA.with_metadata(metadata))
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def reuse_files(context: RoundContext) -> dict[str, bytes]:
    """file name -> bytes of the released items; nothing while the embargo holds."""
    if not context.embargo_over:
        return {}
    records = item_records(context.round_)
    jsonl = "".join(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n" for r in records)
    terms = terms_texts(context)
    notice = "\n\n".join(f"[{language}]\n{terms[language]}" for language in SITE_LANGUAGES)
    return {
        JSONL_FILE: jsonl.encode("utf-8"),
        PARQUET_FILE: _parquet(records, context),
        TERMS_FILE: (notice + "\n").encode("utf-8"),
    }
