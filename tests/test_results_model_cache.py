"""The per-model results cache (issue 19): a continuous round that gained a model bootstraps
that model alone, and its results are the very results computed without any cache, field
for field, bit for bit; a damaged or unwritable cache only costs time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.results import (
    RoundResults,
    _compute,
    _model_parts,
    _pair_parts,
    compute_results,
    load_results,
)
from reportgen.kinds.estigmas.score import build_cube, scored_items
from reportgen.kinds.estigmas.stats.bootstrap import ModelTables
from reportgen.kinds.rounds import read_round
from tests.support.continuous_round import ScaleRound

MODELS = 4
REPLICATES = 300


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Round, Round]:
    """A small continuous round, and the same round with one more model (as after
    `reportgen add-model`: the first models answer the same)."""
    scale = ScaleRound()
    folder = tmp_path_factory.mktemp("rounds")
    (folder / "before").mkdir()
    (folder / "after").mkdir()
    before = scale.write(folder / "before", MODELS, replicates=REPLICATES)
    after = scale.write(folder / "after", MODELS + 1, replicates=REPLICATES)
    read = [read_round(path, with_text=True) for path in (before, after)]
    assert all(isinstance(r, Round) for r in read)
    return read[0], read[1]  # type: ignore[return-value]


def _dump(results: RoundResults) -> dict[str, Any]:
    return results.model_dump()


def _parts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.bin") if not p.name.startswith("pair-"))


@pytest.mark.parametrize("all_pairs_up_to", [50, 2], ids=["every-pair", "neighbours"])
def test_a_grown_round_from_the_parts_equals_one_computed_without_cache(
    rounds: tuple[Round, Round],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    all_pairs_up_to: int,
) -> None:
    monkeypatch.setattr(_compute, "ALL_PAIRS_UP_TO", all_pairs_up_to)
    before, after = rounds
    plain_before, plain_after = compute_results(before), compute_results(after)

    cold = load_results(before, cache_dir=tmp_path)
    assert _dump(cold) == _dump(plain_before)
    assert len(_parts(tmp_path / "models")) == MODELS

    written: list[Path] = []
    write = _model_parts._write

    def recorded(path: Path, part: _model_parts.ModelPart) -> None:
        written.append(path)
        write(path, part)

    monkeypatch.setattr(_model_parts, "_write", recorded)
    warm = load_results(after, cache_dir=tmp_path)
    assert _dump(warm) == _dump(plain_after)
    # Only the new model was bootstrapped: one part written, the others read back.
    assert len(written) == 1
    assert len(_parts(tmp_path / "models")) == MODELS + 1
    # Read back a second time (the whole-results entry left aside), still the same.
    again = compute_results(after, model_cache=tmp_path / "models")
    assert _dump(again) == _dump(plain_after)


def test_a_damaged_part_or_pair_file_is_computed_again(
    rounds: tuple[Round, Round], tmp_path: Path
) -> None:
    before, _ = rounds
    plain = _dump(compute_results(before))
    compute_results(before, model_cache=tmp_path)
    parts = _parts(tmp_path)
    pairs = sorted(tmp_path.glob("pair-*.bin"))
    assert parts
    assert pairs
    truncated, flipped, garbage = parts[0], parts[1], pairs[0]
    truncated.write_bytes(truncated.read_bytes()[:-9])
    data = bytearray(flipped.read_bytes())
    data[-3] ^= 0x40  # one bit of a failure count: the CRC-32 tells
    flipped.write_bytes(bytes(data))
    garbage.write_bytes(b"not a pair")
    (tmp_path / parts[2].name).write_bytes(b"")

    assert _dump(compute_results(before, model_cache=tmp_path)) == plain
    # Rewritten whole: each decodes again.
    for path in (truncated, flipped, parts[2]):
        assert _model_parts._decode(path.read_bytes(), REPLICATES) is not None
    assert _pair_parts._read(garbage) is not None


def test_an_unwritable_or_absent_cache_computes_everything(
    rounds: tuple[Round, Round], tmp_path: Path
) -> None:
    before, _ = rounds
    plain = _dump(compute_results(before))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    assert _dump(compute_results(before, model_cache=blocker / "models")) == plain
    assert _dump(load_results(before, cache_dir=blocker)) == plain
    assert _dump(compute_results(before, model_cache=None)) == plain


def test_tables_counted_from_the_items_are_the_cubes(rounds: tuple[Round, Round]) -> None:
    _, after = rounds
    cube = build_cube(after)
    from_cube = ModelTables.from_cube(cube)
    from_items = ModelTables.from_items(cube, scored_items(after))
    for name in ("biased", "omissions", "correct", "scored", "positive"):
        assert getattr(from_items, name).tobytes() == getattr(from_cube, name).tobytes(), name
    assert from_items.stigma_positions == from_cube.stigma_positions
    assert from_items.structure_positions == from_cube.structure_positions
