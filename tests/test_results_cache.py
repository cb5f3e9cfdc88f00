"""The kind-neutral results cache: any pydantic model, keyed by the round's bytes and parameters."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from reportgen.results import _cache, cache_key, cache_path, cached_results
from reportgen.results._cache import code_revision


class ToyResults(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    label: str
    shares: tuple[float, ...]


@dataclass(frozen=True)
class ToyRound:
    path: Path
    ledger_sha256: str


def toy_round(folder: Path, sums: str = "abc  round.json\n", ledger: str = "") -> ToyRound:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SHA256SUMS").write_text(sums, encoding="utf-8")
    return ToyRound(folder, ledger)


def test_any_model_is_stored_then_read_back_without_computing(tmp_path: Path) -> None:
    round_ = toy_round(tmp_path / "round")
    computed = ToyResults(label="toy", shares=(0.25, 1.0))
    calls: list[str] = []

    def compute() -> ToyResults:
        calls.append("computed")
        return computed

    cache = tmp_path / "cache"
    assert cached_results(ToyResults, round_, ["toy/1", "7"], compute, cache) == computed
    assert cached_results(ToyResults, round_, ["toy/1", "7"], compute, cache) == computed
    assert calls == ["computed"]
    assert cache_path(cache, cache_key(round_, ["toy/1", "7"])).is_file()


def test_a_corrupt_or_foreign_entry_is_recomputed_and_overwritten(tmp_path: Path) -> None:
    round_ = toy_round(tmp_path / "round")
    cache = tmp_path / "cache"
    entry = cache_path(cache, cache_key(round_, ["toy/1"]))
    entry.parent.mkdir()
    fresh = ToyResults(label="fresh", shares=())
    for stale in ('{"label": "toy", "shares": [0.5]', '{"label": "toy", "shares": ["0.5"]}'):
        entry.write_text(stale, encoding="utf-8")
        assert cached_results(ToyResults, round_, ["toy/1"], lambda: fresh, cache) == fresh
        assert ToyResults.model_validate_json(entry.read_bytes()) == fresh


@pytest.mark.parametrize(
    ("sums", "ledger", "parameters"),
    [
        ("other  round.json\n", "", ["toy/1", "7"]),  # another archive
        ("abc  round.json\n", "f00d", ["toy/1", "7"]),  # an annulment recorded
        ("abc  round.json\n", "", ["toy/1", "8"]),  # other settings
        ("abc  round.json\n", "", ["toy/17"]),  # same characters, other parts
    ],
)
def test_the_key_follows_archive_ledger_and_parameters(
    tmp_path: Path, sums: str, ledger: str, parameters: list[str]
) -> None:
    base = cache_key(toy_round(tmp_path / "a"), ["toy/1", "7"])
    assert cache_key(toy_round(tmp_path / "b"), ["toy/1", "7"]) == base
    assert cache_key(toy_round(tmp_path / "c", sums, ledger), parameters) != base


def _sources(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_code_revision_follows_the_statistics_code_not_its_presentation(
    tmp_path: Path,
) -> None:
    files = {"stats/gaps.py": "GAP = 1\n", "score.py": "", "render/pages.py": "TITLE = 'a'\n"}
    base = code_revision(_sources(tmp_path / "a" / "kind", files))
    assert code_revision(_sources(tmp_path / "b" / "kind", files)) == base
    changed = code_revision(_sources(tmp_path / "c" / "kind", {**files, "stats/gaps.py": "GAP=2"}))
    assert changed != base
    added = code_revision(_sources(tmp_path / "d" / "kind", {**files, "results/extra.py": ""}))
    assert added != base
    shown = {**files, "render/pages.py": "TITLE = 'b'\n", "templates/x.py": ""}
    assert code_revision(_sources(tmp_path / "e" / "kind", shown)) == base


def test_the_key_changes_with_the_code_that_computes_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_ = toy_round(tmp_path / "round")
    code = _sources(tmp_path / "code", {"stats.py": "SHARE = 0.25\n"})
    monkeypatch.setattr(_cache, "_kind_folder", lambda _type: code)
    before = cache_key(round_, ["toy/1"])
    (code / "stats.py").write_text("SHARE = 0.5\n", encoding="utf-8")
    code_revision.cache_clear()  # a process sees one revision; a new one reads the new code
    assert cache_key(round_, ["toy/1"]) != before


def test_each_kind_is_keyed_by_its_own_folder() -> None:
    from reportgen.kinds.counterfactual.model import Round as CounterfactualRound
    from reportgen.kinds.estigmas.model import Round as EstigmasRound

    folders = [_cache._kind_folder(kind) for kind in (EstigmasRound, CounterfactualRound)]
    assert [folder.name if folder else None for folder in folders] == [
        "estigmas",
        "counterfactual",
    ]
    assert _cache._kind_folder(ToyRound) == Path(__file__).resolve().parent
