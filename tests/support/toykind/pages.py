"""The toy kind's one page (the mean score of each model of each round, in both
languages) and its one download (mean_scores.csv)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.toykind.model import ToyRound

if TYPE_CHECKING:
    from reportgen.render.site_source import NavEntry


_PAGE = {
    "pt-BR": ("Pontuações médias", "Modelo", "Pontuação média (0 a 10)", "Dados gerados"),
    "en": ("Mean scores", "Model", "Mean score (0 to 10)", "Generated data"),
}


@dataclass(frozen=True)
class ToySite:
    """The toy kind's one page: the mean score of each model of each round."""

    rounds: tuple[ToyRound, ...]

    @property
    def nav(self) -> tuple[NavEntry, ...]:
        return ("index.md",)

    @property
    def nav_translations(self) -> Mapping[str, Mapping[str, str]]:
        return {}

    @property
    def source_date(self) -> date:
        return max(r.manifest.collected_on for r in self.rounds)

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        title, model, mean, synthetic = _PAGE[language]
        lines = [f"# {title}", "", f"*{synthetic}*", ""]
        for round_ in self.rounds:
            lines += [f"## {round_.manifest.title[language]}", "", f"| {model} | {mean} |"]
            lines.append("|---|---:|")
            for model_id, value in round_.mean_scores().items():
                lines.append(f"| {model_id} | {value:.2f} |")
            lines.append("")
        pages_dir.mkdir(parents=True, exist_ok=True)
        path = pages_dir / "index.md"
        path.write_text("\n".join(lines), encoding="utf-8")
        return [path]

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        return []  # every file beside the pages is written with them

    def write_downloads(self, site_dir: Path) -> list[Path]:
        written = []
        for round_ in self.rounds:
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(["model_id", "mean_score"])
            writer.writerows(round_.mean_scores().items())
            path = site_dir / "data" / round_.round_id / "mean_scores.csv"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(buffer.getvalue(), encoding="utf-8")
            written.append(path)
        return written
