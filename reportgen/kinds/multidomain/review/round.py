"""A multidomain round as the review app reads it while its human audit is under way.

The round spec's refusals 41 and 43 ask of a frozen archive what the review app is
still producing: every drawn response audited (audit.parquet, exported by the app) and
an `audit` ledger line for each invalidated item (written by the admin's action). Until
both are done the archive cannot pass `read_round`. The app therefore reads it, and
appends to its ledger, with these audit-in-progress problems tolerated (`tolerate` of
`read_round` and `append_annulment`); any other problem still refuses it.

The administrator's pages read the round on every Streamlit rerun (seconds for a round of
regulation size), so a read round is kept per process, keyed by the folder and a digest of
every file's bytes, the ledger included (`archive_digest`: milliseconds): an archive that
changed in any byte, or whose files were added or removed, is read again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import cast

from reportgen.archive import LEDGER_FILE
from reportgen.errors import Problem
from reportgen.kinds.multidomain.model import NAME, Round
from reportgen.kinds.multidomain.schemas import AUDIT_FILE
from reportgen.kinds.rounds import append_annulment, read_round
from reportgen.model import Annulment, Source
from review_app.core.errors import ReviewInputError

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


# The rounds kept: (folder, with_text, archive digest) -> round, the least recently used
# dropped first. A few: a server reviews one or two rounds at a time.
_KEPT = 4
_kept: OrderedDict[tuple[str, bool, str], Round] = OrderedDict()
_kept_lock = threading.Lock()  # Streamlit runs each session's script in a thread


def archive_digest(round_dir: Path) -> str | None:
    """SHA-256 over the path and bytes of every file under `round_dir` (the ledger and
    SHA256SUMS included); None when a file cannot be read (the read then says why)."""
    digest = hashlib.sha256()
    try:
        for path in sorted(p for p in round_dir.rglob("*") if p.is_file()):
            digest.update(path.relative_to(round_dir).as_posix().encode("utf-8") + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    except OSError:
        return None
    return digest.hexdigest()


def read_md_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The multidomain round at `round_dir`, verified except for the audit in progress;
    the same archive, byte for byte, is read once per process (a refusal is never kept)."""
    before = archive_digest(round_dir)
    key = (str(round_dir.resolve()), with_text, before or "")
    with _kept_lock:
        kept = _kept.get(key) if before is not None else None
        if kept is not None:
            _kept.move_to_end(key)
            return kept
    round_ = _read(round_dir, with_text)
    # Kept only if the archive did not change while it was read: the round read is then
    # the archive's at `before`.
    if before is not None and archive_digest(round_dir) == before:
        with _kept_lock:
            _kept[key] = round_
            while len(_kept) > _KEPT:
                _kept.popitem(last=False)
    return round_


def _read(round_dir: Path, with_text: bool) -> Round:
    round_ = read_round(round_dir, with_text=with_text, tolerate=audit_pending)
    if round_.manifest.kind != NAME:
        raise ReviewInputError("md_error_not_multidomain", round_id=round_.round_id)
    return cast(Round, round_)


def append_ledger_line(
    round_dir: Path,
    *,
    item_id: str,
    decided_on: date,
    source: Source,
    ref: str,
    reason: Mapping[str, str],
) -> Annulment:
    """Append one annulment to the round's ledger through the core's `append_annulment`
    (locked, chained, fsynced; the same item, source and ref again writes nothing), with
    the unfinished audit tolerated: the line appended may be the one a rule waits for."""
    return append_annulment(
        round_dir,
        item_id=item_id,
        decided_on=decided_on,
        source=source,
        ref=ref,
        reason=reason,
        tolerate=audit_pending,
    )
