"""The bank's version and its declared changes (Art. 11, 17): two optional keys of
round.json's `multidomain` block, added for the series across rounds (Art. 2(d)).

- `bank_version` (str): the version of the bank the round applied, as its
  `banco/_manifest.json` names it (e.g. "1.0", "1.1").
- `bank_revisions` (list of `{"item_id", "revises"}`): the bank items of this round that
  replace, under a new id, an item of an earlier bank version (Art. 17: a changed item
  needs a new id). `item_id` is a bank item of this round (a test item that is no
  variant); `revises` is not an item of this round, and has the same domain and language
  as its replacement in the round that holds it (checked across archives).

Archives written without the keys are read as before: no version recorded, no revision
declared.
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.archive import MANIFEST_FILE, Problems
from reportgen.kinds.multidomain.archive_block import BlockReader
from reportgen.kinds.multidomain.model import BankRevision, Round

BANK_KEYS: tuple[str, ...] = ("bank_version", "bank_revisions")
_REVISIONS = "multidomain.bank_revisions"


def bank_values(block: Mapping[str, object], read: BlockReader) -> dict[str, object]:
    """The Manifest's `bank_version` and `bank_revisions` (absent keys: None and ())."""
    version = block.get("bank_version")
    if version is not None:
        version = read.text("bank_version", version)
    revisions: list[BankRevision] = []
    if "bank_revisions" in block:
        for index, entry in enumerate(read.listed("bank_revisions", block["bank_revisions"])):
            path = f"bank_revisions[{index}]"
            fields = read.obj(path, entry, ("item_id", "revises"))
            if fields:
                revision = BankRevision(
                    read.text(f"{path}.item_id", fields["item_id"]),
                    read.text(f"{path}.revises", fields["revises"]),
                )
                if revision.item_id == revision.revises:
                    read.bad(path, f"an item cannot revise itself ({revision.item_id!r})")
                revisions.append(revision)
        for key in ("item_id", "revises"):
            seen = [getattr(r, key) for r in revisions]
            twice = sorted({value for value in seen if seen.count(value) > 1})
            if twice:
                read.bad("bank_revisions", f"each {key} appears once, got twice: {twice}")
    return {"bank_version": version, "bank_revisions": tuple(revisions)}


def check_revisions(round_: Round) -> list[tuple[str, str]]:
    """(where, message) for each declared revision that this round's items contradict."""
    items = {item.item_id: item for item in round_.items}
    problems = []
    for index, revision in enumerate(round_.manifest.bank_revisions):
        where = f"{_REVISIONS}[{index}]"
        new = items.get(revision.item_id)
        if new is None or new.calibration or new.variant_of is not None:
            problems.append(
                (
                    f"{where}.item_id",
                    f"{revision.item_id!r} is not a bank item of items.parquet (a test item "
                    "with variant_of null)",
                )
            )
        if revision.revises in items:
            problems.append(
                (
                    f"{where}.revises",
                    f"{revision.revises!r} is still an item of this round: a revised item "
                    "leaves the bank (Art. 17)",
                )
            )
    return problems


def add_revision_problems(round_: Round, problems: Problems) -> None:
    for where, message in check_revisions(round_):
        problems.add(MANIFEST_FILE, where, message)
