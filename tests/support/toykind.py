"""A kind of round that exists only in the tests: the proof that a kind is a plug-in.

`toy` has one table (`toy_scores.csv`: a score from 0 to 10 for each model's output to
each item), one score (each model's mean), one page (the table of means, in both
languages), one review task (is the output good or bad?) and what the leak guard keeps
secret (unpublished prompts). It is registered with `register_kind`; no core module
knows it.
"""

from __future__ import annotations

import csv
import io
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyarrow as pa

from reportgen.archive import ArchiveContent, FileProblems, Record
from reportgen.guard import GuardMaterial
from reportgen.kinds import Kind, TableRead, TableSpec, register_kind, unregister_kind
from reportgen.kinds.review_task import ReviewTask, ReviewUnit
from reportgen.model import ItemRecord, Manifest, Round

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.render.site_source import NavEntry, SiteSource
    from reportgen.render.siteconfig import SiteConfig

SCORES_FILE = "toy_scores.csv"


@dataclass(frozen=True)
class ToyItem:
    item_id: str
    language: str
    prompt: str
    canary: str | None
    published: bool


@dataclass(frozen=True)
class ToyResponse:
    item_id: str
    model_id: str
    raw_text: str
    run: int = 1
    latency_ms: float | None = None


@dataclass(frozen=True)
class ToyScore:
    item_id: str
    model_id: str
    score: int


@dataclass(frozen=True, kw_only=True)
class ToyRound(Round):
    scores: tuple[ToyScore, ...]
    outputs: Mapping[str, tuple[str, ...]]  # model_id -> raw texts, aligned with items

    def mean_scores(self) -> dict[str, float]:
        """Each model's mean score over the items not annulled."""
        kept = [s for s in self.scores if s.item_id not in self.annulled_item_ids]
        return {
            m.model_id: sum(s.score for s in kept if s.model_id == m.model_id)
            / max(1, sum(1 for s in kept if s.model_id == m.model_id))
            for m in self.models
        }


def _parse_scores(records: Sequence[Record], found: FileProblems) -> tuple[ToyScore, ...]:
    rows = []
    for number, record in records:
        text = record["score"]
        if not text.isdigit() or not 0 <= int(text) <= 10:
            found.add(f"row {number}", f"score {text!r} is not an integer from 0 to 10")
            continue
        rows.append(ToyScore(record["item_id"], record["model_id"], int(text)))
    return tuple(rows)


def _score_row(row: object) -> list[str]:
    score = cast(ToyScore, row)
    return [score.item_id, score.model_id, str(score.score)]


def _units(round_: object) -> Iterator[ReviewUnit]:
    assert isinstance(round_, ToyRound)
    by_key = {(s.item_id, s.model_id): s.score for s in round_.scores}
    for model in round_.models:
        for index, item in enumerate(round_.items):
            score = by_key[(item.item_id, model.model_id)]
            yield ReviewUnit(
                item_index=index,
                item_id=item.item_id,
                model_id=model.model_id,
                prompt=item.prompt,
                output=round_.outputs[model.model_id][index],
                automatic="good" if score >= 5 else "bad",
                stratum=(item.language,),
            )


REVIEW_TASK = ReviewTask(
    task_type="verdict",
    choices=("good", "bad"),
    note_required=frozenset(),
    automatic_values=("good", "bad"),
    comparison={"good": "good", "bad": "bad"},
    labels={"pt-BR": {"good": "Boa", "bad": "Ruim"}, "en": {"good": "Good", "bad": "Bad"}},
    stratum_names=("language",),
    units=_units,
)


class ToyKind(Kind):
    name = "toy"
    tables = (TableSpec(SCORES_FILE, ("item_id", "model_id", "score"), _parse_scores, _score_row),)

    @property
    def title(self) -> Mapping[str, str]:
        return {"pt-BR": "Brinquedo", "en": "Toy"}

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        return ()

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        return ()

    def parse_manifest(
        self,
        core: Manifest,
        block: Mapping[str, object],
        data: Mapping[str, object],
        found: FileProblems,
        *,
        raw: bool,
    ) -> Manifest | None:
        return core

    def manifest_block(self, manifest: Manifest) -> dict[str, object]:
        return {}

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        columns = [items.column(n).to_pylist() for n in ToyItem.__dataclass_fields__]
        return tuple(ToyItem(*values) for values in zip(*columns, strict=True))

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        return None

    def build_round(self, content: ArchiveContent) -> Round:
        outputs = {
            model_id: tuple(
                str(t) for t in table.column("raw_text").to_pylist()
            )  # the round is read with its texts in these tests
            if "raw_text" in table.column_names
            else ()
            for model_id, table in content.responses.items()
        }
        return ToyRound(
            path=content.path,
            manifest=content.manifest,
            models=content.models,
            items=content.items,
            annulments=content.annulments,
            checksums=content.checksums,
            ledger_sha256=content.ledger_sha256,
            scores=cast(tuple[ToyScore, ...], content.tables[SCORES_FILE]),
            outputs=types.MappingProxyType(outputs),
        )

    def summary_json(self, round_: Round) -> dict[str, Any]:
        assert isinstance(round_, ToyRound)
        means = round_.mean_scores()
        return {"round_id": round_.round_id, "mean_score": means}

    def print_summary(self, round_: Round, console: Console) -> None:
        assert isinstance(round_, ToyRound)
        for model_id, mean in round_.mean_scores().items():
            console.print(f"{model_id}: mean score {mean:.2f}", markup=False)

    def results_json(
        self,
        round_: Round,
        *,
        replicates: int | None,
        cache_dir: Path | None,
        use_cache: bool,
        advance: Callable[[int], None] | None = None,
    ) -> dict[str, Any]:
        return {"schema": "toy-results/1", **self.summary_json(round_)}

    def site(
        self,
        rounds: Sequence[Round],
        config: SiteConfig,
        *,
        cache_dir: Path | None,
        progress: Callable[[str], None] | None = None,
        section_depth: int = 0,
    ) -> SiteSource:
        return ToySite(tuple(cast(ToyRound, r) for r in rounds))

    def guard_material(self, round_: Round) -> GuardMaterial:
        return GuardMaterial(
            round_id=round_.round_id,
            secret_texts=tuple((i.item_id, i.prompt) for i in round_.items if not i.published),
            public_texts=tuple(i.prompt for i in round_.items if i.published),
            canaries=tuple(i.canary for i in round_.items if i.canary),
            names=tuple(m.display_name for m in round_.models),
        )

    @property
    def review_task(self) -> ReviewTask:
        return REVIEW_TASK


@contextmanager
def registered_toy_kind() -> Iterator[ToyKind]:
    """The toy kind, registered while the block runs (a test's fixture wraps it)."""
    kind = ToyKind()
    register_kind(kind)
    try:
        yield kind
    finally:
        unregister_kind(kind.name)


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
