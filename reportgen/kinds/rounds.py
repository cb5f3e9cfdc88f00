"""Round archives read, verified and written with the registry's kinds.

The archive core (`reportgen.archive`) takes the set of kinds as an argument and never
imports the registry; these are its entry points with the registry (`KINDS`) given,
for the CLI, the build, the review app and the kinds themselves. Each loads the archive
module it needs on first use, as `reportgen.archive` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, Unpack

from reportgen import archive
from reportgen.errors import ArchiveError, Problem
from reportgen.kinds import KINDS, Kind

if TYPE_CHECKING:
    from reportgen.archive import ArchiveContent
    from reportgen.archive._writer import AnnulmentRequest, RoundContent
    from reportgen.model import Annulment, Manifest, Model, Round

R = TypeVar("R", bound="Round")


def read_round(
    round_dir: Path, *, with_text: bool = True, tolerate: Callable[[Problem], bool] | None = None
) -> Round:
    """`reportgen.archive.read_round` with the registry's kinds."""
    return archive.read_round(round_dir, kinds=KINDS, with_text=with_text, tolerate=tolerate)


def verify_round(round_dir: Path) -> list[Problem]:
    """Every problem of the archive at `round_dir` (empty when it is valid)."""
    return archive.verify_round(round_dir, kinds=KINDS)


def check_across(rounds: Sequence[Round]) -> list[Problem]:
    """Problems across archives: each kind checks its own rounds together."""
    return archive.check_across(rounds, kinds=KINDS)


def read_raw_round(raw_dir: Path) -> ArchiveContent:
    """`reportgen.archive.read_raw_round` with the registry's kinds."""
    return archive.read_raw_round(raw_dir, kinds=KINDS)


def kind_of_round(round_dir: Path) -> Kind:
    """The kind of the round (raw or frozen) at `round_dir`, from its round.json alone."""
    return archive.kind_of_round(round_dir, kinds=KINDS)


def manifest_to_dict(manifest: Manifest) -> dict[str, object]:
    """The content of round.json (version 2) for `manifest`, keys in the spec's order."""
    return archive.manifest_to_dict(manifest, kinds=KINDS)


def manifest_from_dict(data: object, *, folder_name: str | None = None) -> Manifest:
    """The inverse of `manifest_to_dict`; raises ArchiveError listing every problem."""
    return archive.manifest_from_dict(data, kinds=KINDS, folder_name=folder_name)


def manifest_bytes(manifest: Manifest) -> bytes:
    """round.json's bytes for `manifest`: indented, UTF-8 as is, one final newline."""
    return archive.manifest_bytes(manifest, kinds=KINDS)


def write_round(dest: Path, **content: Unpack[RoundContent]) -> None:
    """`reportgen.archive.write_round` with the registry's kinds."""
    archive.write_round(dest, kinds=KINDS, **content)


def write_archive_files(
    dest: Path, files: Mapping[str, bytes], *, verify_as: str | None = None
) -> None:
    """`reportgen.archive.write_archive_files` with the registry's kinds."""
    archive.write_archive_files(dest, files, kinds=KINDS, verify_as=verify_as)


def write_round_files(dest: Path, round_id: str, files: Callable[[], Mapping[str, bytes]]) -> None:
    """`reportgen.archive.write_round_files` with the registry's kinds."""
    archive.write_round_files(dest, round_id, files, kinds=KINDS)


def round_writer(files: Callable[[R], Mapping[str, bytes]]) -> Callable[[R, Path], None]:
    """A kind's `write_round(round_, out_dir)`: the archive `files(round_)` (every file,
    SHA256SUMS included) written by `write_round_files` at `out_dir`, a new folder named
    after the round id; nothing is left on failure."""

    def write_round(round_: R, out_dir: Path) -> None:
        write_round_files(out_dir, round_.round_id, lambda: files(round_))

    return write_round


def append_model(
    round_dir: Path, model: Model, rows_for: Callable[[Round], Sequence[object]]
) -> None:
    """`reportgen.archive.append_model` with the registry's kinds."""
    archive.append_model(round_dir, model, rows_for, kinds=KINDS)


def append_annulment(round_dir: Path, **request: Unpack[AnnulmentRequest]) -> Annulment:
    """`reportgen.archive.append_annulment` with the registry's kinds."""
    return archive.append_annulment(round_dir, kinds=KINDS, **request)


def round_beside(
    round_: Round,
    other_id: str | None,
    known: Mapping[str, Round],
    where: str,
    other_type: tuple[type[R], str],
    problems: list[Problem],
) -> R | None:
    """The round `other_id` that round.json's `where` names (a baseline, a previous round):
    from `known` (the rounds read together), else the archive beside `round_`, read without
    texts; None after a problem in `problems` (no archive there, an invalid one, or one
    that is not of `other_type`: the round class and the kind's name); None, quietly, when
    `other_id` is None (round.json names no such round)."""
    if other_id is None:
        return None
    file = f"{round_.round_id}/round.json"
    other = known.get(other_id)
    if other is None:
        path = round_.path.parent / other_id
        if not path.is_dir():
            problems.append(Problem(file, where, f"{other_id!r}: no archive at {path}"))
            return None
        try:
            other = read_round(path, with_text=False)
        except ArchiveError as error:
            count = len(error.problems)
            message = f"{other_id!r}: the archive at {path} is invalid ({count} problem(s))"
            problems.append(Problem(file, where, message))
            return None
    round_type, kind_name = other_type
    if not isinstance(other, round_type) or other.manifest.kind != kind_name:
        message = f"{other_id!r} is a {other.manifest.kind!r} round, expected a {kind_name} one"
        problems.append(Problem(file, where, message))
        return None
    return other
