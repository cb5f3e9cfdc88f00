"""A multidomain round as the review app reads it while its human audit is under way.

The round spec's refusals 41 and 43 ask of a frozen archive what the review app is
still producing: every drawn response audited (audit.parquet, exported by the app) and
an `audit` ledger line for each invalidated item (written by the admin's action). Until
both are done the archive cannot pass `read_round`. The app therefore reads it as
`read_round` does and, when the only problems found are these audit-in-progress ones,
accepts the round without the kind's cross-table rules; any other problem still
refuses it. Ledger lines are appended with the core ledger's own lock, chain and checks
(`reportgen.archive.append_annulment` re-verifies the whole archive first, which the
same refusals make impossible mid-audit).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import cast

from reportgen.archive import LEDGER_FILE, Problems, format_version, read_round
from reportgen.archive._ledger import annulment_line, parse_ledger
from reportgen.archive._reader import load
from reportgen.archive._writer import fsync_directory
from reportgen.errors import ArchiveError, InputError, Problem
from reportgen.kinds import get_kind
from reportgen.kinds.multidomain.model import NAME, Round
from reportgen.kinds.multidomain.schemas import AUDIT_FILE
from reportgen.model import SOURCES, TEXT_LANGUAGES, Annulment, Source
from review_app.errors import ReviewInputError

# Refusal 43's two messages (rules/audit.py): a divergence without its line, a line
# without its divergence. Other ledger problems (an audit line for an mcq item...) refuse.
_REFUSAL_43 = ("expected an `audit` line", "audit line without a triggering response")


def audit_pending(problem: Problem) -> bool:
    """A problem the unfinished audit explains: audit.parquet's rows (refusals 41–42), or
    the ledger's `audit` lines against them (refusal 43)."""
    if problem.file.endswith(AUDIT_FILE):
        return True
    return problem.file.endswith(LEDGER_FILE) and any(
        words in problem.message for words in _REFUSAL_43
    )


def read_md_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The multidomain round at `round_dir`, verified except for the audit in progress."""
    try:
        round_ = read_round(round_dir, with_text=with_text)
    except ArchiveError as error:
        if not error.problems or not all(audit_pending(p) for p in error.problems):
            raise
        round_ = _read_without_rules(round_dir, with_text=with_text)
    if round_.manifest.kind != NAME:
        raise ReviewInputError("md_error_not_multidomain", round_id=round_.round_id)
    return cast(Round, round_)


def _read_without_rules(round_dir: Path, *, with_text: bool) -> Round:
    problems = Problems()
    content = load(round_dir, problems, raw=False, with_text=with_text)
    problems.raise_if_any(str(round_dir))
    assert content is not None  # no problem means content
    return cast(Round, get_kind(content.manifest.kind).build_round(content))


# long: the lock, the checks and the append stay in one block, as in append_annulment.
def append_ledger_line(
    round_dir: Path,
    *,
    item_id: str,
    decided_on: date,
    source: Source,
    ref: str,
    reason: Mapping[str, str],
) -> Annulment:
    """Append one annulment to the round's ledger (locked, chained, fsynced); the same
    item, source and ref again writes nothing and returns the line already there. An
    item already annulled otherwise is refused (InputError)."""
    if source not in SOURCES or not ref:
        raise InputError(f"source {source!r} / ref {ref!r}: expected a known source and a ref")
    if set(reason) != set(TEXT_LANGUAGES) or not all(reason.values()):
        raise InputError('reason: expected {"pt-BR": "...", "en": "..."} with non-empty texts')
    archive = read_md_round(round_dir, with_text=False)
    item_ids = frozenset(item.item_id for item in archive.items)
    if item_id not in item_ids:
        raise InputError(f"{round_dir}: no item {item_id!r} to annul")
    ledger_path = round_dir / LEDGER_FILE
    existed = ledger_path.exists()
    try:
        with ledger_path.open("a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            handle.seek(0)
            data = handle.read()
            problems = Problems()
            version = format_version(archive.manifest.format)
            annulled = parse_ledger(data, problems, item_ids=item_ids, version=version)
            problems.raise_if_any(str(round_dir))
            for earlier in annulled:
                if earlier.item_id == item_id and (earlier.source, earlier.ref) == (source, ref):
                    return earlier
                if earlier.item_id == item_id:
                    raise InputError(f"{ledger_path}: item {item_id!r} is already annulled")
            annulment = Annulment(
                item_id=item_id,
                decided_on=decided_on,
                source=source,
                ref=ref,
                reason={language: reason[language] for language in TEXT_LANGUAGES},
                prev_sha256=hashlib.sha256(data).hexdigest() if data else "",
            )
            try:
                handle.write(annulment_line(annulment, annulment.prev_sha256))
                handle.flush()
                os.fsync(handle.fileno())
            except OSError:
                handle.truncate(len(data))
                raise
    except BaseException:
        if not existed and ledger_path.exists() and ledger_path.stat().st_size == 0:
            ledger_path.unlink()
        raise
    if not existed:
        fsync_directory(round_dir)
    return annulment
