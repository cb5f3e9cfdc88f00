"""Refusal 7: the cast (models.csv) against Annex A, `cast_size` and the reserve order.

Art. 5: the cast is the non-reserve annex entries minus the withdrawn ones plus one
reserve per withdrawn entry; the k withdrawn entries, in ascending annex_id, are replaced
by the first k reserves ranked by their primary rank in `previous_round` (absent ones
after, by annex_id; annex_id order without a previous round).
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import AnnexEntry, Round
from reportgen.kinds.multidomain.rules._index import MODELS


def reserve_ranking(
    annex: tuple[AnnexEntry, ...], previous_ranks: Mapping[int, int] | None
) -> list[int]:
    """The reserves' annex_ids in the order they replace withdrawn entries."""
    ranks = previous_ranks or {}

    def key(annex_id: int) -> tuple[bool, int, int]:
        rank = ranks.get(annex_id)
        return (rank is None, rank if rank is not None else 0, annex_id)

    return sorted((entry.annex_id for entry in annex if entry.reserve), key=key)


def check_cast(
    round_: Round,
    problems: Problems,
    previous_ranks: Mapping[int, int] | None,
    *,
    check_order: bool = True,
) -> None:
    """The cast's size and members; the reserve order too unless `check_order` is false
    (a round whose previous round's ranks are not known here: checked across archives)."""
    found = problems.in_file(MODELS)
    manifest = round_.manifest
    if len(round_.models) != manifest.cast_size:
        found.add(
            "",
            f"expected {manifest.cast_size} participants (multidomain.cast_size), "
            f"got {len(round_.models)}",
        )
    annex = {entry.annex_id: entry for entry in manifest.annex}
    present = {participant.annex_id for participant in round_.models}
    withdrawn = sorted(
        annex_id
        for annex_id, entry in annex.items()
        if not entry.reserve and annex_id not in present
    )
    ranking = reserve_ranking(manifest.annex, previous_ranks)
    expected = dict(zip(ranking, withdrawn, strict=False))  # reserve -> the entry it replaces
    if len(withdrawn) > len(ranking):
        found.add(
            "",
            f"{len(withdrawn)} annex entries are withdrawn ({_listed(withdrawn)}) "
            f"but Annex A has only {len(ranking)} reserves",
        )
    got: dict[int, int | None] = {}
    for number, participant in enumerate(round_.models, start=1):
        entry = annex.get(participant.annex_id)
        if entry is None:
            continue  # not an annex entry: the models.csv checks report it
        if entry.reserve:
            got[participant.annex_id] = participant.replaces
        elif participant.replaces is not None:
            found.add(
                f"row {number}, replaces",
                f"annex entry {participant.annex_id} is no reserve: expected empty, "
                f"got {participant.replaces}",
            )
    if check_order and got != expected:
        found.add(
            "replaces",
            "reserves out of order (Art. 5): withdrawn entries in ascending annex_id are "
            "replaced by the reserves in rank order, expected "
            f"{_pairs(expected)}, got {_pairs(got)}",
        )


def _pairs(replacing: Mapping[int, int | None]) -> str:
    if not replacing:
        return "no reserve"
    return ", ".join(f"reserve {r} replaces {w}" for r, w in sorted(replacing.items()))


def _listed(annex_ids: list[int]) -> str:
    return ", ".join(str(annex_id) for annex_id in annex_ids)
