"""Golden-file tests of the site and page contexts built from a small archive.

Regenerate after an intended change with
`REPORTGEN_UPDATE_GOLDEN=1 pytest tests/test_render_context.py` and review the diff.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.charts import ChartOutput, SvgCache
from reportgen.kinds.estigmas.render.context import build_round_view, context_json, provider_colours
from reportgen.kinds.estigmas.render.page_types import TEMPLATES, ChartRef, Collapsed
from reportgen.kinds.estigmas.render.site import site_context
from reportgen.kinds.estigmas.render.site_pages import language_pages
from reportgen.render.siteconfig import load_site_config
from reportgen.render.table import Cell, Table
from tests.factories import make_round

GOLDEN = Path(__file__).resolve().parent / "golden" / "site"
# A fixed configuration, so that editing the real site.yml does not move the golden file.
FIXED_CONFIG = """
site_url: "https://example.org/estigmas/"
primary_round: null
article:
  title: {pt-BR: "Título de teste", en: "Test title"}
  short_title: {pt-BR: "Teste", en: "Test"}
  authors: ["Pessoa Autora Um", "Pessoa Autora Dois"]
  doi: "10.0000/test"
  article_url: "https://example.org/article"
  repository_url: "https://example.org/repository"
  license: "CC BY 4.0"
contestations: {contact: "contest@example.org", window_days: 10, reply_days: 10}
audit: {exports_dir: "audits"}
figure1: {max_bias: 0.05, max_omission: 0.25}
"""


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
    round_dir = make_round(tmp_path, variant=kind, annul=annul)  # type: ignore[arg-type]
    view = build_round_view(read_round(round_dir, with_text=False))
    # Digests depend on the parquet writer's version, not on this code: keep the paths only.
    data = json.loads(context_json(view))
    data["checksums"] = sorted(data["checksums"])
    data["ledger_sha256"] = bool(data["ledger_sha256"])
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    check_golden(f"round_view_{name}.json", text)


def _without_environment(data: dict[str, Any]) -> dict[str, Any]:
    """Drop what depends on the machine rather than on the inputs (paths, versions, digests)."""
    data.pop("software")
    data["config"]["audit_exports_dir"] = Path(data["config"]["audit_exports_dir"]).name
    for view in [data["primary"], *data["rounds"]]:
        view["checksums"] = sorted(view["checksums"])
        view["ledger_sha256"] = bool(view["ledger_sha256"])
    return data


def test_site_context_golden(tmp_path: Path) -> None:
    """The site-level context every page draws on (statistics left out: see test_stats_*)."""
    rounds = [
        read_round(make_round(tmp_path), with_text=False),
        read_round(
            make_round(tmp_path, round_id="tiny-cont", variant="continuous", annul=["i-007"]),
            with_text=False,
        ),
    ]
    config = tmp_path / "site.yml"
    config.write_text(FIXED_CONFIG, encoding="utf-8")
    site = site_context(rounds, load_site_config(config), with_statistics=False)
    assert site.primary.round_id == "tiny-round"
    assert [v.round_id for v in site.continuous] == ["tiny-cont"]
    data = _without_environment(json.loads(context_json(site)))
    check_golden("site_context.json", json.dumps(data, indent=1, sort_keys=True) + "\n")


def _cells(cells: tuple[Cell, ...]) -> str:
    return " | ".join(c.text + (f" <{c.link}>" if c.link else "") for c in cells)


def _page_plain(value: Any) -> Any:
    """A page context as reviewable JSON: tables as one line per row, charts by id."""
    if isinstance(value, Table):
        table: dict[str, Any] = {"id": value.table_id, "caption": value.caption}
        table["header"] = _cells(value.header)
        table["rows"] = [_cells(row) for row in value.rows]
        return {**table, "notes": list(value.notes)} if value.notes else table
    if isinstance(value, ChartOutput):
        return {"chart": value.chart_id, "data": _page_plain(value.table)}
    if isinstance(value, ChartRef | Collapsed) or dataclasses.is_dataclass(value):
        assert not isinstance(value, type)
        fields = dataclasses.fields(value)
        return {f.name: _page_plain(getattr(value, f.name)) for f in fields}
    if isinstance(value, tuple | list):
        return [_page_plain(v) for v in value]
    return value if value is None or isinstance(value, int) else str(value)


def test_page_inventory_golden(tmp_path: Path) -> None:
    """Every page the site has (the same in every language): its class, template and path."""
    rounds = [
        read_round(make_round(tmp_path), with_text=False),
        read_round(
            make_round(tmp_path, round_id="tiny-cont", variant="continuous"), with_text=False
        ),
    ]
    config = tmp_path / "site.yml"
    config.write_text(FIXED_CONFIG, encoding="utf-8")
    site = site_context(rounds, load_site_config(config), with_statistics=False)
    by_language = [
        language_pages(site, lang, SvgCache(tmp_path / "svg")) for lang in ("pt-BR", "en")
    ]
    paths = [[file.path for file in built.pages] for built in by_language]
    assert paths[0] == paths[1]
    assert len(set(paths[0])) == len(paths[0])
    inventory = [
        {
            "class": type(file.page).__name__,
            "template": TEMPLATES[type(file.page)],
            "path": file.path,
        }
        for file in by_language[1].pages
    ]
    check_golden("pages.json", json.dumps(inventory, indent=1) + "\n")


def test_page_contexts_golden(tmp_path: Path) -> None:
    """Every page of a tiny round in English, statistics on: one golden file per page."""
    rounds = [read_round(make_round(tmp_path), with_text=False)]
    config = tmp_path / "site.yml"
    config.write_text(FIXED_CONFIG, encoding="utf-8")
    site = site_context(rounds, load_site_config(config), cache_dir=tmp_path / "cache")
    assert site.primary.stats is not None
    built = language_pages(site, "en", SvgCache(tmp_path / "svg"))
    for file in built.pages:
        data = _page_plain(file.page)
        if file.path == "data.md":
            data["software"] = len(data["software"])  # versions of the machine, not the inputs
            for section in data["rounds"]:  # digests: of files that hold versions too
                for table in section["checksums"]:
                    table["rows"] = len(table["rows"])
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        check_golden(f"pages/{file.path.removesuffix('.md')}.json", text)
    assert {chart.chart_id for chart in built.charts} >= {"scatter-tiny-round"}


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
