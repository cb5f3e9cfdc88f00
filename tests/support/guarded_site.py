"""A tiny Estigmas round with one secret prompt, and a clean site to scan against it
(the leak guard's tests)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.model import Round
from tests.factories import tiny_parts, write_parts

LEAK = "Na reunião do condomínio alguém pergunta se a pessoa pode cuidar das chaves do salão"


def guarded_round(tmp_path: Path) -> Round:
    """Item i-002 (not published) holds the secret prompt LEAK."""
    parts = tiny_parts()
    items = tuple(
        replace(item, prompt=f"{LEAK}; ela chegou há pouco.") if item.item_id == "i-002" else item
        for item in parts.items
    )
    assert not items[1].published
    (tmp_path / "rounds").mkdir()
    write_parts(tmp_path / "rounds" / "tiny-round", replace(parts, items=items))
    return read_round(tmp_path / "rounds" / "tiny-round", with_text=False)


def clean_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    for name in ("index.html", "en/index.html", "models/a.html", "data/models.csv", "x.png"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(f"<p>página {name}</p>", encoding="utf-8")
    return site
