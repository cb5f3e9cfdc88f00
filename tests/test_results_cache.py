"""The kind-neutral results cache: any pydantic model, keyed by the round's bytes and parameters."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from reportgen.results import cache_key, cache_path, cached_results


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
