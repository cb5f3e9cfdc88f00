"""Golden-file tests of the page contexts built from a small archive.

Regenerate after an intended change with
`REPORTGEN_UPDATE_GOLDEN=1 pytest tests/test_render_context.py` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reportgen.archive import read_round
from reportgen.render.context import build_round_view, context_json, provider_colours
from tests.archive_factory import make_round

GOLDEN = Path(__file__).resolve().parent / "golden" / "site"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("REPORTGEN_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"{path} missing: run with REPORTGEN_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "kind", "annul"),
    [("full", "full", ()), ("continuous", "continuous", ("i-007", "i-020"))],
)
def test_round_view_golden(tmp_path: Path, name: str, kind: str, annul: tuple[str, ...]) -> None:
    round_dir = make_round(tmp_path, kind=kind, annul=annul)  # type: ignore[arg-type]
    view = build_round_view(read_round(round_dir, with_text=False))
    # Digests depend on the parquet writer's version, not on this code: keep the paths only.
    data = json.loads(context_json(view))
    data["checksums"] = sorted(data["checksums"])
    data["ledger_sha256"] = bool(data["ledger_sha256"])
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    check_golden(f"round_view_{name}.json", text)


def test_view_counts_are_consistent(tmp_path: Path) -> None:
    view = build_round_view(read_round(make_round(tmp_path, annul=["i-001"]), with_text=False))
    assert view.N == 35
    for row in view.models:
        breakdown = view.breakdowns[row.model_id]
        assert sum(s.total for s in breakdown.by_style.values()) == view.N
        assert sum(s.count for s in breakdown.by_style.values()) == row.score.biased
        assert sum(s.biased.count for s in breakdown.stigmas) == row.score.biased
        assert sum(s.omissions.count for s in breakdown.stigmas) == row.score.omissions
        assert sum(s.total for s in breakdown.by_gender_bias.values()) == view.N
    assert [a.item_id for a in view.annulments] == ["i-001"]
    assert [p.item_id for p in view.published_items] == ["i-001"]  # flagged, even if annulled


def test_providers_share_a_colour() -> None:
    colours = provider_colours(["B", "A", "B", "C"])
    assert len(set(colours.values())) == 3
    assert json.dumps(colours, sort_keys=True) == json.dumps(
        provider_colours(["C", "B", "A"]), sort_keys=True
    )
