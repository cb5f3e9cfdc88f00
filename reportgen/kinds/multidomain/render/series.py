"""The series across rounds (Art. 2(d)): what the history pages show, computed from the
rounds a build receives, each as of the build's date, and their results.

- the rounds, in the order collected, each with its bank version (Art. 11, 17);
- per participant (by `model_id`), its rank, primary and global scores with their 95%
  intervals and its snapshot in each round (the figures of that round's own results);
- the bank version register: each version (round.json `bank_version`; a round that
  records none is a version of its own, known by its `bank_sha256`), the rounds that
  applied it, and what changed from the previous version in the bank items (test items
  that are no variant): items added, items removed, and items revised under a new id
  (a pair declared in `bank_revisions`, Art. 17), by item id and `content_sha256`.

The pages name an item only when every round's embargo allows it on the build's date
(render/embargo.py); the register counts the others without naming them.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.archive_across import bank_items
from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.results import ParticipantResults, SliceScore

SERIES_FOLDER = "series"  # the history pages' folder (the leak guard checks it too)


@dataclass(frozen=True)
class BankVersion:
    """One version of the bank and the rounds (in the series' order) that applied it."""

    number: int  # 1.. in the order first applied
    version: str | None  # round.json bank_version; None: not recorded
    round_ids: tuple[str, ...]
    items: Mapping[str, str]  # the bank items of its first round: id -> content_sha256


@dataclass(frozen=True)
class Revision:
    old_id: str
    old_sha256: str
    new_id: str
    new_sha256: str


@dataclass(frozen=True)
class VersionStep:
    """From one version to the next: the bank items added, removed and revised."""

    before: BankVersion
    after: BankVersion
    added: tuple[tuple[str, str], ...]  # (item_id, content_sha256), by id
    removed: tuple[tuple[str, str], ...]
    revised: tuple[Revision, ...]
    kept: int  # items with the same id and hash in both


@dataclass(frozen=True)
class Standing:
    """A participant in one round: that round's own figures."""

    round_id: str
    rank: int
    primary: SliceScore
    global_score: SliceScore
    tie_group: int | None  # technical-tie group number in that round
    snapshot: str  # models.csv snapshot, or the open-weights checksum
    change: Fraction | None  # primary minus its primary in the previous round it took part in


@dataclass(frozen=True)
class ParticipantSeries:
    model_id: str
    display_name: str  # as the latest round names it
    standings: tuple[Standing | None, ...]  # one per round of the series (None: absent)


@dataclass(frozen=True)
class Series:
    contexts: tuple[RoundContext, ...]  # in the order collected
    versions: tuple[BankVersion, ...]
    round_version: Mapping[str, BankVersion]  # round id -> its version
    steps: tuple[VersionStep, ...]
    participants: tuple[ParticipantSeries, ...]  # by first appearance, then cast order

    def shows_id(self, item_id: str) -> bool:
        """`item_id` may be named: no round's embargo hides it on the build's date."""
        return all(context.shows_id(item_id) for context in self.contexts)


def _versions(contexts: Sequence[RoundContext]) -> tuple[tuple[BankVersion, ...], dict[str, int]]:
    keys: dict[str, list[str]] = {}  # version key -> round ids
    of_round: dict[str, str] = {}
    for context in contexts:
        manifest = context.round_.manifest
        key = manifest.bank_version or f"round:{context.round_id}"
        keys.setdefault(key, []).append(context.round_id)
        of_round[context.round_id] = key
    by_id = {c.round_id: c for c in contexts}
    versions = tuple(
        BankVersion(
            number,
            by_id[rounds[0]].round_.manifest.bank_version,
            tuple(rounds),
            bank_items(by_id[rounds[0]].round_),
        )
        for number, (key, rounds) in enumerate(keys.items(), start=1)
    )
    index = {key: n for n, key in enumerate(keys)}
    return versions, {rid: index[key] for rid, key in of_round.items()}


def _step(before: BankVersion, after: BankVersion, declared: Mapping[str, str]) -> VersionStep:
    """`declared`: new item id -> the id it revises (the later version's rounds)."""
    old, new = before.items, after.items
    added = {i: h for i, h in new.items() if old.get(i) != h}
    removed = {i: h for i, h in old.items() if new.get(i) != h}
    revised = []
    for new_id, old_id in sorted(declared.items()):
        if new_id in added and old_id in removed:
            revised.append(Revision(old_id, removed.pop(old_id), new_id, added.pop(new_id)))
    kept = sum(1 for i, h in new.items() if old.get(i) == h)
    return VersionStep(
        before, after, tuple(sorted(added.items())), tuple(sorted(removed.items())),
        tuple(sorted(revised, key=lambda r: r.old_id)), kept,
    )  # fmt: skip


def _standing(
    context: RoundContext, result: ParticipantResults, previous: Standing | None
) -> Standing:
    groups = {m: n for n, group in enumerate(context.results.tie_groups, start=1) for m in group}
    participant = context.participant(result.model_id)
    score = result.primary.score
    before = previous.primary.score if previous is not None else None
    change = None if score is None or before is None else score.fraction - before.fraction
    return Standing(
        context.round_id,
        result.rank,
        result.primary,
        result.global_score,
        groups.get(result.model_id),
        participant.snapshot or participant.checksum,
        change,
    )


def _participants(contexts: Sequence[RoundContext]) -> tuple[ParticipantSeries, ...]:
    order: dict[str, str] = {}  # model id -> display name (the latest)
    for context in contexts:
        for model in context.round_.models:
            order[model.model_id] = model.display_name
    found = []
    for model_id, name in order.items():
        standings: list[Standing | None] = []
        last: Standing | None = None
        for context in contexts:
            result = next((p for p in context.results.participants if p.model_id == model_id), None)
            standing = None if result is None else _standing(context, result, last)
            standings.append(standing)
            last = standing or last
        found.append(ParticipantSeries(model_id, name, tuple(standings)))
    return tuple(found)


def series(contexts: Sequence[RoundContext]) -> Series:
    """The series of `contexts` (any order given; sorted by collection date, then id)."""
    ordered = tuple(sorted(contexts, key=lambda c: (c.round_.manifest.collected_on, c.round_id)))
    versions, index = _versions(ordered)
    steps = []
    for before, after in itertools.pairwise(versions):
        declared = {
            r.item_id: r.revises
            for context in ordered
            if context.round_id in after.round_ids
            for r in context.round_.manifest.bank_revisions
        }
        steps.append(_step(before, after, declared))
    return Series(
        ordered,
        versions,
        {c.round_id: versions[index[c.round_id]] for c in ordered},
        tuple(steps),
        _participants(ordered),
    )
