"""Answers of the read-only commands, cached by a round archive's frozen bytes.

`reportgen summary` prints the same text for the same archive, package and console, so
it keeps that text here and, on the next run, prints it without reading the Parquet
files, scoring or loading numpy and pyarrow. One file per key, `answer-<key>.json`, in
the results cache's directory (`default_cache_dir`). The key is the SHA-256 of
length-prefixed parts: the SHA-256 of SHA256SUMS, that of the annulment ledger, the
folder's name (the manifest must name it), the path, size and modification time of each
module of the package (a new version or an edited module makes new keys), then the
caller's parameters (the command, its options, the console's width and colours).

The archive is trusted only as far as it can be checked without reading it as a round:
every file SHA256SUMS lists has that digest, no other file is there but SHA256SUMS and
the ledger, nothing is a symbolic link, and no interrupted swap left its journal. An
archive that fails any of these (never frozen, a file changed, a file added) has no
cached answer: the command reads it and reports its problems as without a cache. An
answer is stored only once the command produced it, i.e. found the round valid, and only
if the archive's bytes did not change meanwhile.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import reportgen
from reportgen.archive._layout import CHECKSUMS_FILE, LEDGER_FILE, swap_journal_of
from reportgen.digest import parts_digest
from reportgen.results._cache import default_cache_dir, write_json

_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64}) [ *](.+)")


def cached_answer(
    round_dir: Path,
    parameters: Sequence[str],
    produce: Callable[[], str],
    cache_dir: Path | None = None,
) -> str:
    """The answer `produce()` gives for the archive `round_dir`, read from the cache when
    the archive is unchanged since it was stored; `produce`'s errors propagate and
    nothing is stored then."""
    digest = frozen_digest(round_dir)
    if digest is None:
        return produce()
    directory = default_cache_dir() if cache_dir is None else cache_dir
    path = directory / f"answer-{_key(round_dir, digest, parameters)}.json"
    try:
        stored = json.loads(path.read_bytes())
        answer = stored.get("answer") if isinstance(stored, dict) else None
        if isinstance(answer, str):
            return answer
    except (OSError, ValueError):  # absent or corrupt: produce and overwrite
        pass
    answer = produce()
    if frozen_digest(round_dir) == digest:
        with contextlib.suppress(OSError):  # an unwritable cache only costs time
            write_json(path, {"answer": answer})
    return answer


def frozen_digest(round_dir: Path) -> str | None:
    """The SHA-256 of SHA256SUMS and of the ledger when the archive holds exactly the
    files SHA256SUMS lists, each with its listed digest (the ledger aside); else None."""
    try:
        if swap_journal_of(round_dir).exists():
            return None
        sums = (round_dir / CHECKSUMS_FILE).read_bytes()
        listed = _listed(sums.decode("utf-8"))
        present = _present(round_dir)
        if listed is None or present is None:
            return None
        if present - {CHECKSUMS_FILE, LEDGER_FILE} != set(listed):
            return None
        for rel, digest in listed.items():
            with (round_dir / rel).open("rb") as handle:
                if hashlib.file_digest(handle, "sha256").hexdigest() != digest:
                    return None
        ledger = b""
        if LEDGER_FILE in present:
            ledger = (round_dir / LEDGER_FILE).read_bytes()
    except (OSError, UnicodeDecodeError):
        return None
    ledger_digest = hashlib.sha256(ledger).hexdigest() if LEDGER_FILE in present else ""
    return parts_digest([hashlib.sha256(sums).hexdigest(), ledger_digest])


def _listed(text: str) -> dict[str, str] | None:
    """path -> digest of a well-formed SHA256SUMS (as the archive check accepts it)."""
    if not text.endswith("\n"):
        return None
    listed: dict[str, str] = {}
    for line in text[:-1].split("\n"):
        match = _CHECKSUM_LINE.fullmatch(line)
        if match is None:
            return None
        digest, rel = match.groups()
        if rel in (CHECKSUMS_FILE, LEDGER_FILE) or rel in listed:
            return None
        listed[rel] = digest
    return listed


def _present(round_dir: Path) -> set[str] | None:
    """Every file under `round_dir`, relative; None when one is a symbolic link."""
    present: set[str] = set()
    for path in round_dir.rglob("*"):
        if path.is_symlink():
            return None
        if path.is_file():
            present.add(path.relative_to(round_dir).as_posix())
    return present


def _key(round_dir: Path, digest: str, parameters: Sequence[str]) -> str:
    folder = round_dir.resolve().name
    return parts_digest([digest, folder, _source_fingerprint(), *parameters])


def _source_fingerprint() -> str:
    """The path, size and modification time of every module of the package."""
    root = Path(reportgen.__file__).parent
    entries: list[str] = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                status = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), root)
                entries.append(f"{rel}:{status.st_size}:{status.st_mtime_ns}")
    return parts_digest(entries)
