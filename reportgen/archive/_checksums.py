"""SHA256SUMS: `sha256sum` output for every file of the archive but the ledger."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

from reportgen.archive._layout import CHECKSUMS_FILE, LEDGER_FILE, read_text_file
from reportgen.archive._problems import Problems

_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64}) [ *](.+)")


def checksums_text(digests: Mapping[str, str]) -> str:
    """SHA256SUMS content from path -> hex digest, sorted by path."""
    return "".join(f"{digests[rel]}  {rel}\n" for rel in sorted(digests))


def digests_of(files: Mapping[str, bytes]) -> dict[str, str]:
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}


def check_checksums(round_dir: Path, present: list[str], problems: Problems) -> dict[str, str]:
    """SHA256SUMS read and checked against the files present; returns path -> digest."""
    listed: dict[str, str] = {}
    if CHECKSUMS_FILE not in present:
        return listed
    found = problems.in_file(CHECKSUMS_FILE)
    text = read_text_file(round_dir / CHECKSUMS_FILE, found)
    if text is None:
        return listed
    for number, line in enumerate(text.split("\n"), start=1):
        if not line and number == text.count("\n") + 1:
            break  # the empty string after the final newline
        where = f"line {number}"
        match = _CHECKSUM_LINE.fullmatch(line)
        if match is None:
            found.add(where, "expected '<64 lowercase hex digits>  <path>'")
            continue
        digest, rel = match.groups()
        if rel in (CHECKSUMS_FILE, LEDGER_FILE):
            found.add(where, f"{rel} must not be listed")
        elif rel in listed:
            found.add(where, f"{rel} is listed twice")
        else:
            listed[rel] = digest
    if text and not text.endswith("\n"):
        found.add("", "the last line does not end with a newline")
    _compare(round_dir, present, listed, problems)
    return listed


def _compare(
    round_dir: Path, present: list[str], listed: Mapping[str, str], problems: Problems
) -> None:
    present_set = set(present)
    for rel, digest in listed.items():
        if rel not in present_set:
            problems.add(rel, "", "listed in SHA256SUMS but absent")
            continue
        try:
            with (round_dir / rel).open("rb") as handle:
                actual = hashlib.file_digest(handle, "sha256").hexdigest()
        except OSError as error:
            problems.add(rel, "", f"unreadable file: {error.strerror}")
            continue
        if actual != digest:
            problems.add(
                rel, "", f"checksum mismatch: SHA256SUMS lists {digest}, the file has {actual}"
            )
    for rel in present:
        if rel not in listed and rel not in (CHECKSUMS_FILE, LEDGER_FILE):
            problems.add(rel, "", "present but not listed in SHA256SUMS")


def parse_checksums(text: str) -> dict[str, str]:
    """path -> digest of a SHA256SUMS already verified (malformed lines are skipped)."""
    digests: dict[str, str] = {}
    for line in text.splitlines():
        match = _CHECKSUM_LINE.fullmatch(line)
        if match is not None:
            digests[match.group(2)] = match.group(1)
    return digests
